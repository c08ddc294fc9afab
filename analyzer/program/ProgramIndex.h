//===- ProgramIndex.h - which unit defines and launches what ----*- C++ -*-===//
//
// Several files given together form one program: a kernel defined in one
// translation unit may be launched from another. A first pass parses every
// unit's host side and records, by kernel key, which units define each
// kernel and which launch it, and which inputs another input #includes
// (those are part of that unit, not units of their own). Each kernel is then
// analyzed once, by the first unit defining it, with the launches of every
// unit.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_PROGRAM_PROGRAMINDEX_H
#define GPURACE_ANALYZER_PROGRAM_PROGRAMINDEX_H

#include "analyzer/frontend/CompileFlags.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpurace::analyzer {

// One translation unit of the program: a file and its flags.
struct ProgramUnit {
  std::string file;
  ParsingFlags flags;
  // Text parsed in place of the file's (a repair being verified before
  // anything is written).
  std::optional<std::string> contents;
};

class ProgramIndex {
public:
  // The index of a one-unit program: it defines and launches all it sees.
  static ProgramIndex singleUnit();

  // Parses the host side of every unit (`jobs` at a time).
  static ProgramIndex build(const std::vector<ProgramUnit> &units,
                            const HeaderSetup &headers, unsigned jobs);

  // Whether another input #includes this one.
  bool isIncluded(size_t unit) const { return included_.count(unit) > 0; }
  // Whether `unit` is the one that analyzes the kernel.
  bool owns(size_t unit, const std::string &kernel) const;
  // The other units with a launch of the kernel.
  std::vector<size_t> otherLaunchers(const std::string &kernel, size_t unit) const;
  // The other units that call a host function `unit` defines (a launch
  // wrapper in kernel.cu called from main.cpp).
  std::vector<size_t> unitsCallingInto(size_t unit) const;

private:
  bool single_ = false;
  std::set<size_t> included_;
  std::map<std::string, size_t> owner_;
  std::map<std::string, std::set<size_t>> launchers_;
  std::vector<std::set<std::string>> host_defines_, external_calls_;
};

} // namespace gpurace::analyzer

#endif
