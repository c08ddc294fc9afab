// The HTTP/JSON API on a real server on 127.0.0.1, as the dashboard and
// scripts call it.
#include "proto/JsonCodec.h"
#include "server/tests/ServerTestSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace gpurace::testing {
namespace {

class HttpApiTest : public ::testing::Test {
protected:
  TempDir dir;
  ServerConfig config = loopbackConfig(dir.path("races.db"));
  std::unique_ptr<RaceServer> server;
  std::unique_ptr<httplib::Client> client;

  void start() {
    server = startServer(config);
    ASSERT_TRUE(server);
    client = std::make_unique<httplib::Client>("http://" + server->httpAddress());
    client->set_read_timeout(20, 0);
  }

  nlohmann::json get(const std::string &path, int expected = 200) {
    auto res = client->Get(path.c_str());
    EXPECT_TRUE(res) << path;
    if (!res)
      return {};
    EXPECT_EQ(res->status, expected) << path << ": " << res->body;
    return nlohmann::json::parse(res->body, nullptr, false);
  }

  httplib::Result post(const std::string &path, const std::string &body,
                       const std::string &token = "") {
    httplib::Headers headers;
    if (!token.empty())
      headers.emplace("Authorization", "Bearer " + token);
    return client->Post(path.c_str(), headers, body, "application/json");
  }

  std::string uploadJson(const std::vector<v1::RaceCandidate> &cs,
                         const std::string &commit) {
    return toJson(analysisUpload(cs, commit));
  }
};

TEST_F(HttpApiTest, UploadThenQueryEveryEndpoint) {
  start();
  auto res = post("/api/v1/analysis",
                  uploadJson({candidate("v1:aa"), candidate("v1:bb")}, "c1"));
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(nlohmann::json::parse(res->body)["racesNew"], 2);
  post("/api/v1/analysis", uploadJson({candidate("v1:aa")}, "c2"));

  EXPECT_EQ(get("/api/v1/projects")["projects"], nlohmann::json({"demo"}));
  auto races = get("/api/v1/races?project=demo&branch=main&detection=resolved");
  ASSERT_EQ(races["races"].size(), 1u);
  EXPECT_EQ(races["races"][0]["fingerprint"], "v1:bb");
  std::string id = races["races"][0]["id"];

  auto race = get("/api/v1/races/" + id);
  EXPECT_EQ(race["candidate"]["first"]["excerpt"]["lines"][1],
            "  out[i] = in[i];");
  EXPECT_EQ(get("/api/v1/races/" + id + "/history")["entries"].size(), 2u);
  auto summary = get("/api/v1/summary?project=demo&branch=main");
  EXPECT_EQ(summary["byDetection"]["DETECTION_STATE_RESOLVED"], 1);
  EXPECT_EQ(summary["byDetection"]["DETECTION_STATE_UNRESOLVED"], 1);
  auto runs = get("/api/v1/runs?project=demo");
  ASSERT_EQ(runs["runs"].size(), 2u);
  std::string newest = runs["runs"][0]["runId"];
  auto detail = get("/api/v1/runs/" + newest);
  EXPECT_EQ(detail["racesResolved"][0]["fingerprint"], "v1:bb");
  EXPECT_EQ(get("/api/v1/trend?project=demo&branch=main")["points"].size(), 2u);
  EXPECT_EQ(get("/healthz")["status"], "ok");
}

TEST_F(HttpApiTest, ARunsPerfFindingsAreFilteredByKindAndABadKindIs400) {
  start();
  v1::UploadAnalysisRequest request = analysisUpload({candidate("v1:aa")}, "c1");
  for (auto [fingerprint, kind] : {std::pair{"perf1:b", v1::PERF_KIND_BANK_CONFLICT},
                                   std::pair{"perf1:s", v1::PERF_KIND_UNCOALESCED}}) {
    v1::PerfFinding *finding = request.mutable_result()->add_perf_findings();
    finding->set_fingerprint(fingerprint);
    finding->set_kind(kind);
    finding->set_cost(4);
    finding->set_best(1);
  }
  auto res = post("/api/v1/analysis", toJson(request));
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  std::string run = nlohmann::json::parse(res->body)["runId"];
  EXPECT_EQ(get("/api/v1/runs/" + run)["perfFindings"].size(), 2u);
  auto banks = get("/api/v1/runs/" + run + "?perf_kind=bank-conflict");
  ASSERT_EQ(banks["perfFindings"].size(), 1u);
  EXPECT_EQ(banks["perfFindings"][0]["fingerprint"], "perf1:b");
  auto bad = get("/api/v1/runs/" + run + "?perf_kind=slow", 400);
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("perf_kind"), std::string::npos)
      << bad.dump();
}

TEST_F(HttpApiTest, ReviewIsSetWithPut) {
  start();
  post("/api/v1/analysis", uploadJson({candidate("v1:aa")}, "c1"));
  auto res = client->Put(
      "/api/v1/races/1/review",
      R"({"state": "REVIEW_STATE_FALSE_POSITIVE", "comment": "n < 256", "author": "ana"})",
      "application/json");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  auto race = nlohmann::json::parse(res->body);
  EXPECT_EQ(race["review"]["state"], "REVIEW_STATE_FALSE_POSITIVE");
  EXPECT_EQ(race["review"]["author"], "ana");
  EXPECT_EQ(get("/api/v1/races?review=false-positive")["races"].size(), 1u);
  auto missing = client->Put("/api/v1/races/77/review",
                             R"({"state": "REVIEW_STATE_CONFIRMED"})",
                             "application/json");
  EXPECT_EQ(missing->status, 404);
}

TEST_F(HttpApiTest, BadJsonIs400NamingTheFieldAndStoresNothing) {
  start();
  auto res = post("/api/v1/analysis",
                  R"({"metadata": {"project": "demo", "comit": "x"}})");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400);
  auto error = nlohmann::json::parse(res->body)["error"];
  EXPECT_EQ(error["code"], "INVALID_ARGUMENT");
  EXPECT_NE(error["message"].get<std::string>().find("comit"),
            std::string::npos);

  res = post("/api/v1/analysis", "{not json");
  EXPECT_EQ(res->status, 400);
  res = post("/api/v1/analysis",
             R"({"metadata": {"project": "demo"}, "result": {"candidates": [{"fingerprint": "v1:aa"}]}})");
  EXPECT_EQ(res->status, 400);
  EXPECT_NE(res->body.find("result.candidates[0].race_class"), std::string::npos);
  EXPECT_EQ(get("/api/v1/projects")["projects"].size(), 0u);

  auto bad_query = get("/api/v1/races?status=maybe", 400);
  EXPECT_NE(bad_query["error"]["message"].get<std::string>().find("status"),
            std::string::npos);
  get("/api/v1/races/12345", 404);
  get("/api/v1/nothing-here", 404);
}

// Found by fuzzing: an error that quotes a path which is not UTF-8 made
// the JSON writer throw: a 500 from a route, and from the handler of
// httplib's own errors (a POST to an unknown path) the end of the server.
// The message now carries U+FFFD in place of the bad byte.
TEST_F(HttpApiTest, PathThatIsNotUtf8IsQuotedInA404) {
  start();
  auto get_error = get("/api/v1/r%FFces", 404)["error"];
  EXPECT_EQ(get_error["code"], "NOT_FOUND");
  const std::string quoted = "GET /api/v1/r\xEF\xBF\xBD"
                             "ces";
  EXPECT_NE(get_error["message"].get<std::string>().find(quoted),
            std::string::npos)
      << get_error;
  auto res = post("/api/v1/r%FFces", "{}");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404) << res->body;
  EXPECT_EQ(nlohmann::json::parse(res->body)["error"]["code"], "NOT_FOUND");
  EXPECT_EQ(get("/healthz")["status"], "ok");
}

TEST_F(HttpApiTest, OversizedBodyIs413) {
  config.max_request_bytes = 1024;
  start();
  auto res = post("/api/v1/analysis", std::string(4096, ' '));
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 413);
}

TEST_F(HttpApiTest, AuthIs401Then403ThenOk) {
  start();
  auto reader = server->store().createToken("dash", "", Role::kRead);
  auto admin = server->store().createToken("root", "", Role::kAdmin);
  std::string body = uploadJson({candidate("v1:aa")}, "c1");
  EXPECT_EQ(post("/api/v1/analysis", body)->status, 401);
  auto forbidden = post("/api/v1/analysis", body, reader->secret);
  EXPECT_EQ(forbidden->status, 403);
  EXPECT_EQ(nlohmann::json::parse(forbidden->body)["error"]["code"],
            "PERMISSION_DENIED");
  EXPECT_EQ(post("/api/v1/analysis", body, admin->secret)->status, 200);
  get("/api/v1/races", 401);
  EXPECT_EQ(post("/api/v1/admin/prune?keep_runs=1", "", reader->secret)->status,
            403);
  EXPECT_EQ(post("/api/v1/admin/prune?keep_runs=1", "", admin->secret)->status,
            200);
}

TEST_F(HttpApiTest, HostileStringsAreReturnedVerbatim) {
  start();
  const std::string file = "<script>alert('x')</script>\"; DROP TABLE races;--.cu";
  post("/api/v1/analysis", uploadJson({candidate("v1:aa", "k", file)}, "c1"));
  auto races = get("/api/v1/races");
  ASSERT_EQ(races["races"].size(), 1u);
  EXPECT_EQ(races["races"][0]["candidate"]["first"]["location"]["file"], file);
}

TEST_F(HttpApiTest, DashboardFilesWithIndexFallback) {
  std::filesystem::create_directories(dir.path("web/js"));
  std::ofstream(dir.path("web/index.html")) << "<html>dashboard</html>";
  std::ofstream(dir.path("web/js/main.js")) << "console.log(1);";
  config.web_root = dir.path("web");
  start();
  auto js = client->Get("/js/main.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->body, "console.log(1);");
  auto route = client->Get("/races/12");
  EXPECT_EQ(route->status, 200);
  EXPECT_EQ(route->body, "<html>dashboard</html>");
  EXPECT_EQ(client->Get("/api/v1/unknown")->status, 404);
}

} // namespace
} // namespace gpurace::testing
