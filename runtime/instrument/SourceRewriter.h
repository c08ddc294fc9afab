//===- SourceRewriter.h - rewrite planned sites of one CUDA file -*- C++ -*-===//
//
// The Clang half of `gpurace instrument`: parses one .cu file (host side,
// with gpurace's CUDA declaration headers) and rewrites exactly the sites it
// is given, matched by their source range:
//   access  E          -> (*__gpurace_rec_r(&(E), N))        (or _w, _rw, _a)
//   store   E = V      -> __gpurace_store(&(E), (V), N)
//   barrier/fence/grid -> (__gpurace_sync(N, OP, SCOPE), call)
//   __syncwarp(m)      -> __gpurace_syncwarp(N, m)
// Only text is inserted, never removed, so every line keeps its number; a
// `#line 1` after the runtime include keeps diagnostics and debug
// information on the user's lines.
//
// This file sees no protobuf types: LLVM is built without RTTI and this
// library is too.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_INSTRUMENT_SOURCEREWRITER_H
#define GPURACE_RUNTIME_INSTRUMENT_SOURCEREWRITER_H

#include <cstdint>
#include <string>
#include <vector>

namespace gpurace::rt {

struct PlannedSite {
  enum Kind { Read, Write, Atomic, Barrier, SyncWarp, Fence, GridSync };
  std::string id;
  uint32_t index = 0; // the number records carry (see SitePlan)
  Kind kind = Read;
  uint8_t scope = 0; // RecordScope; 0: infer from the callee's name
  unsigned line = 0, column = 0, end_line = 0, end_column = 0;
};

struct RewriteRequest {
  std::string file;
  std::string code;
  // Compiler flags of the user's build (-I, -D, -std ...).
  std::vector<std::string> flags;
  std::vector<PlannedSite> sites;
  // What the output #includes first.
  std::string runtime_header;
  // Also rewrite launches and dynamic shared memory for the CPU harness
  // (HarnessRewriter.h).
  bool cpu_harness = false;
};

struct RewriteResult {
  bool ok = false;
  std::string output;
  // Clang's diagnostics when the file does not parse.
  std::string error;
  // Sites of the plan that match no expression of the file.
  std::vector<std::string> unmatched;
};

RewriteResult rewriteSource(const RewriteRequest &request);

} // namespace gpurace::rt

#endif
