//===- NetworkExposure.h - no open admin API beyond loopback -----*- C++ -*-===//
//
// A database with no API token means "auth off": everyone who reaches the
// server is admin. That is right for one person on 127.0.0.1 and wrong on
// any other address. So a server that listens beyond loopback either
// requires a token for every call (from the start with --require-auth, or
// because the database holds tokens: then auth stays on even if they are
// all revoked later), or refuses to start, unless the operator said
// --insecure-no-auth, which is warned about on every start.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_NETWORKEXPOSURE_H
#define GPURACE_SERVER_NETWORKEXPOSURE_H

#include "server/ServerConfig.h"
#include "storage/Status.h"

#include <string>

namespace gpurace {

// 127.0.0.0/8, ::1 and "localhost": nobody else can connect. An empty
// host, 0.0.0.0, :: and every other address or name are reachable from
// the network.
bool isLoopbackHost(const std::string &host);

struct ExposureDecision {
  // Auth required for every call, whatever the database holds.
  bool require_auth = false;
  // Printed on every start (with --insecure-no-auth).
  std::string warning;
};

// How to serve `config` when the database holds tokens or not; an error
// (saying how to create a token) when it must not start.
Result<ExposureDecision> decideExposure(const ServerConfig &config, bool database_has_tokens);

} // namespace gpurace

#endif
