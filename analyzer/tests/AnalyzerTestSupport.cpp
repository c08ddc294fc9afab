#include "analyzer/tests/AnalyzerTestSupport.h"

#include "analyzer/frontend/PrecompiledHeaders.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace gpurace::analyzer::testing {

TempSource::TempSource(const std::string &code, const std::string &name) {
  char pattern[] = "/tmp/gpurace-analyzer-XXXXXX";
  dir_ = mkdtemp(pattern);
  path_ = dir_ + "/" + name;
  std::ofstream(path_) << code;
}

TempSource::~TempSource() {
  // Tests may write more files beside the source (a project tree, outputs).
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

v1::AnalysisResult analyzeCode(const std::string &code, AnalyzeOptions options) {
  TempSource source(code);
  options.files = {source.path()};
  // As `gpurace analyze` parses by default: with the precompiled headers.
  if (options.cache_dir.empty())
    options.cache_dir = defaultCacheDirectory();
  v1::AnalysisResult result;
  std::string error;
  if (!analyze(options, result, error))
    result.add_errors()->set_message(error);
  return result;
}

v1::AnalysisResult analyzeCorpusFile(const std::string &path, AnalyzeOptions options) {
  options.files = {std::string(GPURACE_CORPUS_DIR) + "/" + path};
  v1::AnalysisResult result;
  std::string error;
  if (!analyze(options, result, error))
    result.add_errors()->set_message(error);
  return result;
}

std::vector<v1::RaceCandidate> findings(const v1::AnalysisResult &result,
                                        v1::RaceClass kind) {
  std::vector<v1::RaceCandidate> out;
  for (const v1::RaceCandidate &c : result.candidates())
    if (isFinding(c, kDefaultMinScore) &&
        (kind == v1::RACE_CLASS_UNSPECIFIED || c.race_class() == kind))
      out.push_back(c);
  return out;
}

const char *const kFillKernel = R"(
__global__ void fill(float *out, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) out[i] = 0.5f * i;
}
)";

v1::AnalysisResult analyzeReplacing(const std::string &code, const std::string &placeholder,
                                    const std::string &text) {
  std::string source = code;
  source.replace(source.find(placeholder), placeholder.size(), text);
  return analyzeCode(source);
}

bool hasRaceBetween(const v1::AnalysisResult &result, unsigned line_a,
                    unsigned line_b) {
  for (const v1::RaceCandidate &c : findings(result)) {
    unsigned a = c.first().location().line(), b = c.second().location().line();
    if ((a == line_a && b == line_b) || (a == line_b && b == line_a))
      return true;
  }
  return false;
}

} // namespace gpurace::analyzer::testing
