#include "server/RaceServer.h"

#include "server/NetworkExposure.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace gpurace {

bool splitHostPort(const std::string &address, std::string &host, int &port) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size())
    return false;
  std::string digits = address.substr(colon + 1);
  if (digits.size() > 5 || digits.find_first_not_of("0123456789") !=
                               std::string::npos)
    return false;
  host = address.substr(0, colon);
  port = std::stoi(digits);
  return port <= 65535;
}

namespace {

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

} // namespace

Result<std::unique_ptr<RaceServer>>
RaceServer::start(const ServerConfig &config) {
  std::unique_ptr<RaceServer> server(new RaceServer());
  StoreOptions options;
  options.page_limits.max_size = config.max_page_size;
  auto store = SqlRaceStore::open(config.db, options);
  if (!store.ok())
    return store.status();
  server->store_ = std::move(store.value());
  if (config.keep_runs > 0)
    if (auto pruned = server->store_->prune(config.keep_runs); !pruned.ok())
      return pruned.status();
  auto tokens = server->store_->hasLiveTokens();
  if (!tokens.ok())
    return tokens.status();
  auto exposure = decideExposure(config, tokens.value());
  if (!exposure.ok())
    return exposure.status();
  server->exposure_warning_ = exposure.value().warning;
  server->auth_always_ = exposure.value().require_auth;
  server->service_ = std::make_unique<RaceService>(
      *server->store_, AuthPolicy{exposure.value().require_auth, config.public_read});
  server->tls_ = !config.tls_cert.empty() && !config.tls_key.empty();
  if (config.tls_cert.empty() != config.tls_key.empty())
    return Status::invalid("tls_cert and tls_key: give both or neither");
  if (Status s = server->startGrpc(config); !s.ok())
    return s;
  if (Status s = server->startHttp(config); !s.ok())
    return s;
  return server;
}

Status RaceServer::startGrpc(const ServerConfig &config) {
  std::string host;
  int port = 0;
  if (!splitHostPort(config.grpc_listen, host, port))
    return Status::invalid("listen: expected HOST:PORT, got '" +
                           config.grpc_listen + "'");
  std::shared_ptr<grpc::ServerCredentials> credentials =
      grpc::InsecureServerCredentials();
  if (tls_) {
    grpc::SslServerCredentialsOptions ssl;
    grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
    if (!readFile(config.tls_key, pair.private_key) ||
        !readFile(config.tls_cert, pair.cert_chain))
      return Status::invalid("tls_cert/tls_key: cannot read '" +
                             config.tls_cert + "' or '" + config.tls_key + "'");
    ssl.pem_key_cert_pairs.push_back(pair);
    credentials = grpc::SslServerCredentials(ssl);
  }
  ingest_ = std::make_unique<IngestServiceImpl>(*service_, config.ack_every);
  query_ = std::make_unique<QueryServiceImpl>(*service_);
  projects_ = std::make_unique<ProjectServiceImpl>(*service_);
  grpc::ServerBuilder builder;
  int bound = 0;
  builder.AddListeningPort(config.grpc_listen, credentials, &bound);
  builder.SetMaxReceiveMessageSize(static_cast<int>(config.max_request_bytes));
  builder.RegisterService(ingest_.get());
  builder.RegisterService(query_.get());
  builder.RegisterService(projects_.get());
  grpc_ = builder.BuildAndStart();
  if (!grpc_ || bound == 0)
    return Status::internal("cannot listen for gRPC on " + config.grpc_listen);
  grpc_address_ = host + ":" + std::to_string(bound);
  return {};
}

Status RaceServer::startHttp(const ServerConfig &config) {
  std::string host;
  int port = 0;
  if (!splitHostPort(config.http_listen, host, port))
    return Status::invalid("http: expected HOST:PORT, got '" +
                           config.http_listen + "'");
  if (tls_)
    http_ = std::make_unique<httplib::SSLServer>(config.tls_cert.c_str(),
                                                 config.tls_key.c_str());
  else
    http_ = std::make_unique<httplib::Server>();
  if (!http_->is_valid())
    return Status::invalid("tls_cert/tls_key: not a usable certificate and key");
  http_->set_payload_max_length(config.max_request_bytes);
  http_->set_read_timeout(30, 0);
  http_->set_write_timeout(30, 0);
  api_ = std::make_unique<HttpApi>(*service_, resolveWebRoot(config.web_root));
  api_->install(*http_);
  int bound = port == 0 ? http_->bind_to_any_port(host)
                        : (http_->bind_to_port(host, port) ? port : -1);
  if (bound <= 0)
    return Status::internal("cannot listen for HTTP on " + config.http_listen);
  http_address_ = host + ":" + std::to_string(bound);
  http_thread_ = std::thread([this] {
    http_->listen_after_bind();
    http_stopped_ = true;
  });
  // httplib's stop() does nothing until the accept loop has begun, so a
  // shutdown that came before it would leave the thread listening forever.
  while (!http_->is_running() && !http_stopped_)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (http_stopped_)
    return Status::internal("HTTP listener on " + http_address_ +
                            " stopped as it started");
  return {};
}

void RaceServer::wait() { grpc_->Wait(); }

void RaceServer::shutdown() {
  if (http_)
    http_->stop();
  if (grpc_)
    grpc_->Shutdown();
}

RaceServer::~RaceServer() {
  shutdown();
  if (http_thread_.joinable())
    http_thread_.join();
}

} // namespace gpurace
