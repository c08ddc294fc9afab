// upload, races, token and db through the built gpurace program, as CI and
// an operator run them.
#include "proto/JsonCodec.h"
#include "server/tests/ServerTestSupport.h"
#include "tests/support/RunProcess.h"

#include <httplib.h>

#include <fstream>

namespace gpurace::testing {
namespace {

class CliCommandsTest : public ::testing::Test {
protected:
  TempDir dir;
  std::string db = dir.path("races.db");

  std::string writeResult(const std::string &name,
                          const std::vector<v1::RaceCandidate> &cs) {
    v1::AnalysisResult result;
    for (const auto &c : cs)
      *result.add_candidates() = c;
    std::string path = dir.path(name);
    std::ofstream(path) << toJson(result);
    return path;
  }

  ProcessResult gpurace(std::vector<std::string> args) {
    args.insert(args.begin(), gpuraceBinary());
    return runProcess(args);
  }
};

TEST_F(CliCommandsTest, UploadThenGateOnNewRaces) {
  ServerProcess server(db);
  const std::string addr = server.grpcAddress();
  std::string base = writeResult("base.json", {candidate("v1:aa")});
  std::string next = writeResult("next.json", {candidate("v1:aa"),
                                               candidate("v1:bb")});

  auto first = gpurace({"upload", base, "--server", addr, "--project", "demo",
                        "--commit", "1111", "--branch", "main"});
  EXPECT_EQ(first.exit_code, 2) << first.err; // one new race
  EXPECT_NE(first.out.find("1 new"), std::string::npos) << first.out;
  auto retry = gpurace({"upload", base, "--server", addr, "--project", "demo",
                        "--commit", "1111", "--branch", "main"});
  EXPECT_NE(retry.out.find("already stored"), std::string::npos) << retry.out;

  auto none = gpurace({"races", "--server", addr, "--project", "demo",
                       "--branch", "main", "--new-since", "1111"});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("0 races new since 1111"), std::string::npos);

  auto second = gpurace({"upload", next, "--server", addr, "--project", "demo",
                         "--commit", "2222", "--branch", "main"});
  EXPECT_EQ(second.exit_code, 2) << second.err;
  auto gated = gpurace({"races", "--server", addr, "--project", "demo",
                        "--branch", "main", "--new-since", "1111",
                        "--format", "json"});
  EXPECT_EQ(gated.exit_code, 2) << gated.err;
  v1::ListRacesResponse listed;
  std::string error;
  ASSERT_TRUE(fromJson(gated.out, listed, error)) << error << gated.out;
  ASSERT_EQ(listed.races_size(), 1);
  EXPECT_EQ(listed.races(0).fingerprint(), "v1:bb");

  auto review = gpurace({"races", "review", std::to_string(listed.races(0).id()),
                         "--server", addr, "--state", "intentional",
                         "--comment", "benign", "--author", "ana"});
  EXPECT_EQ(review.exit_code, 0) << review.err;
  EXPECT_NE(review.out.find("intentional"), std::string::npos) << review.out;
  auto show = gpurace({"races", "show", std::to_string(listed.races(0).id()),
                       "--server", addr});
  EXPECT_NE(show.out.find("REVIEW_STATE_INTENTIONAL"), std::string::npos);
}

TEST_F(CliCommandsTest, UploadErrorsAreClear) {
  auto missing = gpurace({"upload", dir.path("nope.json"), "--project", "p",
                          "--server", "127.0.0.1:1"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos);
  std::ofstream(dir.path("bad.json")) << R"({"candidates": [{"fingerprnt": 1}]})";
  auto bad = gpurace({"upload", dir.path("bad.json"), "--project", "p",
                      "--server", "127.0.0.1:1"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("fingerprnt"), std::string::npos) << bad.err;
  std::string ok = writeResult("ok.json", {});
  auto down = gpurace({"upload", ok, "--project", "p", "--server",
                       "127.0.0.1:1"});
  EXPECT_EQ(down.exit_code, 1);
  EXPECT_NE(down.err.find("127.0.0.1:1"), std::string::npos) << down.err;
}

// `gpurace analyze --fix --format=sarif` keeps each finding's repair in the
// result's properties: an upload of that SARIF file stores it for the
// dashboard, and a malformed one is refused naming the field.
TEST_F(CliCommandsTest, SarifUploadKeepsTheRepairOfEachFinding) {
  auto sarif = [&](const std::string &repair) {
    std::string path = dir.path("fix.sarif");
    std::ofstream(path) << R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "gpurace"}},
      "results": [{"ruleId": "gpurace-inter-block", "message": {"text": "race"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "k.cu"},
                                            "region": {"startLine": 4, "startColumn": 5}}}],
        "partialFingerprints": {"gpuraceFingerprint/v1": "v1:cc"},
        "properties": {"score": 1.0, "kernel": "count", "repair": )" + repair + "}}]}]}";
    return path;
  };
  ServerProcess server(db);
  const std::string addr = server.grpcAddress();
  std::string kernel = dir.path("count.cu");
  std::ofstream(kernel) << R"(
__global__ void countPositive(const int *in, int *count) {
  if (in[threadIdx.x] > 0)
    count[0] += 1;
}
int main() { int *a, *c; cudaMalloc(&a, 1024); cudaMalloc(&c, 4); countPositive<<<1, 256>>>(a, c); }
)";
  std::string good = dir.path("count.sarif");
  auto analyzed = gpurace({"analyze", "--fix", "--format=sarif", "-o", good, "--kernel",
                           "countPositive", kernel});
  ASSERT_EQ(analyzed.exit_code, 2) << analyzed.err;
  auto uploaded = gpurace({"upload", good, "--server", addr, "--project", "demo",
                           "--commit", "1111", "--branch", "main"});
  EXPECT_EQ(uploaded.exit_code, 2) << uploaded.err;
  auto listed = gpurace({"races", "--server", addr, "--project", "demo", "--format", "json"});
  v1::ListRacesResponse races;
  std::string error;
  ASSERT_TRUE(fromJson(listed.out, races, error)) << error << listed.out;
  ASSERT_GE(races.races_size(), 1);
  // One race carries the atomic's diff; any other names it as its repair.
  unsigned with_diff = 0, shared = 0;
  for (const v1::Race &race : races.races()) {
    auto show = gpurace({"races", "show", std::to_string(race.id()), "--server", addr});
    EXPECT_NE(show.out.find("\"verified\": true"), std::string::npos) << show.out;
    // (JSON may escape the '&'.)
    with_diff += show.out.find("+    atomicAdd(") != std::string::npos &&
                 show.out.find("count[0], 1);") != std::string::npos;
    shared += show.out.find("\"repairedWith\": \"v1:") != std::string::npos;
  }
  EXPECT_EQ(with_diff, 1u);
  EXPECT_EQ(with_diff + shared, unsigned(races.races_size()));

  std::string bad = sarif(R"({"kind": "REPAIR_KIND_GLUE"})");
  auto refused = gpurace({"upload", bad, "--server", addr, "--project", "demo"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("runs[0].results[0].properties.repair"), std::string::npos)
      << refused.err;
}

// Refused before any socket is opened: nothing listens beyond loopback.
TEST_F(CliCommandsTest, ServeRefusesToOpenAnAdminApiBeyondLoopback) {
  auto refused = gpurace({"serve", "--db", db, "--listen", "0.0.0.0:0", "--http", "127.0.0.1:0"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("refusing to serve 0.0.0.0:0 beyond loopback"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("gpurace token create --db " + db), std::string::npos)
      << refused.err;
}

TEST_F(CliCommandsTest, TokensLockTheServer) {
  auto created = gpurace({"token", "create", "--db", db, "--role", "store",
                          "--project", "demo", "--name", "ci"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  std::string secret = created.out.substr(0, created.out.find('\n'));
  EXPECT_EQ(secret.rfind("grt_", 0), 0u);

  ServerProcess server(db);
  std::string result = writeResult("r.json", {candidate("v1:aa")});
  auto denied = gpurace({"upload", result, "--server", server.grpcAddress(),
                         "--project", "demo"});
  EXPECT_EQ(denied.exit_code, 1);
  EXPECT_NE(denied.err.find("missing API token"), std::string::npos)
      << denied.err;
  setenv("GPURACE_TOKEN", secret.c_str(), 1);
  auto allowed = gpurace({"upload", result, "--server", server.grpcAddress(),
                          "--project", "demo"});
  unsetenv("GPURACE_TOKEN");
  EXPECT_EQ(allowed.exit_code, 2) << allowed.err;

  auto listed = gpurace({"token", "list", "--db", db});
  EXPECT_NE(listed.out.find("ci\tstore\tdemo\tlive"), std::string::npos)
      << listed.out;
  EXPECT_EQ(listed.out.find(secret), std::string::npos);
  EXPECT_EQ(gpurace({"token", "revoke", "--db", db, "1"}).exit_code, 0);
  EXPECT_EQ(gpurace({"token", "revoke", "--db", db, "1"}).exit_code, 1);
  auto bad_role = gpurace({"token", "create", "--db", db, "--role", "god"});
  EXPECT_EQ(bad_role.exit_code, 1);
  EXPECT_NE(bad_role.err.find("--role"), std::string::npos);
}

TEST_F(CliCommandsTest, DbMigratePruneBackup) {
  auto migrated = gpurace({"db", "migrate", "--db", db});
  EXPECT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_NE(migrated.out.find("(was 0,"), std::string::npos) << migrated.out;
  {
    auto store = openStore(db);
    for (int i = 0; i < 3; ++i)
      store->uploadAnalysis(
          analysisUpload({candidate("v1:0" + std::to_string(i))},
                         "c" + std::to_string(i), "main", "demo", false));
  }
  auto pruned = gpurace({"db", "prune", "--db", db, "--keep-runs", "1"});
  EXPECT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_NE(pruned.out.find("deleted 2 runs and 2 races"), std::string::npos)
      << pruned.out;
  auto backup = gpurace({"db", "backup", "--db", db, "--to",
                         dir.path("copy.db")});
  EXPECT_EQ(backup.exit_code, 0) << backup.err;
  EXPECT_EQ(racesByFingerprint(*openStore(dir.path("copy.db")), "main").size(),
            1u);
}

// The same maintenance commands on a PostgreSQL database, by URI.
TEST_F(CliCommandsTest, DbAndTokenCommandsTakeAPostgresUri) {
  PostgresCluster *cluster = PostgresCluster::instance();
  if (!cluster)
    GTEST_SKIP() << "PostgreSQL tests skipped: "
                 << PostgresCluster::unavailableReason();
  const std::string url = cluster->createDatabase();
  auto migrated = gpurace({"db", "migrate", "--db", url});
  EXPECT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_NE(migrated.out.find("at schema version"), std::string::npos)
      << migrated.out;
  EXPECT_NE(migrated.out.find("(was 0,"), std::string::npos) << migrated.out;
  auto created = gpurace({"token", "create", "--db", url, "--role", "admin",
                          "--name", "ops"});
  EXPECT_EQ(created.exit_code, 0) << created.err;
  EXPECT_NE(gpurace({"token", "list", "--db", url}).out.find("ops"),
            std::string::npos);
  {
    auto store = openStore(url);
    for (int i = 0; i < 3; ++i)
      store->uploadAnalysis(
          analysisUpload({candidate("v1:0" + std::to_string(i))},
                         "c" + std::to_string(i), "main", "demo", false));
  }
  auto pruned = gpurace({"db", "prune", "--db", url, "--keep-runs", "1"});
  EXPECT_EQ(pruned.exit_code, 0) << pruned.err;
  EXPECT_NE(pruned.out.find("deleted 2 runs and 2 races"), std::string::npos)
      << pruned.out;
  auto backup =
      gpurace({"db", "backup", "--db", url, "--to", dir.path("races.dump")});
  EXPECT_EQ(backup.exit_code, 0) << backup.err;
  std::ifstream dump(dir.path("races.dump"), std::ios::binary);
  char magic[5] = {0};
  dump.read(magic, 5);
  EXPECT_EQ(std::string(magic, 5), "PGDMP"); // pg_dump's custom format

  auto unreachable = gpurace(
      {"db", "migrate", "--db",
       "postgresql://ops:hunter2@/races?host=/nonexistent-gpurace-dir"});
  EXPECT_EQ(unreachable.exit_code, 1);
  EXPECT_NE(unreachable.err.find("cannot connect to PostgreSQL"),
            std::string::npos)
      << unreachable.err;
  EXPECT_EQ(unreachable.err.find("hunter2"), std::string::npos)
      << unreachable.err;
}

TEST_F(CliCommandsTest, ServeRefusesABadConfig) {
  std::ofstream(dir.path("bad.json")) << R"({"listen": "127.0.0.1:0", "colour": 1})";
  auto r = gpurace({"serve", "--config", dir.path("bad.json"), "--db", db});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown key 'colour'"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurace::testing

namespace gpurace::testing {
namespace {

// A self-signed certificate for 127.0.0.1, made with the openssl program.
bool makeCertificate(const std::string &cert, const std::string &key) {
  ProcessResult r = runProcess(
      {"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
       "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
       "-keyout", key, "-out", cert});
  return r.exit_code == 0;
}

TEST_F(CliCommandsTest, TlsServesClientsThatTrustItsCertificate) {
  std::string cert = dir.path("cert.pem"), key = dir.path("key.pem");
  ASSERT_TRUE(makeCertificate(cert, key))
      << "the openssl program is needed (scripts/install-deps.sh installs it)";
  ServerProcess server(db, {"--tls-cert", cert, "--tls-key", key});
  std::string result = writeResult("r.json", {candidate("v1:cc")});
  auto trusted = gpurace({"upload", result, "--server", server.grpcAddress(),
                          "--tls-ca", cert, "--project", "demo"});
  EXPECT_EQ(trusted.exit_code, 2) << trusted.err;
  EXPECT_NE(trusted.out.find("1 new"), std::string::npos) << trusted.out;
  auto plain = gpurace({"races", "--server", server.grpcAddress(),
                        "--project", "demo"});
  EXPECT_EQ(plain.exit_code, 1) << "a plain-text client must not get through";
  auto listed = gpurace({"races", "--server", server.grpcAddress(), "--tls-ca",
                         cert, "--project", "demo", "--format", "json"});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("v1:cc"), std::string::npos) << listed.out;

  // The HTTP side serves the same certificate.
  std::string http = server.httpAddress();
  size_t colon = http.rfind(':');
  httplib::SSLClient client(http.substr(0, colon), std::stoi(http.substr(colon + 1)));
  client.set_ca_cert_path(cert.c_str());
  client.enable_server_certificate_verification(true);
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health) << "HTTPS request failed";
  EXPECT_EQ(health->status, 200);
}

} // namespace
} // namespace gpurace::testing
