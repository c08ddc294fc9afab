//===- RuntimeSpool.h - runtime reports kept until a server takes them -*- C++ -*-===//
//
// When the agent cannot reach the server, each ReportRuntimeRequest goes to
// a file of its own in the spool directory (its proto3 JSON, named after its
// upload id); `gpurace upload --spool DIR` sends them later and removes a
// file only once the server acknowledged its upload id. A retried upload
// carries the same id, so the server stores nothing twice.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_RUNTIMESPOOL_H
#define GPURACE_SERVER_RUNTIMESPOOL_H

#include "gpurace/v1/service.pb.h"
#include "storage/Status.h"

#include <string>
#include <vector>

namespace gpurace {

struct SpooledReport {
  std::string path;
  v1::ReportRuntimeRequest request;
};

// The default spool directory: $XDG_CACHE_HOME/gpurace/spool, else
// $HOME/.cache/gpurace/spool.
std::string defaultSpoolDirectory();

// Writes `request` under `dir` (created if missing) atomically: a reader
// never sees half a file.
Status spoolReport(const std::string &dir,
                   const v1::ReportRuntimeRequest &request);

// A spool file's text: the request's compact proto3 JSON on one line.
std::string spoolFileText(const v1::ReportRuntimeRequest &request);
// The request a spool file holds; false with `error` set when the text is
// not one.
bool parseSpoolFile(const std::string &text, v1::ReportRuntimeRequest &request,
                    std::string &error);

// Every spooled report in `dir`, oldest first. A file that does not parse is
// skipped and named in `problems`.
std::vector<SpooledReport> readSpool(const std::string &dir,
                                     std::vector<std::string> &problems);

} // namespace gpurace

#endif
