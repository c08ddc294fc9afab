//===- ScoreTable.h - per-category totals in HGRD's Table 3 layout -*- C++ -*-//
//
// Sums file scores per category and in total for each way of running the
// detector, prints them as a table, and compares the totals with a
// recorded baseline.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_BENCH_CORPUS_SCORETABLE_H
#define GPURACE_BENCH_CORPUS_SCORETABLE_H

#include "bench/corpus/Matching.h"

#include <array>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gpurace::corpus {

// The columns of the table: static analysis without and with host facts,
// and dynamic confirmation.
enum class Mode { KernelOnly = 0, HostFacts = 1, Dynamic = 2 };
constexpr std::array<Mode, 3> kModes = {Mode::KernelOnly, Mode::HostFacts,
                                        Mode::Dynamic};
std::string modeKey(Mode mode);

struct Totals {
  unsigned found = 0;
  unsigned false_negatives = 0;
  unsigned false_positives = 0;
  unsigned tool_errors = 0;
  // Files this mode has a result for; 0 means the column is "n/a".
  unsigned files = 0;
};

struct Row {
  unsigned files = 0;
  unsigned expected = 0;
  std::array<Totals, 3> modes;
};

class ScoreTable {
public:
  // Adds one file's result in one mode; `score` is absent for a tool error.
  void add(const std::string &category, Mode mode,
           const std::optional<FileScore> &score);
  // Counts a file and its expected races once, whatever modes ran on it.
  void addFile(const std::string &category, unsigned expected);

  const Row &total() const { return total_; }
  const std::map<std::string, Row> &rows() const { return rows_; }

  void print(std::ostream &out) const;

private:
  std::map<std::string, Row> rows_;
  Row total_;
};

struct Baseline {
  std::map<std::string, Totals> modes;
};

// Reads a baseline written by writeBaseline; on failure returns false and
// sets `error` to a message naming the file and the field.
bool readBaseline(const std::string &path, Baseline &baseline,
                  std::string &error);
bool writeBaseline(const std::string &path, const Row &total,
                   std::string &error);

// One line per regression: fewer races found, more false positives or more
// tool errors than the baseline records, in each mode it records (the
// dynamic one only when `total` has a dynamic column).
std::vector<std::string> compareWithBaseline(const Baseline &baseline,
                                             const Row &total);

} // namespace gpurace::corpus

#endif
