// Servers for tests: in-process on ephemeral loopback ports, or the built
// gpurace program as a child process that a test can kill.
#ifndef GPURACE_SERVER_TESTS_SERVERTESTSUPPORT_H
#define GPURACE_SERVER_TESTS_SERVERTESTSUPPORT_H

#include "server/RaceServer.h"
#include "storage/tests/StoreTestSupport.h"

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace gpurace::testing {

// A config on 127.0.0.1 port 0 for both listeners, with `db` as the file.
ServerConfig loopbackConfig(const std::string &db);

std::unique_ptr<RaceServer> startServer(const ServerConfig &config);

// `gpurace serve` in a child process.
class ServerProcess {
public:
  // Starts the program and waits for its start-up line.
  ServerProcess(const std::string &db, std::vector<std::string> extra = {});
  ~ServerProcess();
  const std::string &grpcAddress() const { return grpc_; }
  const std::string &httpAddress() const { return http_; }
  void kill(int signal);

private:
  pid_t pid_ = -1;
  std::string grpc_, http_;
};

} // namespace gpurace::testing

#endif
