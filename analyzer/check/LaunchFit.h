//===- LaunchFit.h - what a launch that fits the kernel's data has -*- C++ -*-===//
//
// A kernel with no bounds check relies on its launch to fit its data: one
// that indexes a buffer row by row, `out[y * width + x]`, on one thread
// per column (`transformKernel`, a box filter's column pass); one that
// stages a tile in shared memory, `tile[ty][tx]`, on a block no larger
// than the tile (a tiled matrix product). Where no launch of the kernel is
// in view, the solver picks the launch, and its witness may be a thread
// past the end of its row writing the next row's first elements (width 0,
// all threads on element 0), or a block wider than the tile whose columns
// run into the next block's. Such races are ones a launch that fits the
// data never has. This unit states those fits for every thread: each
// column a kernel computes from its coordinates lies within the row whose
// width a kernel parameter gives, and each fixed-size array indexed by the
// thread's coordinates alone is indexed within its bounds. The pair
// checker asks a race again under these facts and, where it no longer
// holds, says so and ranks it low (IMPRECISION_KIND_ROW_OVERRUN,
// IMPRECISION_KIND_TILE_OVERRUN).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_LAUNCHFIT_H
#define GPURACE_ANALYZER_CHECK_LAUNCHFIT_H

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

// One tile bound: the subscripts of an access to a fixed-size array are
// within its sides, over the model's unrenamed symbols, and the names of
// the arrays indexed that way.
struct TileExtent {
  z3::expr fact;
  std::vector<std::string> arrays;
};

// The tile bounds of the kernel's accesses to fixed-size arrays whose
// subscripts depend only on the thread's coordinates and launch-wide
// values (`tile[ty][tx]`, not `tile[ty][k]` in a loop): each once.
std::vector<TileExtent> tileExtents(const KernelModel &model, const SymbolSpace &symbols);

} // namespace gpurace::analyzer

#endif
