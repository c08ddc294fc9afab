#include "server/tests/ServerTestSupport.h"

#include "tests/support/RunProcess.h"

#include <csignal>
#include <cstdio>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

namespace gpurace::testing {

ServerConfig loopbackConfig(const std::string &db) {
  ServerConfig config;
  config.db = db;
  config.grpc_listen = "127.0.0.1:0";
  config.http_listen = "127.0.0.1:0";
  config.web_root = "/nonexistent";
  return config;
}

std::unique_ptr<RaceServer> startServer(const ServerConfig &config) {
  auto server = RaceServer::start(config);
  EXPECT_TRUE(server.ok()) << server.status().message;
  return server.ok() ? std::move(server.value()) : nullptr;
}

ServerProcess::ServerProcess(const std::string &db,
                             std::vector<std::string> extra) {
  int out[2];
  if (pipe(out) != 0)
    return;
  std::vector<std::string> argv = {gpuraceBinary(), "serve", "--db", db,
                                   "--listen", "127.0.0.1:0", "--http",
                                   "127.0.0.1:0"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    std::vector<char *> args;
    for (auto &a : argv)
      args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  FILE *stream = fdopen(out[0], "r");
  char line[512] = {0};
  // "gpurace serve: gRPC on ADDR, HTTP on http://ADDR, db PATH"
  if (stream && fgets(line, sizeof(line), stream)) {
    std::smatch m;
    std::string text = line;
    if (std::regex_search(text, m,
                          std::regex("gRPC on ([^,]+), HTTP on https?://([^,]+)"))) {
      grpc_ = m[1];
      http_ = m[2];
    }
  }
  // The child keeps writing to the pipe; leaving it open keeps it from
  // SIGPIPE, and it is closed when the test process ends.
  EXPECT_FALSE(grpc_.empty()) << "no start-up line from gpurace serve: " << line;
}

void ServerProcess::kill(int signal) {
  if (pid_ <= 0)
    return;
  ::kill(pid_, signal);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

ServerProcess::~ServerProcess() { kill(SIGTERM); }

} // namespace gpurace::testing
