// The analyzer builds terms by assigning new expressions to existing
// z3::expr variables all the time (`offset = offset + stride`). The Z3 C++
// API it compiles against must release the term such a variable held
// (cmake/Z3MoveAssignment.cmake): terms left behind pile up in memory and
// make deleting each kernel's context slow.
#include <z3++.h>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Z3MoveAssignment, AssigningATemporaryReleasesTheTermHeldBefore) {
  z3::context context;
  z3::expr chain = context.int_val(0);
  for (int i = 0; i < 1000; ++i)
    chain = chain + context.int_const(("x" + std::to_string(i)).c_str());
  z3::expr before = context.int_const("y") * 3;
  unsigned newest = Z3_get_ast_id(context, before);
  // A move assignment from a temporary, as `e = a + b` is.
  chain = context.int_const("y") + 1;
  // Z3 gives a new term the number of one it has freed, if any: the
  // chain's terms, once released.
  z3::expr after = context.int_const("z") * 5;
  EXPECT_LT(Z3_get_ast_id(context, after), newest)
      << "the chain's 2,000 terms were not released";
}

} // namespace
