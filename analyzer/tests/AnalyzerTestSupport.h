//===- AnalyzerTestSupport.h - analyze CUDA snippets in tests ---*- C++ -*-===//
#ifndef GPURACE_ANALYZER_TESTS_ANALYZERTESTSUPPORT_H
#define GPURACE_ANALYZER_TESTS_ANALYZERTESTSUPPORT_H

#include "analyzer/Analyzer.h"

#include <string>
#include <vector>

namespace gpurace::analyzer::testing {

// A .cu file in a fresh temporary folder, removed with the object.
class TempSource {
public:
  explicit TempSource(const std::string &code, const std::string &name = "k.cu");
  ~TempSource();
  const std::string &path() const { return path_; }

private:
  std::string dir_, path_;
};

v1::AnalysisResult analyzeCode(const std::string &code,
                               AnalyzeOptions options = {});

// A program of the race corpus, by its path below tests/corpus. A failure
// to analyze it is in the result's errors.
v1::AnalysisResult analyzeCorpusFile(const std::string &path, AnalyzeOptions options = {});

// `code` analyzed with its `placeholder` replaced by `text`.
v1::AnalysisResult analyzeReplacing(const std::string &code, const std::string &placeholder,
                                    const std::string &text);

// Candidates of `kind` (all classes when RACE_CLASS_UNSPECIFIED) that are
// findings under the default threshold.
std::vector<v1::RaceCandidate> findings(const v1::AnalysisResult &result,
                                        v1::RaceClass kind = v1::RACE_CLASS_UNSPECIFIED);

// Whether some finding relates the two 1-based lines (in either order).
// A kernel that is race-free exactly when every block has at most 256
// threads: `fill(float *out, int n)`, the subject of the host-value tests.
extern const char *const kFillKernel;

bool hasRaceBetween(const v1::AnalysisResult &result, unsigned line_a,
                    unsigned line_b);

} // namespace gpurace::analyzer::testing

#endif
