//===- GrpcRequestFuzzer.cpp - gRPC requests through the services ---------===//
//
// libFuzzer target of the gRPC API. The first byte of an input picks a
// method of kMethods, the rest is its request as it comes off the wire (a
// serialized message; one that does not parse never reaches a handler and
// is left out of the corpus).
// The request goes to the handler the server registers, through the service
// layer, the store's validation and its queries, on the seeded database
// (SeededStore.h) with authentication off. Whatever a client sends, the
// server must not fail: INTERNAL or UNKNOWN aborts the run like a crash.
// After a write that succeeded, every race and run must still read back
// and go out as the HTTP API's JSON, which cannot hold everything a binary
// message can (a Timestamp out of its range).
//
// The seeds in fuzz/seeds/grpc-request are text protos named
// "<index>-<Method>[-what].textproto", the index being the method's place
// in kMethods; bench/fuzz/run-fuzzer.sh encodes them.
//
//===----------------------------------------------------------------------===//
#include "fuzz/SeededStore.h"
#include "proto/JsonCodec.h"
#include "server/GrpcServices.h"
#include "server/ServerConfig.h"

#include <grpcpp/server_context.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

using namespace gpurace;

// The server's handlers over the seeded store, as RaceServer builds them.
struct Services {
  fuzz::SeededStore seeded;
  RaceService service{seeded.store(), AuthPolicy{}};
  IngestServiceImpl ingest{service, ServerConfig().ack_every};
  QueryServiceImpl query{service};
  ProjectServiceImpl projects{service};
};

[[noreturn]] void fail(const std::string &what, const std::string &why) {
  std::fprintf(stderr, "gpurace fuzzer: %s failed: %s\n", what.c_str(),
               why.c_str());
  std::abort();
}

// What a handler answered; nothing for a request that does not parse.
using Outcome = std::optional<grpc::Status>;

// Calls a unary handler as gRPC does: a parsed request, a fresh context
// without metadata (no token), an empty response.
template <typename Impl, typename Request, typename Response>
Outcome unary(Impl &impl,
              grpc::Status (Impl::*handler)(grpc::ServerContext *,
                                            const Request *, Response *),
              const std::string &bytes) {
  Request request;
  if (!request.ParseFromString(bytes))
    return std::nullopt;
  grpc::ServerContext context;
  Response response;
  return (impl.*handler)(&context, &request, &response);
}

// ReportRuntime is a stream, which only a server can open: the request is
// checked and stored as the handler does with a stream of one report.
Outcome reportRuntime(RaceService &service, const std::string &bytes) {
  v1::ReportRuntimeRequest request;
  if (!request.ParseFromString(bytes))
    return std::nullopt;
  auto principal = service.authorizeRuntime(Caller{});
  if (!principal.ok())
    return toGrpc(principal.status());
  if (Status s = service.checkRuntime(*principal, request); !s.ok())
    return toGrpc(s);
  return toGrpc(service.reportRuntimeBatch({request}).status());
}

struct Method {
  const char *name;
  Outcome (*call)(Services &, const std::string &);
  bool writes;
};

const Method kMethods[] = {
    {"UploadAnalysis",
     [](Services &s, const std::string &b) {
       return unary(s.ingest, &IngestServiceImpl::UploadAnalysis, b);
     },
     true},
    {"ReportRuntime",
     [](Services &s, const std::string &b) {
       return reportRuntime(s.service, b);
     },
     true},
    {"ListRaces",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::ListRaces, b);
     },
     false},
    {"GetRace",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::GetRace, b);
     },
     false},
    {"ListRuns",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::ListRuns, b);
     },
     false},
    {"GetRaceHistory",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::GetRaceHistory, b);
     },
     false},
    {"GetTrend",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::GetTrend, b);
     },
     false},
    {"SetReview",
     [](Services &s, const std::string &b) {
       return unary(s.query, &QueryServiceImpl::SetReview, b);
     },
     true},
    {"ListProjects",
     [](Services &s, const std::string &b) {
       return unary(s.projects, &ProjectServiceImpl::ListProjects, b);
     },
     false},
    {"GetSummary",
     [](Services &s, const std::string &b) {
       return unary(s.projects, &ProjectServiceImpl::GetSummary, b);
     },
     false},
    {"GetRun",
     [](Services &s, const std::string &b) {
       return unary(s.projects, &ProjectServiceImpl::GetRun, b);
     },
     false},
};

// The JSON the HTTP API would send for `result`.
template <typename T>
void requireJson(const Result<T> &result, const char *what) {
  if (!result.ok())
    fail(what, result.status().message);
  JsonWriteOptions options;
  options.pretty = false;
  options.always_print_primitive_fields = true;
  if (toJson(result.value(), options).empty())
    fail(what, "no JSON for " + result.value().ShortDebugString());
}

// Every race, with its occurrences, and every run. (A race's history and
// a run's detail hold these same rows.)
void checkReadsBackAsJson(RaceService &service) {
  v1::ListRacesRequest races;
  races.set_page_size(1000);
  auto listed = service.listRaces(Caller{}, races);
  requireJson(listed, "ListRaces after a write");
  for (const v1::Race &race : listed.value().races()) {
    v1::GetRaceRequest one;
    one.set_id(race.id());
    requireJson(service.getRace(Caller{}, one), "GetRace after a write");
  }
  v1::ListRunsRequest runs;
  runs.set_page_size(1000);
  requireJson(service.listRuns(Caller{}, runs), "ListRuns after a write");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return -1;
  const Method &method = kMethods[data[0] % std::size(kMethods)];
  const std::string bytes(reinterpret_cast<const char *>(data) + 1, size - 1);

  static Services services;
  services.seeded.reset();
  Outcome status = method.call(services, bytes);
  if (!status)
    return -1;
  if (status->error_code() == grpc::StatusCode::INTERNAL ||
      status->error_code() == grpc::StatusCode::UNKNOWN)
    fail(method.name, status->error_message());
  if (status->ok() && method.writes)
    checkReadsBackAsJson(services.service);
  return 0;
}
