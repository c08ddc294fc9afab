// `gpurace serve`: the race server in the foreground until SIGINT/SIGTERM.
#include "server/RaceServer.h"
#include "server/cli/Commands.h"
#include "storage/PostgresConnection.h"

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

namespace gpurace {

namespace {

struct ServeFlags {
  std::string config_file;
  ServerConfig config;
};

// Flags given on the command line win over the config file.
Status applyFlags(CLI::App &app, ServeFlags &flags, ServerConfig &out) {
  out = ServerConfig();
  if (!flags.config_file.empty())
    if (Status s = loadServerConfig(flags.config_file, out); !s.ok())
      return s;
  auto given = [&](const char *name) { return app.count(name) > 0; };
  const ServerConfig &f = flags.config;
  if (given("--db")) out.db = f.db;
  if (given("--listen")) out.grpc_listen = f.grpc_listen;
  if (given("--http")) out.http_listen = f.http_listen;
  if (given("--web-root")) out.web_root = f.web_root;
  if (given("--require-auth")) out.require_auth = true;
  if (given("--public-read")) out.public_read = true;
  if (given("--insecure-no-auth")) out.insecure_no_auth = true;
  if (given("--keep-runs")) out.keep_runs = f.keep_runs;
  if (given("--max-request-bytes")) out.max_request_bytes = f.max_request_bytes;
  if (given("--max-page-size")) out.max_page_size = f.max_page_size;
  if (given("--tls-cert")) out.tls_cert = f.tls_cert;
  if (given("--tls-key")) out.tls_key = f.tls_key;
  return {};
}

std::string authLine(RaceServer &server, const ServerConfig &config) {
  auto live = server.store().hasLiveTokens();
  bool on = server.authAlways() || (live.ok() && live.value());
  if (!on)
    return "auth off (no API tokens yet; 'gpurace token create' turns it on)";
  return config.public_read ? "auth on (reads are public)" : "auth on";
}

int serve(CLI::App &app, ServeFlags &flags) {
  ServerConfig config;
  if (Status s = applyFlags(app, flags, config); !s.ok())
    return reportError("serve", s);
  // Signals are taken by one thread with sigwait; every other thread,
  // including gRPC's, starts with them blocked.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto server = RaceServer::start(config);
  if (!server.ok())
    return reportError("serve", server.status());
  const char *scheme = (*server)->tls() ? "https" : "http";
  std::cout << "gpurace serve: gRPC on " << (*server)->grpcAddress()
            << ", HTTP on " << scheme << "://" << (*server)->httpAddress()
            << ", db " << sql::redactedUrl(config.db) << "\n"
            << "gpurace serve: " << authLine(**server, config) << std::endl;
  if (!(*server)->exposureWarning().empty())
    std::cerr << "gpurace serve: warning: " << (*server)->exposureWarning() << std::endl;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    (*server)->shutdown();
  });
  (*server)->wait();
  waiter.join();
  std::cout << "gpurace serve: stopped" << std::endl;
  return kExitOk;
}

} // namespace

Subcommand serveCommand() {
  Subcommand command;
  command.name = "serve";
  command.summary = "Serve the race database over gRPC and HTTP";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<ServeFlags>();
    ServerConfig &c = flags->config;
    app.add_option("--db", c.db,
                   "SQLite file or postgresql://USER@HOST/DB URI (default: "
                   "gpurace.db)");
    app.add_option("--listen", c.grpc_listen,
                   "gRPC address (default: 127.0.0.1:50551; port 0 picks one)");
    app.add_option("--http", c.http_listen,
                   "HTTP address of the JSON API and dashboard (default: "
                   "127.0.0.1:8080)");
    app.add_option("--config", flags->config_file,
                   "JSON config file (see deploy/gpurace.json); flags win");
    app.add_option("--web-root", c.web_root,
                   "folder of the dashboard (default: web/dist or web/ of "
                   "the source tree)");
    app.add_flag("--require-auth",
                 "require an API token even before any token exists");
    app.add_flag("--public-read", "let reads through without a token");
    app.add_flag("--insecure-no-auth",
                 "serve an address beyond loopback although the database holds no "
                 "token, with no authentication (warned on every start)");
    app.add_option("--keep-runs", c.keep_runs,
                   "prune to the newest N runs per branch at start-up");
    app.add_option("--max-request-bytes", c.max_request_bytes,
                   "largest gRPC message or HTTP body accepted");
    app.add_option("--max-page-size", c.max_page_size,
                   "largest page a list query may ask for");
    app.add_option("--tls-cert", c.tls_cert, "PEM certificate: serve TLS");
    app.add_option("--tls-key", c.tls_key, "PEM private key of --tls-cert");
    app.footer("Auth is off until the database holds an API token (or with "
               "--require-auth); then uploads need a store token, queries a "
               "read token (unless --public-read), pruning an admin token.\n"
               "Beyond loopback (e.g. --listen 0.0.0.0:50551) auth is always on: "
               "with no token in the database the server refuses to start unless "
               "--require-auth or --insecure-no-auth is given.");
    return [&app, flags]() { return serve(app, *flags); };
  };
  return command;
}

} // namespace gpurace
