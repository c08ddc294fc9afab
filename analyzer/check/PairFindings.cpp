//===- PairFindings.cpp - witnesses, candidates and proofs ----------------===//
//
// How a pair's verdict is reported: a satisfying model becomes a witness
// (threads, launch, parameters, element and loop iterations), a candidate
// carries the imprecisions its symbols come from and the host facts used,
// and an unsat core becomes a proof naming the facts it needed.
//
//===----------------------------------------------------------------------===//
#include "analyzer/check/LaunchPairChecker.h"
#include "analyzer/model/TermWalk.h"

#include "analyzer/report/Ranking.h"

#include <google/protobuf/util/message_differencer.h>

#include <cstring>
#include <tuple>

namespace gpurace::analyzer {

std::vector<v1::Imprecision>
LaunchPairChecker::imprecisionsOf(const std::vector<z3::expr> &addresses,
                        const std::vector<z3::expr> &guards) const {
  std::map<std::string, v1::Imprecision> by_source;
  auto collect = [&](const std::set<std::string> &names, bool guard) {
    for (const std::string &name : names) {
      auto it = model_.imprecisions.find(name);
      if (it == model_.imprecisions.end()) {
        it = context_.imprecisions.find(name);
        if (it == context_.imprecisions.end())
          continue;
      }
      v1::Imprecision imprecision = it->second;
      imprecision.set_guard_only(guard);
      // An address imprecision of a source outweighs a guard-only one.
      by_source.emplace(imprecisionSource(imprecision), imprecision);
    }
  };
  // A thread's coordinate ranges over the launch's dims: an address that
  // depends on blockIdx.x depends on gridDim.x too.
  auto withDims = [](std::set<std::string> names) {
    std::set<std::string> dims;
    for (const std::string &name : names)
      for (auto [coordinate, dim] : {std::pair{"threadIdx.", "blockDim."},
                                     std::pair{"blockIdx.", "gridDim."}})
        if (name.rfind(coordinate, 0) == 0 && name.size() > std::strlen(coordinate))
          dims.insert(dim + name.substr(std::strlen(coordinate), 1));
    names.insert(dims.begin(), dims.end());
    return names;
  };
  collect(withDims(symbolNames(addresses)), false);
  collect(withDims(symbolNames(guards)), true);
  std::vector<v1::Imprecision> out;
  for (auto &[source, imprecision] : by_source)
    out.push_back(std::move(imprecision));
  // Report in source order, as the text shows them.
  std::stable_sort(out.begin(), out.end(), [](const auto &x, const auto &y) {
    return std::make_tuple(x.guard_only(), x.location().line(), x.location().column()) <
           std::make_tuple(y.guard_only(), y.location().line(), y.location().column());
  });
  return out;
}

v1::Witness LaunchPairChecker::witness(const z3::model &m, const MemoryAccess *a) const {
  v1::Witness w;

  auto value = [&](const z3::expr &e) -> int64_t {
    auto v = Arith::numeral(m.eval(pinned(e), true), false);
    return v ? *v : 0;
  };
  auto fill = [&](v1::ThreadCoord &coord, int thread) {
    coord.mutable_thread_idx()->set_x(value(symbols_.forThread(symbols_.threadIdx(0), thread)));
    coord.mutable_thread_idx()->set_y(value(symbols_.forThread(symbols_.threadIdx(1), thread)));
    coord.mutable_thread_idx()->set_z(value(symbols_.forThread(symbols_.threadIdx(2), thread)));
    coord.mutable_block_idx()->set_x(value(symbols_.forThread(symbols_.blockIdx(0), thread)));
    coord.mutable_block_idx()->set_y(value(symbols_.forThread(symbols_.blockIdx(1), thread)));
    coord.mutable_block_idx()->set_z(value(symbols_.forThread(symbols_.blockIdx(2), thread)));
  };
  fill(*w.mutable_first(), 1);
  fill(*w.mutable_second(), 2);
  w.mutable_block_dim()->set_x(value(symbols_.blockDim(0)));
  w.mutable_block_dim()->set_y(value(symbols_.blockDim(1)));
  w.mutable_block_dim()->set_z(value(symbols_.blockDim(2)));
  w.mutable_grid_dim()->set_x(value(symbols_.gridDim(0)));
  w.mutable_grid_dim()->set_y(value(symbols_.gridDim(1)));
  w.mutable_grid_dim()->set_z(value(symbols_.gridDim(2)));
  for (const auto &[name, symbol] : model_.parameters) {
    z3::expr evaluated = m.eval(pinned(symbol), true);
    auto v = Arith::numeral(evaluated, true);
    v1::NamedValue *param = w.add_parameters();
    param->set_name(name);
    // An unsigned 64-bit value past INT64_MAX (a texture handle) is
    // printed whole.
    param->set_value(v                        ? std::to_string(*v)
                     : evaluated.is_numeral() ? evaluated.get_decimal_string(0)
                                              : "?");
  }
  if (a) {
    auto offset =
        Arith::numeral(m.eval(pinned(symbols_.forThread(a->offset, 1)), true), true);
    if (offset) {
      w.set_byte_offset(*offset);
      if (a->site.size_bytes() > 0)
        w.set_index(std::to_string(*offset / static_cast<int64_t>(a->site.size_bytes())));
    }
    for (size_t i = 0; i < a->iterations.size(); ++i) {
      for (int t = 1; t <= 2; ++t) {
        auto k = Arith::numeral(
            m.eval(pinned(symbols_.forThread(a->iterations[i], t)), true), true);
        v1::NamedValue *local = t == 1 ? w.add_first_locals() : w.add_second_locals();
        local->set_name("iteration of loop " + std::to_string(i + 1));
        local->set_value(k ? std::to_string(*k) : "?");
      }
    }
  }
  return w;
}

namespace {

// Adds `assumption` unless the list already says the same: facts about
// different host symbols that print alike (one variable read at two
// launches) are one statement to the reader.
void addOnce(google::protobuf::RepeatedPtrField<v1::Assumption> &list,
             const v1::Assumption &assumption) {
  for (const v1::Assumption &held : list)
    if (google::protobuf::util::MessageDifferencer::Equals(held, assumption))
      return;
  *list.Add() = assumption;
}

} // namespace

void LaunchPairChecker::addCandidate(const MemoryAccess &a, const MemoryAccess &b,
                           const ClassQuery &query, const z3::model *m) {
  v1::RaceCandidate candidate;
  candidate.set_kernel(model_.kernel_name);
  *candidate.mutable_first() = a.site;
  *candidate.mutable_second() = b.site;
  candidate.set_race_class(query.race_class);
  candidate.set_defect(query.defect);
  candidate.set_insufficient_scope(query.insufficient_scope);
  candidate.set_status(v1::RACE_STATUS_POTENTIAL);
  if (m)
    *candidate.mutable_witness() = witness(*m, &a);
  for (auto &imprecision :
       imprecisionsOf({a.offset, b.offset}, {a.path_condition, b.path_condition}))
    *candidate.add_imprecisions() = imprecision;
  if (!m) {
    v1::Imprecision *timeout = candidate.add_imprecisions();
    timeout->set_kind(v1::IMPRECISION_KIND_SOLVER_UNDECIDED);
    timeout->set_detail(out_of_time_
                            ? "the solver ran out of time on this pair before its effort "
                              "limit (--query-timeout-ms): a verdict that may differ on a "
                              "busier or faster machine"
                            : "the solver ran out of effort on this pair (--query-effort)");
  }
  if (a.object != b.object && !(placed(*a.object) && placed(*b.object))) {
    v1::Imprecision *alias = candidate.add_imprecisions();
    alias->set_kind(v1::IMPRECISION_KIND_UNKNOWN_ALIASING);
    alias->set_detail("'" + a.object->name + "' and '" + b.object->name +
                      "' may point into the same buffer");
  }
  for (const Fact &fact : context_.facts) {
    v1::Assumption used = fact.assumption;
    used.set_role(v1::Assumption::ROLE_USED);
    addOnce(*candidate.mutable_assumptions(), used);
  }
  racing_.insert({std::min(&a, &b), std::max(&a, &b)});
  result_.candidates.push_back(std::move(candidate));
}

v1::RaceFreedomProof LaunchPairChecker::proofOf(const MemoryAccess &a, const MemoryAccess &b) const {
  v1::RaceFreedomProof proof;
  proof.set_kernel(model_.kernel_name);
  *proof.mutable_first() = a.site;
  *proof.mutable_second() = b.site;
  if (context_.site)
    *proof.mutable_launch_site() = *context_.site;
  return proof;
}

void LaunchPairChecker::addAssumedDistinct(const MemoryAccess &a, const MemoryAccess &b) {
  v1::RaceFreedomProof proof = proofOf(a, b);
  v1::Assumption *assumption = proof.add_assumptions();
  assumption->set_kind(v1::HOST_FACT_KIND_ANALYSIS);
  assumption->set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
  assumption->set_description("assumes '" + a.object->name + "' and '" + b.object->name +
                              "' do not overlap (no caller of the launching function is "
                              "visible; --assume-aliasing checks them as overlapping)");
  if (context_.site)
    *assumption->mutable_location() = context_.site->location();
  result_.proofs.push_back(std::move(proof));
}

void LaunchPairChecker::addKeptApart(const MemoryAccess &a, const MemoryAccess &b) {
  using Kind = MemoryObject::Kind;
  if (a.object == b.object || a.object->kind != Kind::PointerParameter ||
      b.object->kind != Kind::PointerParameter)
    return;
  int i = a.object->parameter_index, j = b.object->parameter_index;
  auto found = context_.kept_apart.find({std::min(i, j), std::max(i, j)});
  if (found == context_.kept_apart.end())
    return;
  v1::RaceFreedomProof proof = proofOf(a, b);
  for (v1::Assumption assumption : found->second) {
    assumption.set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
    *proof.add_assumptions() = std::move(assumption);
  }
  result_.proofs.push_back(std::move(proof));
}

void LaunchPairChecker::addProof(const MemoryAccess &a, const MemoryAccess &b,
                       const z3::expr_vector &core,
                       const std::vector<z3::expr> &trackers) {
  v1::RaceFreedomProof proof = proofOf(a, b);
  std::set<size_t> needed;
  for (unsigned i = 0; i < core.size(); ++i)
    for (size_t t = 0; t < trackers.size(); ++t)
      if (z3::eq(core[i], trackers[t]))
        needed.insert(t);
  // A fact that fixes a symbol to a number is substituted, never tracked:
  // it is needed where a needed fact names its symbol.
  std::set<size_t> fixed;
  for (size_t t : needed)
    for (const auto &[index, symbol] : pinned_symbol_)
      if (mentions(context_.facts[t].term, symbol))
        fixed.insert(index);
  needed.insert(fixed.begin(), fixed.end());
  for (size_t t : needed) {
    v1::Assumption assumption = context_.facts[t].assumption;
    assumption.set_role(v1::Assumption::ROLE_REQUIRED_FOR_RACE_FREEDOM);
    addOnce(*proof.mutable_assumptions(), assumption);
  }
  result_.proofs.push_back(std::move(proof));
}

} // namespace gpurace::analyzer
