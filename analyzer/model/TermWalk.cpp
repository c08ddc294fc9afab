//===- TermWalk.cpp - One visit per shared subterm of a Z3 term -----------===//

#include "analyzer/model/TermWalk.h"

#include <unordered_set>

namespace gpurace::analyzer {

bool walkTerms(std::vector<z3::expr> roots,
               const std::function<TermVisit(const z3::expr &)> &visit) {
  std::unordered_set<unsigned> seen;
  while (!roots.empty()) {
    z3::expr next = roots.back();
    roots.pop_back();
    if (!next.is_app() || !seen.insert(next.id()).second)
      continue;
    TermVisit what = visit(next);
    if (what == TermVisit::Stop)
      return true;
    if (what == TermVisit::Prune)
      continue;
    bool branches_only = what == TermVisit::DescendIntoBranches &&
                         next.decl().decl_kind() == Z3_OP_ITE;
    for (unsigned i = branches_only ? 1 : 0; i < next.num_args(); ++i)
      roots.push_back(next.arg(i));
  }
  return false;
}

void forEachSubterm(const z3::expr &root, const std::function<void(const z3::expr &)> &visit) {
  walkTerms({root}, [&](const z3::expr &e) {
    visit(e);
    return TermVisit::Descend;
  });
}

bool mentions(const z3::expr &e, const z3::expr &part) {
  return walkTerms({e}, [&](const z3::expr &next) {
    return z3::eq(next, part) ? TermVisit::Stop : TermVisit::Descend;
  });
}

std::vector<z3::expr> uninterpretedTerms(std::vector<z3::expr> roots) {
  std::vector<z3::expr> out;
  walkTerms(std::move(roots), [&](const z3::expr &e) {
    if (e.decl().decl_kind() == Z3_OP_UNINTERPRETED)
      out.push_back(e);
    return TermVisit::Descend;
  });
  return out;
}

} // namespace gpurace::analyzer
