//===- SymbolSpace.h - the symbols of one kernel analysis -------*- C++ -*-===//
//
// Every symbol of a kernel model is either shared by all threads of a
// launch (launch dims, parameter values, uniform loop functions) or local to
// a thread (thread and block ids, loop iterations, loaded values). The model
// is built once over the local symbols; `forThread` renames them so that two
// threads can be constrained side by side.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_SYMBOLSPACE_H
#define GPURACE_ANALYZER_MODEL_SYMBOLSPACE_H

#include "analyzer/model/Arith.h"

#include <z3++.h>

#include <array>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpurace::analyzer {

class SymbolSpace {
public:
  SymbolSpace(z3::context &context, OverflowMode mode);

  const Arith &arith() const { return arith_; }
  z3::context &context() const { return arith_.context(); }

  // threadIdx, blockIdx (thread-local) and blockDim, gridDim (shared), as
  // 32-bit unsigned values.
  const z3::expr &threadIdx(int axis) const { return thread_idx_[axis]; }
  const z3::expr &blockIdx(int axis) const { return block_idx_[axis]; }
  const z3::expr &blockDim(int axis) const { return block_dim_[axis]; }
  const z3::expr &gridDim(int axis) const { return grid_dim_[axis]; }

  // A new thread-local symbol whose name starts with `hint`.
  z3::expr freshLocal(const std::string &hint, IntType type);
  z3::expr freshLocalBool(const std::string &hint);
  // A new shared symbol.
  z3::expr freshShared(const std::string &hint, IntType type);
  // A shared symbol with exactly this name (kernel parameters).
  z3::expr shared(const std::string &name, IntType type) const;
  // A shared function of thread-local arguments: the same value for every
  // thread that passes the same arguments (uniform loop variables).
  z3::func_decl freshSharedFunction(const std::string &hint, unsigned arity,
                                    IntType type);

  // Threads a query can name: the pair (1 and 2) and the threads that hand
  // a release on from one to the other (3 and 4).
  static constexpr int kThreads = 4;

  // `e` with every thread-local symbol renamed for thread 1 to kThreads.
  // Pair checks rename the same offsets and conditions many times: the
  // results are kept, keyed by the expression (held, so that its id stays
  // its own).
  z3::expr forThread(const z3::expr &e, int thread) const;
  // Every thread-local symbol renamed for `thread`: what a query
  // quantifies over to say "some thread".
  const z3::expr_vector &threadSymbols(int thread) const { return renamed_[thread - 1]; }

  // Whether `e` mentions a thread-local symbol other than `same_for_all`
  // (the iterations of enclosing loops, for a value compared only between
  // threads in the same iterations).
  bool isThreadDependent(const z3::expr &e,
                         const std::vector<z3::expr> &same_for_all = {}) const;

  // How many thread-local symbols exist: a mark for mentionsLocalsSince.
  size_t localCount() const { return locals_.size(); }
  // The symbols made so far, to forget those made after it when a model
  // is built again (rollBack): names and renamings then come out as they
  // would have without the first attempt.
  struct Mark {
    size_t locals;
    unsigned next_id;
  };
  Mark mark() const { return {locals_.size(), next_id_}; }
  void rollBack(const Mark &mark);
  // Whether `e` mentions a thread-local symbol made after `mark`, other
  // than those in `except`.
  bool mentionsLocalsSince(const z3::expr &e, size_t mark,
                           const std::vector<z3::expr> &except) const;

  // Ranges of the built-in coordinates for one thread.
  z3::expr coordinateBounds(int thread) const;
  // The thread's rank in its block (x fastest), as a 64-bit integer: what
  // warps and lanes are cut from.
  z3::expr linearThreadId(int thread) const;
  // Threads 1 and 2 with the same coordinates have the same rank. A
  // theorem, for queries to state: the rank is a sum of products of block
  // sizes and coordinates, and the solver that has found two threads'
  // coordinates equal does not on its own conclude that their ranks, and
  // so their warps, are (a 16x16 tile's store took it 300 ms to tell apart
  // from a store of another warp, 1 ms with this).
  z3::expr sameRankTheorem() const;

private:
  bool mentionsLocals(const z3::expr &e, size_t first, const std::vector<z3::expr> &except) const;
  std::string uniqueName(const std::string &hint);
  void addLocal(const z3::expr &symbol);

  Arith arith_;
  std::array<z3::expr, 3> thread_idx_, block_idx_, block_dim_, grid_dim_;
  z3::expr_vector locals_;
  std::array<z3::expr_vector, kThreads> renamed_;
  mutable std::array<std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>>, kThreads>
      for_thread_;
  unsigned next_id_ = 0;
};

// The names of the symbols (and uninterpreted functions) `terms` mention;
// with `values_only`, not those that only choose between the branches of
// an if-then-else (`argc > 1 ? 128 : 256` is made of two known values).
std::set<std::string> symbolNames(std::vector<z3::expr> terms, bool values_only = false);

} // namespace gpurace::analyzer

#endif
