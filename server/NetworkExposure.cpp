#include "server/NetworkExposure.h"

#include "server/RaceServer.h"

#include <vector>

namespace gpurace {

bool isLoopbackHost(const std::string &host) {
  std::string bare = host;
  if (bare.size() >= 2 && bare.front() == '[' && bare.back() == ']')
    bare = bare.substr(1, bare.size() - 2);
  return bare == "localhost" || bare == "::1" || bare.rfind("127.", 0) == 0;
}

Result<ExposureDecision> decideExposure(const ServerConfig &config, bool database_has_tokens) {
  std::vector<std::string> exposed;
  for (const std::string &address : {config.grpc_listen, config.http_listen}) {
    std::string host;
    int port = 0;
    if (!splitHostPort(address, host, port) || !isLoopbackHost(host))
      exposed.push_back(address);
  }
  ExposureDecision decision;
  decision.require_auth = config.require_auth;
  if (exposed.empty() || config.require_auth)
    return decision;
  if (database_has_tokens) {
    // Revoking the last token must not open the server to everyone.
    decision.require_auth = true;
    return decision;
  }
  if (config.insecure_no_auth) {
    decision.warning = "serving " + exposed.front() +
                       " beyond loopback with no authentication (--insecure-no-auth): "
                       "anyone who reaches it can upload, triage and prune";
    return decision;
  }
  return Status::invalid(
      "refusing to serve " + exposed.front() +
      " beyond loopback while the database holds no API token: create one with "
      "'gpurace token create --db " + config.db +
      " --role admin --name ops' (or start with --require-auth and create it then); "
      "--insecure-no-auth serves without authentication");
}

} // namespace gpurace
