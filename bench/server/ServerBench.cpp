//===- ServerBench.cpp - ingest rate and list latency on loopback ---------===//
//
// Starts the race server on 127.0.0.1 with a fresh database, then:
//  - ingest: 8, then 64 concurrent agents stream runtime reports over gRPC
//    while CI jobs upload analyses; reports observations stored per second,
//    and checks that every acknowledged report is stored exactly once;
//  - fills the store to GPURACE_BENCH_OBSERVATIONS observations (default
//    1,000,000) and measures list-query latency over HTTP, p50 and p99,
//    with the filters and sorts the dashboard uses.
// Each figure is printed with its ratio to the target (>= 20,000
// observations/s; p99 < 20 ms).
//
//   server_bench [--backend=sqlite|postgres] [--db=postgresql://...]
//                [--servers=N] [benchmark flags]
//
// --backend=postgres runs a private PostgreSQL server (initdb, pg_ctl; see
// storage/tests/PostgresCluster.h) with its default durability; --servers=2
// starts two gpurace servers on that one database and spreads the agents
// and uploads over them, as a load balancer would. --db names an existing,
// empty PostgreSQL database instead of the private server.
//
//===----------------------------------------------------------------------===//
#include "server/RaceServer.h"
#include "storage/tests/PostgresCluster.h"

#include <benchmark/benchmark.h>
#include <grpcpp/create_channel.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace gpurace {
namespace {

constexpr int kFingerprints = 10000;
constexpr int kObservationsPerReport = 50;

struct Bench {
  std::string dir;
  // Every server is on the same database.
  std::vector<std::unique_ptr<RaceServer>> servers;
  std::atomic<uint64_t> next_report{0};
  uint64_t fill_target = 0;

  RaceServer &server(size_t i = 0) { return *servers[i % servers.size()]; }
};

Bench &bench() {
  static Bench b;
  return b;
}

v1::ReportRuntimeRequest makeReport(uint64_t n) {
  v1::ReportRuntimeRequest r;
  r.set_upload_id("bench-" + std::to_string(n));
  r.mutable_metadata()->set_project("bench");
  r.mutable_metadata()->set_branch(n % 4 ? "main" : "dev");
  r.mutable_metadata()->set_commit("c" + std::to_string(n / 100));
  r.mutable_report()->mutable_launch()->set_kernel("k" + std::to_string(n % 50));
  r.mutable_report()->mutable_device()->set_name("NVIDIA H100");
  for (int i = 0; i < kObservationsPerReport; ++i) {
    auto *o = r.mutable_report()->add_races();
    uint64_t fp = (n * 7919 + i * 104729) % kFingerprints;
    o->set_fingerprint("v1:" + std::to_string(fp));
    o->set_race_class(static_cast<v1::RaceClass>(1 + fp % 5));
    o->set_count(1);
    o->mutable_first()->mutable_location()->set_file(
        "src/file" + std::to_string(fp % 100) + ".cu");
    o->mutable_first()->mutable_location()->set_line(fp % 400);
  }
  return r;
}

v1::UploadAnalysisRequest makeUpload(int n) {
  v1::UploadAnalysisRequest r;
  r.set_upload_id("ci-" + std::to_string(n));
  r.mutable_metadata()->set_project("bench");
  r.mutable_metadata()->set_branch("main");
  r.mutable_metadata()->set_commit("ci" + std::to_string(n));
  r.set_full_analysis(false);
  for (int i = 0; i < 200; ++i) {
    auto *c = r.mutable_result()->add_candidates();
    c->set_fingerprint("v1:" + std::to_string((n * 31 + i) % kFingerprints));
    c->set_race_class(v1::RACE_CLASS_INTRA_BLOCK);
    c->set_score(0.01 * (i % 100));
    c->set_kernel("k" + std::to_string(i % 50));
  }
  return r;
}

// One agent: streams `reports` reports and waits for every acknowledgement.
uint64_t runAgent(const std::string &address, int reports) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = v1::IngestService::NewStub(channel);
  grpc::ClientContext context;
  auto stream = stub->ReportRuntime(&context);
  std::thread writer([&] {
    for (int i = 0; i < reports; ++i)
      stream->Write(makeReport(bench().next_report++));
    stream->WritesDone();
  });
  uint64_t acked = 0;
  v1::ReportRuntimeAck ack;
  while (stream->Read(&ack))
    acked += ack.upload_ids_size();
  writer.join();
  stream->Finish();
  return acked * kObservationsPerReport;
}

// Runtime runs stored so far: one per stored report.
uint64_t storedReports() {
  v1::ListRunsRequest request;
  request.set_project("bench");
  request.set_page_size(1000);
  uint64_t runtime = 0;
  while (true) {
    auto page = bench().server().store().listRuns(request);
    if (!page.ok()) {
      std::fprintf(stderr, "listRuns: %s\n", page.status().message.c_str());
      std::exit(1);
    }
    for (const v1::Run &run : page->runs())
      runtime += run.kind() == "runtime";
    if (page->next_page_token().empty())
      return runtime;
    request.set_page_token(page->next_page_token());
  }
}

// Acknowledged reports missing from the store, and reports stored more
// often than sent, over every ingest run so far.
std::pair<double, double> checkStoredOnce(uint64_t acked_now) {
  static uint64_t acked_total = 0;
  acked_total += acked_now;
  uint64_t sent = bench().next_report, stored = storedReports();
  double lost = stored < acked_total ? double(acked_total - stored) : 0;
  double duplicated = stored > sent ? double(stored - sent) : 0;
  return {lost, duplicated};
}

void BM_IngestLoopback(benchmark::State &state) {
  const int agents = static_cast<int>(state.range(0));
  const int reports = 200;
  uint64_t observations = 0;
  double seconds = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    std::atomic<uint64_t> stored{0};
    for (int a = 0; a < agents; ++a)
      threads.emplace_back([&, a] {
        stored += runAgent(bench().server(a).grpcAddress(), reports);
      });
    // CI uploads arrive beside the agents.
    threads.emplace_back([&] {
      auto channel = grpc::CreateChannel(bench().server(1).grpcAddress(),
                                         grpc::InsecureChannelCredentials());
      auto stub = v1::IngestService::NewStub(channel);
      for (int i = 0; i < 4; ++i) {
        grpc::ClientContext context;
        v1::UploadAnalysisResponse response;
        stub->UploadAnalysis(&context, makeUpload(i + 100 * agents), &response);
      }
    });
    for (auto &t : threads)
      t.join();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count();
    observations += stored;
  }
  double rate = observations / seconds;
  state.counters["obs_per_s"] = rate;
  state.counters["x_target_20000"] = rate / 20000.0;
  auto [lost, duplicated] = checkStoredOnce(observations / kObservationsPerReport);
  state.counters["lost"] = lost;
  state.counters["duplicated"] = duplicated;
}

// Fills the store directly (no network) up to the target count.
void fill(uint64_t target) {
  SqlRaceStore &store = bench().server().store();
  uint64_t have = bench().next_report * kObservationsPerReport;
  while (have < target) {
    auto result = store.reportRuntime(makeReport(bench().next_report++));
    if (!result.ok()) {
      std::fprintf(stderr, "fill: %s\n", result.status().message.c_str());
      std::exit(1);
    }
    have += kObservationsPerReport;
  }
  std::printf("store holds %llu observations, %d fingerprints\n",
              static_cast<unsigned long long>(have), kFingerprints);
}

const char *const kQueries[] = {
    "/api/v1/races?project=bench&order_by=-score&page_size=50",
    "/api/v1/races?project=bench&branch=main&status=confirmed&order_by=-last_seen&page_size=50",
    "/api/v1/races?project=bench&class=inter-block,intra-warp&order_by=-occurrences&page_size=50",
    "/api/v1/races?project=bench&file=file7&page_size=50",
    "/api/v1/races?project=bench&order_by=-score&page_size=50&page_token=o5000",
};

void BM_ListRacesHttp(benchmark::State &state) {
  // Filled once, after the ingest run, outside the timed loop.
  static const bool filled = (fill(bench().fill_target), true);
  (void)filled;
  httplib::Client client("http://" + bench().server().httpAddress());
  std::vector<double> ms;
  size_t i = 0;
  for (auto _ : state) {
    const char *path = kQueries[i++ % std::size(kQueries)];
    auto start = std::chrono::steady_clock::now();
    auto res = client.Get(path);
    ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    if (!res || res->status != 200)
      state.SkipWithError("list query failed");
  }
  std::sort(ms.begin(), ms.end());
  double p50 = ms[ms.size() / 2], p99 = ms[ms.size() * 99 / 100];
  state.counters["p50_ms"] = p50;
  state.counters["p99_ms"] = p99;
  state.counters["p99_x_budget_20ms"] = p99 / 20.0;
}

void BM_GetRaceHttp(benchmark::State &state) {
  httplib::Client client("http://" + bench().server().httpAddress());
  int id = 1;
  for (auto _ : state) {
    auto res = client.Get(("/api/v1/races/" + std::to_string(id)).c_str());
    id = id % kFingerprints + 1;
    if (!res || res->status != 200)
      state.SkipWithError("get race failed");
  }
}

} // namespace
} // namespace gpurace

namespace gpurace {
namespace {

// Takes --backend= and --servers= out of argv, leaving the benchmark flags.
bool parseFlags(int &argc, char **argv, std::string &backend, std::string &db,
                int &servers) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--backend=", 10) == 0)
      backend = argv[i] + 10;
    else if (std::strncmp(argv[i], "--db=", 5) == 0)
      db = argv[i] + 5;
    else if (std::strncmp(argv[i], "--servers=", 10) == 0)
      servers = std::atoi(argv[i] + 10);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  if (backend != "sqlite" && backend != "postgres") {
    std::fprintf(stderr, "server_bench: --backend: expected sqlite or "
                         "postgres, got '%s'\n", backend.c_str());
    return false;
  }
  if (servers < 1 || servers > 8) {
    std::fprintf(stderr, "server_bench: --servers: expected 1 to 8\n");
    return false;
  }
  return true;
}

} // namespace
} // namespace gpurace

int main(int argc, char **argv) {
  using namespace gpurace;
  std::string backend = "sqlite", db;
  int servers = 1;
  if (!parseFlags(argc, argv, backend, db, servers))
    return 2;
  char pattern[] = "/tmp/gpurace-bench-XXXXXX";
  bench().dir = mkdtemp(pattern);
  ServerConfig config;
  config.db = bench().dir + "/bench.db";
  if (!db.empty()) {
    config.db = db;
  } else if (backend == "postgres") {
    auto *cluster = testing::PostgresCluster::instance(/*durable=*/true);
    if (!cluster) {
      std::fprintf(stderr, "server_bench: %s\n",
                   testing::PostgresCluster::unavailableReason().c_str());
      return 1;
    }
    config.db = cluster->createDatabase();
  }
  config.grpc_listen = "127.0.0.1:0";
  config.http_listen = "127.0.0.1:0";
  config.ack_every = 32;
  for (int i = 0; i < servers; ++i) {
    auto server = RaceServer::start(config);
    if (!server.ok()) {
      std::fprintf(stderr, "%s\n", server.status().message.c_str());
      return 1;
    }
    bench().servers.push_back(std::move(server.value()));
  }
  std::printf("backend %s, %d server%s on one database\n", backend.c_str(),
              servers, servers == 1 ? "" : "s");
  const char *env = std::getenv("GPURACE_BENCH_OBSERVATIONS");
  bench().fill_target = env ? std::strtoull(env, nullptr, 10) : 1000000;

  benchmark::Initialize(&argc, argv);
  benchmark::RegisterBenchmark("ingest_loopback/agents", BM_IngestLoopback)
      ->Arg(8)
      ->Arg(64)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("list_races_http", BM_ListRacesHttp)
      ->Iterations(500)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("get_race_http", BM_GetRaceHttp)
      ->Iterations(200)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  bench().servers.clear();
  std::filesystem::remove_all(bench().dir);
  return 0;
}
