//===- QueryBudget.h - effort and clock of one launch's queries -*- C++ -*-===//
//
// What the solver may spend on the queries of one launch. Effort, in Z3
// resource units, decides almost every query, and deterministically: the
// same input gives the same verdicts on any machine. The wall clock is a
// safety net for the nonlinear queries that the effort does not bound. A
// query given a share of the effort gets the same share of the clock, and
// a kernel whose queries keep running into the clock gets a shorter one
// for the rest. A few undecided queries per launch may be asked again with
// more effort.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_CHECK_QUERYBUDGET_H
#define GPURACE_ANALYZER_CHECK_QUERYBUDGET_H

#include <z3++.h>

#include <atomic>
#include <chrono>
#include <optional>

namespace gpurace::analyzer {

class QueryBudget {
public:
  // `clock_stops` counts the queries the clock stopped across the
  // instances of one kernel; null: this budget counts its own.
  QueryBudget(unsigned effort, unsigned timeout_ms, std::atomic<unsigned> *clock_stops);
  QueryBudget(const QueryBudget &) = delete;
  QueryBudget &operator=(const QueryBudget &) = delete;

  // The default effort of a query.
  unsigned effort() const { return effort_; }
  // The clock cap of a query given `effort`.
  unsigned capMs(unsigned effort) const;
  // Gives the solver's next queries `effort` and its cap.
  void apply(z3::solver &solver, unsigned effort) const;
  // Whether an undecided query that ran `elapsed` used its cap: Z3 gives
  // the same reason ("canceled") for both limits, and the clock tells
  // them apart.
  static bool reachedCap(std::chrono::steady_clock::duration elapsed, unsigned cap_ms);
  // Counts a query the clock stopped.
  void noteClockStop() { ++clock_stops_; }

  // The effort of one more escalated query, while the launch has any left.
  std::optional<unsigned> takeEscalation();
  // An escalated query ran into the clock: more effort helps where the
  // effort ran out, and the launch's other pairs are most likely alike.
  void endEscalations() { escalations_left_ = 0; }

private:
  unsigned effort_;
  unsigned timeout_ms_;
  unsigned escalations_left_;
  std::atomic<unsigned> own_clock_stops_{0};
  std::atomic<unsigned> &clock_stops_;
};

} // namespace gpurace::analyzer

#endif
