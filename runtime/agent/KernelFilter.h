//===- KernelFilter.h - which kernels' launches are checked -----*- C++ -*-===//
//
// Launch callbacks name a kernel by its mangled symbol; users, plans and
// reports name it as source code does. A kernel matches a pattern when its
// qualified name, its unqualified name, or either without template
// arguments does ("shift", "ns::shift", "reduce<float>", "red*").
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_AGENT_KERNELFILTER_H
#define GPURACE_RUNTIME_AGENT_KERNELFILTER_H

#include <string>
#include <vector>

namespace gpurace::rt {

// "ns::shift<int>" for "_ZN2ns5shiftIiEEvPT_i"; a name that is not mangled
// comes back unchanged. The parameter list is dropped.
std::string kernelName(const std::string &symbol);

// The names a pattern may match, most specific first.
std::vector<std::string> nameForms(const std::string &name);

class KernelFilter {
public:
  // Patterns are shell globs; no patterns: every kernel.
  explicit KernelFilter(std::vector<std::string> patterns = {});
  bool accepts(const std::string &name) const;

private:
  std::vector<std::string> patterns_;
};

} // namespace gpurace::rt

#endif
