//===- SpoolUpload.h - send the runtime reports an agent spooled -*- C++ -*-===//
#ifndef GPURACE_SERVER_CLI_SPOOLUPLOAD_H
#define GPURACE_SERVER_CLI_SPOOLUPLOAD_H

#include "server/RaceClient.h"

#include <string>

namespace gpurace {

// Streams every report spooled in `dir` to the server in batches and
// removes each file once the server acknowledged it. Prints a summary;
// returns 0 when all were sent, 2 when they confirmed races, 1 when some
// are left (they stay for the next try).
int uploadSpool(const std::string &dir, ClientOptions client);

} // namespace gpurace

#endif
