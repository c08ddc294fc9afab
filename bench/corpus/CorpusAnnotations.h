//===- CorpusAnnotations.h - expected verdicts of a corpus file -*- C++ -*-===//
//
// Every program of the race corpus carries its expected verdict in `//`
// comments (tests/corpus/README.md). This unit reads them into a
// CorpusFile and reports malformed annotations with file and line.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_CORPUSANNOTATIONS_H
#define GPURACE_BENCH_CORPUS_CORPUSANNOTATIONS_H

#include "gpurace/v1/analysis.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace gpurace::corpus {

// One expected racing pair: the lines that carry the same ID. A single
// line means the line races with itself.
struct ExpectedRace {
  std::string id;
  std::vector<unsigned> lines;
  v1::RaceClass race_class = v1::RACE_CLASS_UNSPECIFIED;
};

// The cost one access is expected to have with `gpurace analyze --perf`
// (`// expect-perf: banks 32` or `// expect-perf: sectors 32/4` on its
// line): a bank-conflict degree (1: proved conflict-free), or the sectors a
// warp touches over the best its bytes need (equal: proved coalesced).
struct ExpectedPerf {
  unsigned line = 0;
  v1::PerfKind kind = v1::PERF_KIND_UNSPECIFIED;
  unsigned cost = 0;
  unsigned best = 0;
  // `free-when NAME = V`: the finding must name this value of a launch
  // value among those for which the access is proved free.
  std::string free_when;
};

struct CorpusFile {
  std::string path;
  std::string category;
  bool race_free = false;
  bool needs_host_facts = false;
  bool needs_sync_semantics = false;
  std::string source;
  // The program's other translation units (`// with: parts/main.cu`),
  // analyzed together with this file.
  std::vector<std::string> companions;
  std::vector<ExpectedRace> races;
  // Lines of barriers expected to be reached by only some threads.
  std::vector<unsigned> divergences;
  std::vector<ExpectedPerf> perf;
};

struct AnnotationError {
  std::string path;
  unsigned line = 0;
  std::string message;
};

// The race class an annotation names ("intra-warp", ...), if valid.
std::optional<v1::RaceClass> parseRaceClass(const std::string &name);

// Reads the annotations of `text`, the contents of the file at `path`.
// Appends one error per problem found; the returned file holds whatever
// could be read.
CorpusFile parseAnnotations(const std::string &path, const std::string &text,
                            std::vector<AnnotationError> &errors);

// Reads `path` from disk and parses it; an unreadable file is an error.
CorpusFile loadCorpusFile(const std::string &path,
                          std::vector<AnnotationError> &errors);

// Every `.cu` file under `root`, sorted, so that runs are reproducible.
std::vector<std::string> findCorpusFiles(const std::string &root);

} // namespace gpurace::corpus

#endif
