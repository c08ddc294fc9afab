//===- HttpRequestFuzzer.cpp - HTTP paths and queries through the API -----===//
//
// libFuzzer target of the HTTP API. Each input is a request line without
// its version ("GET /api/v1/races?status=confirmed"); it is served as
// "<input> HTTP/1.1" by the routes HttpApi installs, from memory: httplib's
// own request parsing and routing (its process_request, which a subclass
// may call), the query parameters and path ids to request messages, the
// service layer and the store's queries, on the seeded database
// (SeededStore.h) with authentication off. Whatever a client asks,
// the server must not fail: a 500, or a 200 without a body, aborts the run
// like a crash.
//
//===----------------------------------------------------------------------===//
#include "fuzz/SeededStore.h"
#include "server/HttpApi.h"
#include "server/ServerConfig.h"

#include <httplib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

using namespace gpurace;

// An httplib server that answers requests held in memory.
class InMemoryServer : public httplib::Server {
public:
  InMemoryServer() { set_payload_max_length(ServerConfig().max_request_bytes); }

  // The response to the raw request: status line, headers and body.
  std::string serve(const std::string &request) {
    httplib::detail::BufferStream stream;
    stream.write(request.data(), request.size());
    bool closed = false;
    process_request(stream, /*close_connection=*/true, closed,
                    [](httplib::Request &) {});
    return stream.get_buffer().substr(request.size());
  }
};

// An empty dashboard: the fuzzer is after the API, not the files.
const std::string &webRoot() {
  static const std::string root = [] {
    std::string dir = fuzz::scratchDirectory() + "/web";
    std::filesystem::create_directories(dir);
    return dir;
  }();
  return root;
}

// The routes HttpApi installs over the seeded store.
struct Api {
  Api() { api.install(server); }

  fuzz::SeededStore seeded;
  RaceService service{seeded.store(), AuthPolicy{}};
  HttpApi api{service, webRoot()};
  InMemoryServer server;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string line(reinterpret_cast<const char *>(data), size);
  static Api api;
  api.seeded.reset();
  const std::string response = api.server.serve(line + " HTTP/1.1\r\n\r\n");
  // A 200 with nothing in it is a response the server could not write
  // (toJson failed).
  if (response.compare(0, 12, "HTTP/1.1 500") == 0 ||
      (response.compare(0, 12, "HTTP/1.1 200") == 0 &&
       response.find("\r\nContent-Length: 0\r\n") != std::string::npos)) {
    std::fprintf(stderr, "gpurace fuzzer: the server failed on '%s':\n%s\n",
                 line.c_str(), response.c_str());
    std::abort();
  }
  return 0;
}
