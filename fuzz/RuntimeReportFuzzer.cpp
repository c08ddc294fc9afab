//===- RuntimeReportFuzzer.cpp - spooled runtime reports ------------------===//
//
// libFuzzer target of the runtime reports a server is sent from a spool.
// Each input is a spool file, decoded as `gpurace upload --spool` decodes it
// and validated as the store validates a runtime report before it writes
// anything. A decoded report must also come back unchanged from the file the
// agent would spool for it: a report that does not is lost on the way.
//
//===----------------------------------------------------------------------===//
#include "fuzz/SameMessage.h"
#include "server/RuntimeSpool.h"
#include "storage/Validation.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace gpurace;
  const std::string input(reinterpret_cast<const char *>(data), size);
  v1::ReportRuntimeRequest request;
  std::string error;
  if (!parseSpoolFile(input, request, error))
    return 0;
  (void)storage::validateRuntimeReport(request);

  const std::string spooled = spoolFileText(request);
  v1::ReportRuntimeRequest again;
  if (!parseSpoolFile(spooled, again, error) ||
      !fuzz::sameMessage(request, again)) {
    std::fprintf(stderr,
                 "gpurace fuzzer: a decoded report does not read back "
                 "from its spool file (%s):\n%s",
                 error.c_str(), spooled.c_str());
    std::abort();
  }
  return 0;
}
