//===- RowExtents.h - columns within their rows, for unlaunched kernels -*- C++ -*-===//
//
// A kernel indexes a buffer row by row, `out[y * width + x]`, and relies on
// its launch to keep x below the row's width: a kernel with no bounds check
// (`transformKernel`, a box filter's column pass) is launched with exactly
// one thread per column. Where no launch of the kernel is in view, the
// solver picks the launch, and its witness is a thread past the end of its
// row writing the next row's first elements (width 0, all threads on
// element 0). Such a race is one a launch that fits the data never has.
// This unit states, for every thread, that each column a kernel computes
// from its coordinates lies within the row whose width a kernel parameter
// gives; the pair checker asks a race again under these facts and, where
// it no longer holds, says so and ranks it low (IMPRECISION_KIND_ROW_OVERRUN).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_ROWEXTENTS_H
#define GPURACE_ANALYZER_CHECK_ROWEXTENTS_H

#include "analyzer/model/KernelModel.h"
#include "analyzer/model/SymbolSpace.h"

#include <z3++.h>

#include <string>
#include <vector>

namespace gpurace::analyzer {

// One column bound: `0 <= column < width * element`, in bytes, over the
// model's unrenamed symbols, and how the report names it.
struct RowExtent {
  z3::expr fact;
  std::string width;
};

// The column bounds of the kernel's accesses through pointer parameters
// whose offsets read `row * width + column`, where width is a kernel
// parameter and column depends only on the thread's coordinates and
// launch-wide values (no loop's iteration, no loaded value): each once.
std::vector<RowExtent> rowExtents(const KernelModel &model, const SymbolSpace &symbols);

} // namespace gpurace::analyzer

#endif
