#include "analyzer/host/RelatedFacts.h"

#include "analyzer/model/SymbolSpace.h"

#include <map>
#include <set>
#include <string>

namespace gpurace::analyzer {

namespace {

bool isHostSymbol(const std::string &name) { return name.rfind("host:", 0) == 0; }

// Host values joined by the facts that mention them together.
class ValueGroups {
public:
  size_t of(const std::string &name) {
    auto [it, inserted] = index_.emplace(name, parent_.size());
    if (inserted)
      parent_.push_back(parent_.size());
    return root(it->second);
  }
  void join(size_t a, size_t b) { parent_[root(a)] = root(b); }
  size_t root(size_t i) {
    while (parent_[i] != i)
      i = parent_[i] = parent_[parent_[i]];
    return i;
  }

private:
  std::map<std::string, size_t> index_;
  std::vector<size_t> parent_;
};

} // namespace

bool FactSetVerdicts::satisfiable(const std::vector<z3::expr> &facts, z3::context &z3) {
  std::string text;
  for (const z3::expr &fact : facts)
    text += fact.to_string() + "\n";
  auto known = known_.find(text);
  if (known != known_.end())
    return known->second;
  // A small check, since dropping the facts is only safe where they hold
  // (anything but a clear yes keeps them).
  z3::solver solver(z3);
  z3::params limits(z3);
  limits.set("rlimit", 200000u);
  solver.set(limits);
  for (const z3::expr &fact : facts)
    solver.add(fact);
  bool holds = solver.check() == z3::sat;
  known_.emplace(std::move(text), holds);
  return holds;
}

void keepRelatedFacts(LaunchContext &context, z3::context &z3, FactSetVerdicts &verdicts) {
  ValueGroups groups;
  // Every kernel symbol is one group, the kernel's: a host value joined to
  // it is related.
  auto groupOf = [&](const std::string &name) {
    return groups.of(isHostSymbol(name) ? name : "");
  };
  const size_t kernel = groupOf("");
  auto joinAll = [&](const std::set<std::string> &names, size_t to) {
    for (const std::string &name : names)
      groups.join(groupOf(name), to);
  };
  std::vector<std::set<std::string>> names;
  for (const Fact &fact : context.facts) {
    names.push_back(symbolNames({fact.term}));
    if (!names.back().empty())
      joinAll(names.back(), groupOf(*names.back().begin()));
  }
  for (const auto &[parameter, bytes] : context.buffer_bytes)
    joinAll(symbolNames({bytes}), kernel);
  for (const auto &[pair, condition] : context.alias_conditions)
    joinAll(symbolNames({condition}), kernel);

  std::vector<Fact> related;
  std::vector<z3::expr> unrelated;
  for (size_t i = 0; i < context.facts.size(); ++i) {
    // A fact over no symbol at all states a known value (a buffer of
    // known size): it costs the solver nothing and the reader learns it.
    if (names[i].empty() || groups.root(groupOf(*names[i].begin())) == groups.root(kernel))
      related.push_back(context.facts[i]);
    else
      unrelated.push_back(context.facts[i].term);
  }
  if (unrelated.empty() || !verdicts.satisfiable(unrelated, z3))
    return;
  context.facts = std::move(related);
}

} // namespace gpurace::analyzer
