//===- HostConditions.h - whether host conditions can hold ------*- C++ -*-===//
//
// One solver asked whether host conditions can hold, under facts the host
// values are known to satisfy (the exchanges of a loop keep their
// variables apart). Creating and configuring a solver costs more than
// these small queries, so one answers them all, each in a scope of its
// own; the facts go to it once, at the first condition it is needed for.
// An undecided query counts as yes.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_HOSTCONDITIONS_H
#define GPURACE_ANALYZER_HOST_HOSTCONDITIONS_H

#include "analyzer/check/LaunchContext.h"

#include <z3++.h>

#include <optional>
#include <utility>
#include <vector>

namespace gpurace::analyzer {

class HostConditions {
public:
  // `effort`: Z3 resource units per query.
  HostConditions(std::vector<Fact> facts, z3::context &ctx, unsigned effort)
      : facts_(std::move(facts)), ctx_(ctx), effort_(effort) {}

  const std::vector<Fact> &facts() const { return facts_; }

  bool possible(const z3::expr &condition) {
    if (condition.is_true() || condition.is_false())
      return condition.is_true();
    if (!solver_) {
      solver_.emplace(ctx_);
      z3::params limits(ctx_);
      limits.set("rlimit", effort_);
      solver_->set(limits);
      for (const Fact &fact : facts_)
        solver_->add(fact.term);
    }
    solver_->push();
    solver_->add(condition);
    bool sat = solver_->check() != z3::unsat;
    solver_->pop();
    return sat;
  }

private:
  std::vector<Fact> facts_;
  z3::context &ctx_;
  unsigned effort_;
  std::optional<z3::solver> solver_;
};

} // namespace gpurace::analyzer

#endif
