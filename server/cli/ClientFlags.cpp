#include "server/cli/Commands.h"

#include <cstdlib>
#include <iostream>

namespace gpurace {

void addClientFlags(CLI::App &app, ClientOptions &options) {
  options.address.clear();
  app.add_option("--server", options.address,
                 "gRPC address of the race server (default: $GPURACE_SERVER "
                 "or 127.0.0.1:50551)");
  app.add_option("--token", options.token,
                 "API token (default: $GPURACE_TOKEN)");
  app.add_option("--tls-ca", options.tls_ca,
                 "PEM file of the CA that signed the server's certificate; "
                 "turns on TLS")
      ->check(CLI::ExistingFile);
}

void applyClientEnvironment(ClientOptions &options) {
  if (options.address.empty()) {
    const char *env = std::getenv("GPURACE_SERVER");
    options.address = env && *env ? env : "127.0.0.1:50551";
  }
  if (options.token.empty())
    if (const char *env = std::getenv("GPURACE_TOKEN"))
      options.token = env;
}

int reportError(const std::string &command, const Status &status) {
  std::cerr << "gpurace " << command << ": error: " << status.message << "\n";
  return kExitToolError;
}

} // namespace gpurace
