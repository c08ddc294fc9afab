//===- KernelModel.h - what a kernel does to memory -------------*- C++ -*-===//
//
// The analyzer's view of one kernel in one launch context: every access to
// global, shared or __device__ memory with a symbolic byte offset, its path
// condition and its position among the kernel's synchronization, plus every
// barrier. Expressions are Z3 terms over the symbols of a SymbolSpace, where
// thread-local symbols stand for "this thread's" value: the pair checker
// instantiates them once per thread.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_KERNELMODEL_H
#define GPURACE_ANALYZER_MODEL_KERNELMODEL_H

#include "gpurace/v1/analysis.pb.h"

#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class Expr;
class Stmt;
} // namespace clang

namespace gpurace::analyzer {

// An object accesses are relative to.
struct MemoryObject {
  enum class Kind { PointerParameter, SharedArray, DeviceGlobal, Unknown };
  Kind kind = Kind::Unknown;
  std::string name;
  v1::MemorySpace space = v1::MEMORY_SPACE_GLOBAL;
  // For pointer parameters: the index among the kernel's parameters.
  int parameter_index = -1;
  // For shared and device arrays and scalars of a fixed size: their size.
  // A race's witness is looked for within it first.
  std::optional<uint64_t> bytes;
  // For a pointer that holds one of several buffers (`p = c ? a : b`, or
  // set on two paths): those buffers. Such an object is of kind Unknown to
  // every check but aliasing, which asks it of each buffer in turn.
  std::vector<const MemoryObject *> members;
};

// The lanes of a warp that a partial warp synchronization joins: those in
// a constant mask (`__syncwarp(0xffff)`, `__shfl_sync(mask, ...)`), or the
// lanes of one tile (`tiled_partition<16>(block).sync()`).
struct LaneGroup {
  uint32_t mask = 0xffffffffu;
  unsigned tile_size = 32;
  bool wholeWarp() const { return mask == 0xffffffffu && tile_size >= 32; }
  bool operator<(const LaneGroup &o) const {
    return mask != o.mask ? mask < o.mask : tile_size < o.tile_size;
  }
};

// Counters of synchronization executed so far by a thread. Two threads
// whose counters agree at two accesses have no such synchronization
// between them.
struct SyncCounters {
  z3::expr block; // __syncthreads and block-group syncs
  z3::expr warp;  // full-warp __syncwarp, tile syncs, and block barriers
  z3::expr grid;  // grid-group syncs
  // Partial warp syncs, per lane group: they order only lanes both in it.
  std::map<LaneGroup, z3::expr> masked_warp;
};

struct MemoryAccess {
  v1::AccessSite site;
  const MemoryObject *object = nullptr;
  z3::expr offset;         // bytes from the object's start
  z3::expr path_condition; // Bool
  SyncCounters counters;
  // Loop iteration symbols of the enclosing loops, outermost first.
  std::vector<z3::expr> iterations;
  // Source order within the kernel (after inlining), shared with fences.
  unsigned order = 0;
  // The thread uses the value an atomic returns (a lock or flag spin, a
  // ticket), so the atomic can be the acquire half of a synchronization.
  bool value_used = false;
  // A volatile access: strong, like a relaxed atomic of system scope.
  bool strong = false;
  // The value a plain write stores, when the model follows it: two threads
  // that provably store the same value race benignly.
  std::optional<z3::expr> stored;
  // The subscripts of the fixed-size arrays it goes through are within
  // their bounds (`tile[ty][tx]`: ty and tx below the tile's sides).
  std::optional<z3::expr> in_bounds;
};

// A memory fence: makes the thread's accesses before it visible, to
// observers within `scope`, before its accesses after it.
struct Fence {
  v1::SyncSite site;
  z3::expr path_condition;
  unsigned order = 0;
};

struct Barrier {
  // Which threads must all reach it: those of the block, the lanes of the
  // warp in `lanes`, or every thread of the grid.
  enum class Scope { Warp, Block, Grid };
  v1::SyncSite site;
  z3::expr path_condition;
  std::vector<z3::expr> iterations;
  Scope scope = Scope::Block;
  // For warp barriers: the lanes that take part, when they are known
  // (computed masks are not checked).
  std::optional<LaneGroup> lanes;
};

// Why a symbol is not exact: each fresh symbol the model introduces carries
// one of these, and a candidate whose constraints mention it inherits it.
using ImprecisionMap = std::map<std::string, v1::Imprecision>;

struct KernelModel {
  std::string kernel_name;
  v1::SourceLocation kernel_location;
  std::vector<std::unique_ptr<MemoryObject>> objects;
  std::vector<MemoryAccess> accesses;
  std::vector<Barrier> barriers;
  std::vector<Fence> fences;
  std::vector<v1::SyncSite> sync_sites;
  // Kernel parameter symbols by name, for witnesses.
  std::vector<std::pair<std::string, z3::expr>> parameters;
  ImprecisionMap imprecisions;
  // Facts that hold for every thread (e.g. loop iteration bounds),
  // expressed over thread-local symbols like everything else.
  std::vector<z3::expr> thread_facts;
  // Terms that are powers of two (or zero): 2^k of a loop that doubles or
  // halves, at a thread's own iteration and at the exit. Stating this in
  // every query, one case per exponent, makes easy queries hard; the pair
  // checker states it only for the terms a witness gives another value.
  std::vector<z3::expr> powers_of_two;
  // That each integer parameter holds a value of its type (on mathematical
  // integers). Bounds on the factors of `y * (w - 1) + x` make such
  // queries harder, and a race that needs a value out of range is rare:
  // the pair checker states a bound only where a witness breaks it, so
  // that no witness gives an `int` parameter 2^36.
  std::vector<z3::expr> parameter_ranges;
  // Values the model splits by a power of two (`x & (n - 1)`, kept as
  // x == q * n + r by a case per n): the delinearization lemmas read
  // offsets with the split in place, so that `2 * x - (x & (s - 1))` is
  // `2 * q * s + r`, a row-major offset in s. `holds` is the disjunction
  // of the cases: where it holds, value == quotient * divisor + remainder.
  struct LowBitsSplit {
    z3::expr value, quotient, divisor, remainder, holds;
  };
  std::vector<LowBitsSplit> low_bits_splits;
  // `value ^ bit` where bit is a power of two (a sorting network's partner
  // `tid ^ j`), kept by a case per power: flipping one bit is its own
  // inverse, so two threads that flip the same bit into the same result
  // started from the same value. The pair checker states that across its
  // two threads, which the cases leave the solver to find by search.
  struct BitFlip {
    z3::expr value, bit, result;
  };
  std::vector<BitFlip> bit_flips;
  // Which axes the kernel reads: threadIdx or blockDim (thread), blockIdx
  // or gridDim (block).
  bool reads_thread_axis[3] = {false, false, false};
  bool reads_block_axis[3] = {false, false, false};
  // Facts over shared symbols only.
  std::vector<z3::expr> shared_facts;
  // Values loaded through a pointer parameter, each a function of the
  // offset shared by all threads: facts of a thread that hold in a launch
  // where no access of the kernel writes a buffer the parameter may point
  // into (the pair checker, which knows the launch's aliasing, decides).
  struct ParameterContents {
    const MemoryObject *object;
    z3::expr fact;
  };
  std::vector<ParameterContents> parameter_contents;
  // Results of read-modify-write atomics that hand out distinct values
  // (`atomicAdd(&count, 1)`, `atomicInc`): two threads that update the same
  // address get different results, as long as the counter does not wrap.
  struct TicketAtomic {
    z3::expr result;
    z3::expr address;
    const MemoryObject *object;
    // The result as one thread of each block took it and broadcast it
    // (a function of the block): distinct between blocks.
    bool per_block = false;
  };
  std::vector<TicketAtomic> tickets;
  // Loops whose iterations do not all synchronize alike (a barrier in an
  // inner loop or a branch): a counter at the head of iteration k is its
  // value at the loop's entry plus `head`, a function of the enclosing
  // iterations and k, and iteration k adds `per_iteration` to it. Counts
  // never fall, so for two threads in the same enclosing iterations, the
  // whole of an earlier iteration comes before a later one's head.
  struct IterationSync {
    z3::expr iteration;
    std::vector<z3::expr> outer;
    z3::expr head;
    z3::expr per_iteration;
  };
  std::vector<IterationSync> iteration_syncs;
};

} // namespace gpurace::analyzer

#endif
