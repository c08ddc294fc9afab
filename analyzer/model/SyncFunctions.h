//===- SyncFunctions.h - CUDA synchronization by name -----------*- C++ -*-===//
//
// Recognizes the barriers, warp primitives, fences and atomics of CUDA and
// cooperative groups among the functions a kernel calls.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_SYNCFUNCTIONS_H
#define GPURACE_ANALYZER_MODEL_SYNCFUNCTIONS_H

#include "gpurace/v1/analysis.pb.h"

#include <optional>

namespace clang {
class Expr;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

struct SyncFunction {
  v1::SyncKind kind = v1::SYNC_KIND_UNSPECIFIED;
  v1::MemoryScope scope = v1::MEMORY_SCOPE_UNSPECIFIED;
  // Which threads the call orders: all of the block, the lanes of a warp
  // (or tile), or the whole grid. Fences order nothing by themselves.
  bool orders_block = false;
  bool orders_warp = false;
  bool orders_grid = false;
};

// `object` is the implicit object of a member call (a cooperative group).
std::optional<SyncFunction> classifySyncFunction(const clang::FunctionDecl &callee,
                                                 const clang::Expr *object);

struct AtomicFunction {
  v1::AtomicOp op = v1::ATOMIC_OP_UNSPECIFIED;
  v1::MemoryScope scope = v1::MEMORY_SCOPE_DEVICE;
};

std::optional<AtomicFunction> classifyAtomicFunction(const clang::FunctionDecl &callee);

} // namespace gpurace::analyzer

#endif
