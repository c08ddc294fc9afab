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

namespace {
class ActionFormatter : public CLI::Formatter {
public:
  std::string make_usage(const CLI::App *app, std::string name) const override {
    std::string usage = CLI::Formatter::make_usage(app, std::move(name));
    for (auto at = usage.find("SUBCOMMAND"); at != std::string::npos;
         at = usage.find("SUBCOMMAND", at))
      usage.replace(at, 10, "ACTION");
    return usage;
  }
};
} // namespace

void useActionUsage(CLI::App &app) {
  app.formatter(std::make_shared<ActionFormatter>());
}

int reportError(const std::string &command, const Status &status) {
  std::cerr << "gpurace " << command << ": error: " << status.message << "\n";
  return kExitToolError;
}

} // namespace gpurace
