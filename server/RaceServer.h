//===- RaceServer.h - gRPC and HTTP in one process --------------*- C++ -*-===//
#ifndef GPURACE_SERVER_RACESERVER_H
#define GPURACE_SERVER_RACESERVER_H

#include "server/GrpcServices.h"
#include "server/HttpApi.h"
#include "server/ServerConfig.h"
#include "storage/SqlRaceStore.h"

#include <grpcpp/server.h>

#include <atomic>
#include <memory>
#include <thread>

namespace gpurace {

class RaceServer {
public:
  // Opens the database (running its migrations), binds both listeners and
  // starts serving. Port 0 in an address picks a free port.
  static Result<std::unique_ptr<RaceServer>> start(const ServerConfig &config);
  ~RaceServer();

  // The addresses actually bound, e.g. "127.0.0.1:50551".
  const std::string &grpcAddress() const { return grpc_address_; }
  const std::string &httpAddress() const { return http_address_; }
  bool tls() const { return tls_; }
  // Whether every call needs a token whatever the database holds
  // (--require-auth, or an address beyond loopback).
  bool authAlways() const { return auth_always_; }
  // Set when it serves beyond loopback without authentication.
  const std::string &exposureWarning() const { return exposure_warning_; }
  SqlRaceStore &store() { return *store_; }

  // Blocks until shutdown() is called from another thread.
  void wait();
  void shutdown();

private:
  RaceServer() = default;
  Status startGrpc(const ServerConfig &config);
  Status startHttp(const ServerConfig &config);

  std::unique_ptr<SqlRaceStore> store_;
  std::unique_ptr<RaceService> service_;
  std::unique_ptr<IngestServiceImpl> ingest_;
  std::unique_ptr<QueryServiceImpl> query_;
  std::unique_ptr<ProjectServiceImpl> projects_;
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<HttpApi> api_;
  std::unique_ptr<httplib::Server> http_;
  std::thread http_thread_;
  std::atomic<bool> http_stopped_{false};
  std::string grpc_address_, http_address_, exposure_warning_;
  bool tls_ = false;
  bool auth_always_ = false;
};

// "host:port" split; false when there is no port.
bool splitHostPort(const std::string &address, std::string &host, int &port);

} // namespace gpurace

#endif
