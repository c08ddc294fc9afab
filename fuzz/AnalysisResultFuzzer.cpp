//===- AnalysisResultFuzzer.cpp - uploaded analysis results ---------------===//
//
// libFuzzer target of the analysis results a server is sent. Each input is
// decoded three ways: as the RESULT.json and as the RESULT.sarif file of
// `gpurace upload`, and as the body of POST /api/v1/analysis (an
// UploadAnalysisRequest). What decodes is validated as the store validates
// an upload before it writes anything. A result decoded from JSON must also
// come back unchanged from the JSON `gpurace analyze` would write for it.
//
//===----------------------------------------------------------------------===//
#include "fuzz/SameMessage.h"
#include "proto/JsonCodec.h"
#include "server/cli/ResultFile.h"
#include "storage/Validation.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace gpurace;

// The request `gpurace upload --project demo RESULT` sends.
void validateAsUpload(const v1::AnalysisResult &result) {
  v1::UploadAnalysisRequest request;
  request.mutable_metadata()->set_project("demo");
  *request.mutable_result() = result;
  (void)storage::validateUpload(request);
}

void checkRoundTrip(const v1::AnalysisResult &result) {
  const std::string json = toJson(result);
  v1::AnalysisResult again;
  std::string error;
  if (!fromJson(json, again, error) || !fuzz::sameMessage(result, again)) {
    std::fprintf(stderr,
                 "gpurace fuzzer: the JSON of a decoded result "
                 "does not read back (%s):\n%s\n",
                 error.c_str(), json.c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string input(reinterpret_cast<const char *>(data), size);

  v1::AnalysisResult json;
  if (decodeAnalysisResult(input, "result.json", json).ok()) {
    validateAsUpload(json);
    checkRoundTrip(json);
  }
  v1::AnalysisResult sarif;
  if (decodeAnalysisResult(input, "result.sarif", sarif).ok())
    validateAsUpload(sarif);

  v1::UploadAnalysisRequest body;
  std::string error;
  if (fromJson(input, body, error))
    (void)storage::validateUpload(body);
  return 0;
}
