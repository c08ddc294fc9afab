//===- ScoreTable.cpp - per-category totals in HGRD's Table 3 layout ------===//
#include "bench/corpus/ScoreTable.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iomanip>
#include <sstream>

namespace gpurace::corpus {

namespace {

Totals &operator+=(Totals &sum, const Totals &part) {
  sum.found += part.found;
  sum.false_negatives += part.false_negatives;
  sum.false_positives += part.false_positives;
  sum.tool_errors += part.tool_errors;
  sum.files += part.files;
  return sum;
}

Totals totalsOf(const std::optional<FileScore> &score) {
  Totals totals;
  totals.files = 1;
  if (!score) {
    totals.tool_errors = 1;
    return totals;
  }
  totals.found = score->found;
  totals.false_negatives = score->false_negatives;
  totals.false_positives = score->false_positives;
  return totals;
}

// "found [FN:FP]" as in HGRD's Table 3, with tool errors appended when
// there are any; "n/a" for a mode that did not run.
std::string cell(const Totals &totals) {
  if (totals.files == 0)
    return "n/a";
  std::ostringstream text;
  text << totals.found << " [" << totals.false_negatives << ":"
       << totals.false_positives << "]";
  if (totals.tool_errors)
    text << " " << totals.tool_errors << " err";
  return text.str();
}

void printRow(std::ostream &out, const std::string &name, const Row &row) {
  out << std::left << std::setw(20) << name << std::right << std::setw(6)
      << row.files << std::setw(8) << row.expected;
  for (Mode mode : kModes)
    out << "  " << std::left << std::setw(18)
        << cell(row.modes[static_cast<int>(mode)]) << std::right;
  out << "\n";
}

const char *const kFields[] = {"found", "false_negatives", "false_positives",
                               "tool_errors"};

unsigned *field(Totals &totals, const std::string &name) {
  if (name == "found")
    return &totals.found;
  if (name == "false_negatives")
    return &totals.false_negatives;
  if (name == "false_positives")
    return &totals.false_positives;
  return &totals.tool_errors;
}

} // namespace

std::string modeKey(Mode mode) {
  switch (mode) {
  case Mode::KernelOnly:
    return "kernel_only";
  case Mode::HostFacts:
    return "host_facts";
  case Mode::Dynamic:
    return "dynamic";
  }
  return "";
}

void ScoreTable::add(const std::string &category, Mode mode,
                     const std::optional<FileScore> &score) {
  Totals totals = totalsOf(score);
  rows_[category].modes[static_cast<int>(mode)] += totals;
  total_.modes[static_cast<int>(mode)] += totals;
}

void ScoreTable::addFile(const std::string &category, unsigned expected) {
  Row &row = rows_[category];
  ++row.files;
  row.expected += expected;
  ++total_.files;
  total_.expected += expected;
}

void ScoreTable::print(std::ostream &out) const {
  out << std::left << std::setw(20) << "category" << std::right
      << std::setw(6) << "files" << std::setw(8) << "races";
  out << "  " << std::left << std::setw(18) << "kernel only" << "  "
      << std::setw(18) << "host facts" << "  " << std::setw(18) << "dynamic"
      << std::right << "\n";
  for (const auto &[category, row] : rows_)
    printRow(out, category, row);
  printRow(out, "Total", total_);
  out << "cells: true races found [false negatives:false positives]\n";
  unsigned dynamic_files = total_.modes[static_cast<int>(Mode::Dynamic)].files;
  if (dynamic_files > 0)
    out << "dynamic: over the " << dynamic_files << " of " << total_.files
        << " files with runtime reports\n";
}

bool readBaseline(const std::string &path, Baseline &baseline,
                  std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read baseline";
    return false;
  }
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    error = path + ": not a JSON object";
    return false;
  }
  for (const auto &[mode, counts] : json.items()) {
    if (mode != "kernel_only" && mode != "host_facts" && mode != "dynamic") {
      error = path + ": unknown mode '" + mode + "'";
      return false;
    }
    Totals &totals = baseline.modes[mode];
    for (const char *name : kFields) {
      if (!counts.contains(name) || !counts[name].is_number_unsigned()) {
        error = path + ": " + mode + "." + name +
                " is missing or not a non-negative integer";
        return false;
      }
      *field(totals, name) = counts[name].get<unsigned>();
    }
  }
  return true;
}

bool writeBaseline(const std::string &path, const Row &total,
                   std::string &error) {
  // A mode that did not run keeps what the file recorded for it (the
  // dynamic column is rerun far less often than the static ones).
  nlohmann::json json = nlohmann::json::object();
  if (std::ifstream in(path); in) {
    nlohmann::json recorded = nlohmann::json::parse(in, nullptr, false);
    if (recorded.is_object())
      json = recorded;
  }
  for (Mode mode : kModes) {
    Totals totals = total.modes[static_cast<int>(mode)];
    if (totals.files == 0)
      continue;
    for (const char *name : kFields)
      json[modeKey(mode)][name] = *field(totals, name);
  }
  std::ofstream out(path);
  out << json.dump(2) << "\n";
  if (!out) {
    error = path + ": cannot write baseline";
    return false;
  }
  return true;
}

std::vector<std::string> compareWithBaseline(const Baseline &baseline,
                                             const Row &total) {
  std::vector<std::string> regressions;
  for (Mode mode : kModes) {
    auto it = baseline.modes.find(modeKey(mode));
    const Totals &now = total.modes[static_cast<int>(mode)];
    // The dynamic column is only compared when this run has one.
    if (it == baseline.modes.end() || (mode == Mode::Dynamic && now.files == 0))
      continue;
    const Totals &was = it->second;
    auto report = [&](const std::string &what, unsigned before,
                      unsigned after) {
      regressions.push_back(modeKey(mode) + ": " + what + " " +
                            std::to_string(before) + " -> " +
                            std::to_string(after));
    };
    if (now.found < was.found)
      report("races found fell", was.found, now.found);
    if (now.false_positives > was.false_positives)
      report("false positives rose", was.false_positives, now.false_positives);
    if (now.tool_errors > was.tool_errors)
      report("tool errors rose", was.tool_errors, now.tool_errors);
  }
  return regressions;
}

} // namespace gpurace::corpus
