// A server beyond loopback never answers as an open admin API: the decision
// for each listening address, token state and flag, with no socket opened.
#include "server/NetworkExposure.h"

#include <gtest/gtest.h>

namespace gpurace {
namespace {

TEST(NetworkExposure, OnlyLoopbackHostsCountAsLoopback) {
  for (const char *host : {"127.0.0.1", "127.4.5.6", "localhost", "::1", "[::1]"})
    EXPECT_TRUE(isLoopbackHost(host)) << host;
  for (const char *host : {"0.0.0.0", "", "::", "[::]", "10.1.2.3", "ci.example.com", "1127.0.0.1"})
    EXPECT_FALSE(isLoopbackHost(host)) << host;
}

ServerConfig listening(const std::string &grpc, const std::string &http) {
  ServerConfig config;
  config.db = "/var/lib/gpurace/races.db";
  config.grpc_listen = grpc;
  config.http_listen = http;
  return config;
}

TEST(NetworkExposure, LoopbackServesWithAuthOffUntilATokenExists) {
  auto decision = decideExposure(listening("127.0.0.1:50551", "localhost:8080"), false);
  ASSERT_TRUE(decision.ok()) << decision.status().message;
  EXPECT_FALSE(decision.value().require_auth);
  EXPECT_EQ(decision.value().warning, "");
}

TEST(NetworkExposure, BeyondLoopbackWithoutATokenRefusesAndSaysHowToCreateOne) {
  for (ServerConfig config : {listening("0.0.0.0:50551", "127.0.0.1:8080"),
                              listening("127.0.0.1:50551", "[::]:8080"),
                              listening(":50551", "127.0.0.1:8080")}) {
    auto decision = decideExposure(config, false);
    ASSERT_FALSE(decision.ok()) << config.grpc_listen << " " << config.http_listen;
    const std::string &message = decision.status().message;
    EXPECT_NE(message.find("gpurace token create --db /var/lib/gpurace/races.db --role admin"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--insecure-no-auth"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";
  }
}

TEST(NetworkExposure, BeyondLoopbackRequiresATokenForEveryCall) {
  ServerConfig config = listening("0.0.0.0:50551", "0.0.0.0:8080");
  // With tokens: on for good, even if every token is revoked later.
  auto with_tokens = decideExposure(config, true);
  ASSERT_TRUE(with_tokens.ok());
  EXPECT_TRUE(with_tokens.value().require_auth);
  config.require_auth = true;
  auto required = decideExposure(config, false);
  ASSERT_TRUE(required.ok());
  EXPECT_TRUE(required.value().require_auth);
  EXPECT_EQ(required.value().warning, "");
}

TEST(NetworkExposure, InsecureNoAuthServesButWarns) {
  ServerConfig config = listening("10.0.0.7:50551", "127.0.0.1:8080");
  config.insecure_no_auth = true;
  auto decision = decideExposure(config, false);
  ASSERT_TRUE(decision.ok());
  EXPECT_FALSE(decision.value().require_auth);
  EXPECT_NE(decision.value().warning.find("10.0.0.7:50551"), std::string::npos);
  EXPECT_NE(decision.value().warning.find("--insecure-no-auth"), std::string::npos);
}

} // namespace
} // namespace gpurace
