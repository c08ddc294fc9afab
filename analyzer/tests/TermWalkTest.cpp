// Every analysis that looks through a kernel model's terms walks them with
// walkTerms: shared subterms must cost one visit (the models are DAGs whose
// trees are exponential), and a chain is walked without recursion.
#include "analyzer/model/TermWalk.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace gpurace::analyzer {
namespace {

TEST(TermWalk, VisitsASharedSubtermOnce) {
  z3::context context;
  z3::expr x = context.int_const("x");
  // Sixty doublings: a tree of 2^60 leaves, a DAG of 61 nodes.
  z3::expr e = x;
  for (int i = 0; i < 60; ++i)
    e = e + e;
  std::map<unsigned, int> visits;
  forEachSubterm(e, [&](const z3::expr &t) { ++visits[t.id()]; });
  EXPECT_EQ(visits.size(), 61u);
  for (const auto &[id, count] : visits)
    EXPECT_EQ(count, 1) << "term " << id;
}

TEST(TermWalk, FindsASymbolAtTheFarEndOfAChain) {
  z3::context context;
  z3::expr e = context.int_const("x");
  for (int i = 0; i < 1000; ++i)
    e = context.int_const(("y" + std::to_string(i % 7)).c_str()) - e;
  EXPECT_TRUE(mentions(e, context.int_const("x")));
  EXPECT_FALSE(mentions(e, context.int_const("z")));
}

TEST(TermWalk, PrunedTermsHideTheirArguments) {
  z3::context context;
  z3::expr x = context.int_const("x"), y = context.int_const("y");
  z3::expr hidden = x * y;
  auto reaches = [&](const z3::expr &root, const z3::expr &target) {
    return walkTerms({root}, [&](const z3::expr &t) {
      if (z3::eq(t, target))
        return TermVisit::Stop;
      return z3::eq(t, hidden) ? TermVisit::Prune : TermVisit::Descend;
    });
  };
  EXPECT_FALSE(reaches(hidden + 1, x));
  // Pruned through one parent only: another path to `x` is still walked.
  EXPECT_TRUE(reaches(hidden + x, x));
}

TEST(TermWalk, BranchesLeaveAChoiceConditionOut) {
  z3::context context;
  z3::expr c = context.int_const("c"), a = context.int_const("a"), b = context.int_const("b");
  z3::expr choice = z3::ite(c > 0, a, b + 1);
  std::vector<std::string> names;
  walkTerms({choice}, [&](const z3::expr &t) {
    if (t.decl().decl_kind() == Z3_OP_UNINTERPRETED)
      names.push_back(t.decl().name().str());
    return TermVisit::DescendIntoBranches;
  });
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(uninterpretedTerms({choice}).size(), 3u);
}

} // namespace
} // namespace gpurace::analyzer
