//===- QueryBudget.cpp - effort and clock of one launch's queries ---------===//
#include "analyzer/check/QueryBudget.h"

#include <algorithm>
#include <cstdint>

namespace gpurace::analyzer {

namespace {

// Undecided queries of a launch asked again with more effort, and how
// many times the effort: the corpus' pitched-row and scan pairs need up
// to 16 times the default.
constexpr unsigned kEscalations = 4;
constexpr unsigned kEscalatedEffort = 16;

// Once 2 queries of a kernel have run into the clock, its other queries
// get a tenth of the clock, and a hundredth after 8: the products and
// quotients of host values that stopped the solver there recur in the
// kernel's other pairs and template instances (one index expression, many
// pairs), and more stops at the full cap would cost minutes on one kernel
// for verdicts that stay undecided.
struct ShorterCap {
  unsigned clock_stops;
  unsigned divisor;
};
constexpr ShorterCap kShorterCaps[] = {{8, 100}, {2, 10}};
constexpr unsigned kShortestCapMs = 10;

} // namespace

QueryBudget::QueryBudget(unsigned effort, unsigned timeout_ms,
                         std::atomic<unsigned> *clock_stops)
    : effort_(effort), timeout_ms_(timeout_ms), escalations_left_(kEscalations),
      clock_stops_(clock_stops ? *clock_stops : own_clock_stops_) {}

unsigned QueryBudget::capMs(unsigned effort) const {
  uint64_t cap = timeout_ms_;
  unsigned stops = clock_stops_;
  for (const ShorterCap &shorter : kShorterCaps)
    if (stops >= shorter.clock_stops) {
      cap /= shorter.divisor;
      break;
    }
  if (effort < effort_)
    cap = cap * effort / effort_;
  return static_cast<unsigned>(std::max<uint64_t>(cap, kShortestCapMs));
}

void QueryBudget::apply(z3::solver &solver, unsigned effort) const {
  z3::params params(solver.ctx());
  params.set("timeout", capMs(effort));
  params.set("rlimit", effort);
  solver.set(params);
}

bool QueryBudget::reachedCap(std::chrono::steady_clock::duration elapsed, unsigned cap_ms) {
  return elapsed >= std::chrono::milliseconds(cap_ms);
}

std::optional<unsigned> QueryBudget::takeEscalation() {
  if (escalations_left_ == 0)
    return std::nullopt;
  --escalations_left_;
  uint64_t more = uint64_t{effort_} * kEscalatedEffort;
  return static_cast<unsigned>(std::min<uint64_t>(more, UINT32_MAX));
}

} // namespace gpurace::analyzer
