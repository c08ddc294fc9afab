//===- ServerConfig.h - what `gpurace serve` runs with ----------*- C++ -*-===//
//
// Defaults, then the --config file (JSON, keys as in deploy/gpurace.json),
// then command-line flags: each later source overrides the earlier.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_SERVERCONFIG_H
#define GPURACE_SERVER_SERVERCONFIG_H

#include "storage/Status.h"

#include <cstdint>
#include <string>

namespace gpurace {

struct ServerConfig {
  std::string db = "gpurace.db";
  std::string grpc_listen = "127.0.0.1:50551";
  std::string http_listen = "127.0.0.1:8080";
  // Empty: the dashboard of the source tree gpurace was built from.
  std::string web_root;
  bool require_auth = false;
  bool public_read = false;
  // Serve beyond loopback with no token in the database (see
  // NetworkExposure.h); otherwise the server refuses to start.
  bool insecure_no_auth = false;
  // Larger gRPC messages and HTTP bodies are refused (RESOURCE_EXHAUSTED,
  // HTTP 413) before they are parsed.
  uint32_t max_request_bytes = 64u << 20;
  uint32_t max_page_size = 1000;
  // 0: keep every run; otherwise the server prunes to this at start-up.
  uint32_t keep_runs = 0;
  // Runtime streams are stored and acknowledged this many reports at a
  // time, or more while the store is busy with other streams.
  uint32_t ack_every = 16;
  // TLS for both listeners when both are set (PEM files).
  std::string tls_cert;
  std::string tls_key;
};

// Reads a JSON config file over `config`. Unknown keys and wrong types are
// errors naming the file and the key.
Status loadServerConfig(const std::string &path, ServerConfig &config);

// The web root to serve: `configured` when set, else web/dist or web/ of
// the source tree.
std::string resolveWebRoot(const std::string &configured);

} // namespace gpurace

#endif
