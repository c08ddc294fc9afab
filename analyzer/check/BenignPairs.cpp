//===- BenignPairs.cpp - benign races -------------------------------------===//
//
// A write-write pair whose threads both store the same value wherever they
// race (`flag = 1` from every thread), and a write and a read of a thread
// that reads back what it stored itself, are benign: reported below the
// threshold, with the reason.
//
//===----------------------------------------------------------------------===//
#include "analyzer/check/LaunchPairChecker.h"

#include <algorithm>

namespace gpurace::analyzer {

bool LaunchPairChecker::storeSameValue(z3::solver &solver, const std::vector<z3::expr> &trackers,
                             const MemoryAccess &a, const MemoryAccess &b) {
  // Plain writes, or an exchange (`atomicExch(&flag, 1)`) beside them.
  auto stores = [](const MemoryAccess &access) {
    return access.site.kind() == v1::ACCESS_KIND_WRITE ||
           (access.site.kind() == v1::ACCESS_KIND_ATOMIC &&
            access.site.atomic_op() == v1::ATOMIC_OP_EXCH);
  };
  if (!stores(a) || !stores(b) || !a.stored || !b.stored)
    return false;
  z3::expr first = symbols_.forThread(*a.stored, 1);
  z3::expr second = symbols_.forThread(*b.stored, 2);
  if (!z3::eq(first.get_sort(), second.get_sort()))
    return false;
  solver.push();
  add(solver, first != second);
  ++result_.queries;
  bool same = solver.check(asVector(trackers)) == z3::unsat;
  solver.pop();
  return same;
}

std::optional<std::vector<const MemoryAccess *>>
LaunchPairChecker::readsWhatItStored(z3::solver &solver, const std::vector<z3::expr> &trackers,
                           const MemoryAccess &write, const MemoryAccess &read) {
  if (write.site.kind() != v1::ACCESS_KIND_WRITE || read.site.kind() != v1::ACCESS_KIND_READ ||
      !write.stored || write.order >= read.order ||
      write.iterations.size() > read.iterations.size() ||
      !std::equal(write.iterations.begin(), write.iterations.end(), read.iterations.begin(),
                  [](const z3::expr &x, const z3::expr &y) { return z3::eq(x, y); }))
    return std::nullopt;
  // The reader's run of the write in the same iterations is its last store
  // there when no other write of the object comes between: none after the
  // write and before the read in the body, and none later in a loop that
  // encloses the read but not the write, unless the read is in that loop's
  // first iteration.
  std::vector<const MemoryAccess *> others;
  std::vector<z3::expr> first_iterations;
  for (const MemoryAccess &other : model_.accesses) {
    if (&other == &write || other.object != write.object ||
        other.site.kind() == v1::ACCESS_KIND_READ)
      continue;
    if (other.order > write.order && other.order < read.order)
      return std::nullopt;
    for (const z3::expr &k : loopsRunningBetween(other, write, read))
      first_iterations.push_back(k);
    others.push_back(&other);
  }
  auto on = [this](const z3::expr &e, int thread) { return symbols_.forThread(e, thread); };
  // Thread 1 writes, thread 2 reads; thread 2 ran the write earlier, to the
  // word it reads, storing what thread 1 stores.
  z3::expr stored_first = on(write.path_condition, 2) && on(write.offset, 2) == on(read.offset, 2) &&
                          on(*write.stored, 2) == on(*write.stored, 1);
  for (const z3::expr &k : first_iterations)
    stored_first = stored_first && on(k, 2) == 0;
  solver.push();
  add(solver, !stored_first);
  ++result_.queries;
  bool same = solver.check(asVector(trackers)) == z3::unsat;
  solver.pop();
  if (!same)
    return std::nullopt;
  return others;
}

std::vector<z3::expr> LaunchPairChecker::loopsRunningBetween(const MemoryAccess &other,
                                                  const MemoryAccess &write,
                                                  const MemoryAccess &read) const {
  std::vector<z3::expr> loops;
  if (other.order < read.order)
    return loops;
  for (size_t i = write.iterations.size(); i < read.iterations.size(); ++i)
    for (const z3::expr &k : other.iterations)
      if (z3::eq(k, read.iterations[i]))
        loops.push_back(k);
  return loops;
}

void LaunchPairChecker::resolveReadsOfOwnStores() {
  for (const OwnStoreRead &judged : own_store_reads_)
    for (const MemoryAccess *other : judged.other_writes)
      if (racing(other, judged.read) || racing(other, judged.write)) {
        result_.candidates[judged.candidate].clear_benign();
        break;
      }
}

} // namespace gpurace::analyzer
