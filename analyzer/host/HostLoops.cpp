//===- HostLoops.cpp - what a host loop leaves in a variable ---------------===//
//
// The value a loop leaves is not followed (its trip count is not known),
// but its writes may keep a property of the value it started from: a
// variable only scaled by powers of two stays a power of two (`n <<= 1`),
// and one halved only while it is even (`while ((n & 1) == 0) n >>= 1;`,
// the odd part of n) ends at 1 exactly when it started as a power of two,
// which is how host code checks a size before launching a kernel that
// masks with it (`assert(oddPart(n) == 1)`).
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/model/VariableWrites.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <algorithm>

namespace gpurace::analyzer {

using clang::dyn_cast;

namespace {

bool isConstant(const clang::Expr *e, int64_t value, const clang::ASTContext &ast) {
  clang::Expr::EvalResult result;
  return !e->isValueDependent() && e->EvaluateAsInt(result, ast) &&
         result.Val.getInt() == value;
}

// `n & 1` or `n % 2`: the low bit of `var`.
bool lowBitOf(const clang::Expr *e, const clang::VarDecl &var, const clang::ASTContext &ast) {
  auto *op = dyn_cast<clang::BinaryOperator>(e->IgnoreParenImpCasts());
  if (!op || !isVar(op->getLHS(), var))
    return false;
  return (op->getOpcode() == clang::BO_And && isConstant(op->getRHS(), 1, ast)) ||
         (op->getOpcode() == clang::BO_Rem && isConstant(op->getRHS(), 2, ast));
}

// `(n & 1) == 0`, `n % 2 == 0`, `!(n & 1)`: the condition holds only while
// `var` is even.
bool testsEven(const clang::Expr *condition, const clang::VarDecl &var,
               const clang::ASTContext &ast) {
  if (!condition)
    return false;
  const clang::Expr *e = condition->IgnoreParenImpCasts();
  if (auto *negation = dyn_cast<clang::UnaryOperator>(e))
    return negation->getOpcode() == clang::UO_LNot && lowBitOf(negation->getSubExpr(), var, ast);
  auto *equal = dyn_cast<clang::BinaryOperator>(e);
  if (!equal || equal->getOpcode() != clang::BO_EQ)
    return false;
  return (lowBitOf(equal->getLHS(), var, ast) && isConstant(equal->getRHS(), 0, ast)) ||
         (lowBitOf(equal->getRHS(), var, ast) && isConstant(equal->getLHS(), 0, ast));
}

// `n >>= 1` or `n /= 2`.
bool halves(const clang::Stmt &write, const clang::VarDecl &var, const clang::ASTContext &ast) {
  auto *update = dyn_cast<clang::CompoundAssignOperator>(&write);
  if (!update || !isVar(update->getLHS(), var))
    return false;
  return (update->getOpcode() == clang::BO_ShrAssign && isConstant(update->getRHS(), 1, ast)) ||
         (update->getOpcode() == clang::BO_DivAssign && isConstant(update->getRHS(), 2, ast));
}

const clang::Expr *loopCondition(const clang::Stmt &loop) {
  if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
    return for_loop->getCond();
  if (auto *while_loop = dyn_cast<clang::WhileStmt>(&loop))
    return while_loop->getCond();
  if (auto *do_loop = dyn_cast<clang::DoStmt>(&loop))
    return do_loop->getCond();
  return nullptr;
}


} // namespace

std::optional<z3::expr> HostValues::writtenByLoop(const clang::Stmt &write,
                                                  const clang::VarDecl &var,
                                                  const std::string &field,
                                                  const z3::expr &carried) {
  if (auto *unary = dyn_cast<clang::UnaryOperator>(&write)) {
    if (!unary->isIncrementDecrementOp())
      return std::nullopt;
    z3::expr one = arith_.constant(1, kInt64);
    return unary->isIncrementOp() ? arith_.add(carried, one) : arith_.sub(carried, one);
  }
  auto *op = dyn_cast<clang::BinaryOperator>(&write);
  if (!op)
    return std::nullopt;
  // The whole variable written where a field is asked for: not followed.
  auto *member = dyn_cast<clang::MemberExpr>(op->getLHS()->IgnoreParenImpCasts());
  if (field.empty() != !member)
    return std::nullopt;
  std::optional<z3::expr> by = value(op->getRHS());
  if (op->getOpcode() == clang::BO_Assign || !by)
    return by;
  switch (op->getOpcode()) {
  case clang::BO_AddAssign: return arith_.add(carried, *by);
  case clang::BO_SubAssign: return arith_.sub(carried, *by);
  case clang::BO_MulAssign: return arith_.mul(carried, *by);
  default: return std::nullopt;
  }
}

std::optional<z3::expr> HostValues::keptByLoop(const Definition &definition,
                                               const clang::VarDecl &var,
                                               const std::string &field, const z3::expr &carried) {
  const clang::Stmt &loop = *definition.at;
  const clang::Stmt *init = nullptr;
  if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
    init = for_loop->getInit();
  std::vector<z3::expr> written;
  for (const clang::Stmt *write : environment_.writesWithin(loop, var, field)) {
    if (init && environment_.contains(*init, *write))
      continue; // before the first iteration: part of `before`
    std::optional<z3::expr> value = writtenByLoop(*write, var, field, carried);
    if (!value)
      return std::nullopt;
    written.push_back(*value);
  }
  z3::expr before = combine(definition.before, var, field);
  // Every write sets it back to what it held on entry (`grid.y = 1`).
  if (std::all_of(written.begin(), written.end(),
                  [&](const z3::expr &w) { return (w == before).simplify().is_true(); }))
    return before;
  // A value that starts positive (or not negative) and that each write
  // keeps so (`mul = mul * 256`, `n += 4`, `k = 1`) stays so: each write's
  // value, from any carried value with the property, has it too.
  // The writes' values may be any host expression: a bounded query, and
  // nothing stated where it does not end in a proof.
  // Whether every write keeps `holds` of the value it finds.
  auto keptByEveryWrite = [&](auto holds) {
    z3::expr broken = arith_.context().bool_val(false);
    for (const z3::expr &w : written)
      broken = broken || !holds(w);
    return !invariants_->possible(holds(carried) && broken);
  };
  std::string name = var.getNameAsString() + (field.empty() ? "" : "." + field);
  z3::expr zero = arith_.constant(0, kInt64), one = arith_.constant(1, kInt64);
  for (const z3::expr &bound : {one, zero}) {
    if (!keptByEveryWrite([&](const z3::expr &x) { return arith_.lessEq(bound, x, true); }))
      continue;
    value_facts_.push_back(fact(z3::implies(arith_.lessEq(bound, before, true),
                                            arith_.lessEq(bound, carried, true)),
                                v1::HOST_FACT_KIND_LOOP_BOUND,
                                "loop: every write keeps " + name + " at least " +
                                    (bound.get_numeral_int64() ? "1" : "0") +
                                    " if it starts so",
                                loop));
    break;
  }
  // A value each write scales by c (`mul = mul * 256`) is, after the
  // first, a multiple of c: the one it started from, or a multiple.
  for (const z3::expr &w : written) {
    z3::expr product = w.simplify();
    int64_t scale = 0;
    if (!product.is_app() || product.decl().decl_kind() != Z3_OP_MUL || product.num_args() != 2)
      continue;
    for (unsigned i = 0; i < 2; ++i)
      if (product.arg(i).is_numeral_i64(scale) && scale > 1 && z3::eq(product.arg(1 - i), carried))
        break;
    if (scale <= 1)
      continue;
    z3::expr c = arith_.constant(scale, kInt64);
    auto kept = [&](const z3::expr &x) {
      return x == before || arith_.rem(x, c, true) == arith_.constant(0, kInt64);
    };
    if (!keptByEveryWrite(kept))
      continue;
    value_facts_.push_back(fact(kept(carried), v1::HOST_FACT_KIND_LOOP_BOUND,
                                "loop: " + name + " is what it started as or a multiple of " +
                                    std::to_string(scale),
                                loop));
    break;
  }
  return std::nullopt;
}

z3::expr HostValues::leftByLoop(const Definition &definition, const clang::VarDecl &var,
                                const std::string &field) {
  bool integral = !field.empty() || var.getType()->isIntegralOrEnumerationType();
  if (!definition.before.empty() && definition.at && integral) {
    // A write of the loop reads what the loop carries: its symbol.
    auto key = std::make_tuple(&var, field, definition.at);
    if (following_.insert(key).second) {
      std::optional<z3::expr> kept = keptByLoop(definition, var, field, symbolOf(var, field));
      following_.erase(key);
      // The writes' reads of the carried symbol cached it as this
      // definition's value; the value is the one worked out here.
      definition_values_.erase(std::make_tuple(definition.at, &var, field));
      if (kept)
        return *kept;
    }
  }
  z3::expr left = unknownSymbolOf(var, field, definition.reason, definition.at);
  if (!field.empty() || definition.before.empty() || !definition.at || !integral)
    return left;
  const clang::Stmt &loop = *definition.at;
  std::vector<const clang::Stmt *> writes = writesOf(loop, var);
  if (!scalesByPowersOfTwo(writes, var, ast_))
    return left;
  z3::expr before = combine(definition.before, var, field);
  std::string name = var.getNameAsString();
  // Host values are 64-bit terms.
  value_facts_.push_back(fact(z3::implies(arith_.powerOfTwoOrZero(before, kInt64),
                                          arith_.powerOfTwoOrZero(left, kInt64)),
                              v1::HOST_FACT_KIND_LOOP_BOUND,
                              "loop: " + name + " stays a power of two if it starts as one",
                              loop));
  bool exact_halving = testsEven(loopCondition(loop), var, ast_);
  for (const clang::Stmt *write : writes)
    exact_halving = exact_halving && halves(*write, var, ast_);
  if (exact_halving)
    value_facts_.push_back(
        fact(z3::implies(left == arith_.constant(1, kInt64),
                         arith_.powerOfTwoOrZero(before, kInt64)),
             v1::HOST_FACT_KIND_LOOP_BOUND,
             "loop: " + name + " is halved while it is even, so it ends at 1 only from a "
                                "power of two",
             loop));
  return left;
}

} // namespace gpurace::analyzer

namespace gpurace::analyzer {

z3::expr HostValues::exchangeSelector(const Definition &definition, const clang::VarDecl &var) {
  const std::vector<const clang::VarDecl *> &group = definition.group;
  std::string loop = placeKey(definition.at->getBeginLoc()) +
                     (definition.after_loop ? ":after" : ":head") + callChainSuffix();
  auto selectorOf = [&](const clang::VarDecl &member) {
    return symbols_.shared("host:exchange@" + loop + ":" + member.getNameAsString(), kInt64);
  };
  // One fact per group: a loop may exchange several pairs of buffers.
  if (stated_.insert("host:exchange@" + loop + ":" + group.front()->getNameAsString()).second) {
    z3::expr_vector selectors(arith_.context());
    z3::expr in_range = arith_.context().bool_val(true);
    std::string names;
    for (const clang::VarDecl *member : group) {
      z3::expr selector = selectorOf(*member);
      selectors.push_back(selector);
      in_range = in_range && arith_.lessEq(arith_.constant(0, kInt64), selector, true) &&
                 arith_.less(selector, arith_.constant(static_cast<int64_t>(group.size()), kInt64),
                             true);
      names += (names.empty() ? "'" : ", '") + member->getNameAsString() + "'";
    }
    value_facts_.push_back(fact(in_range && z3::distinct(selectors),
                                v1::HOST_FACT_KIND_LOOP_BOUND,
                                "loop: only exchanges the values of " + names +
                                    ", so no two of them are equal",
                                *definition.at));
  }
  return selectorOf(var);
}

z3::expr HostValues::exchangedValue(const Definition &definition, const clang::VarDecl &var) {
  z3::expr selector = exchangeSelector(definition, var);
  const std::vector<const clang::VarDecl *> &group = definition.group;
  std::optional<z3::expr> out;
  for (size_t i = group.size(); i-- > 0;) {
    std::optional<z3::expr> entry = valueAt(*group[i], "", *definition.at);
    if (!entry)
      return unknownSymbolOf(var, "", "exchanged in the loop", definition.at);
    out = out ? z3::ite(selector == arith_.constant(static_cast<int64_t>(i), kInt64), *entry,
                        *out)
              : *entry;
  }
  return *out;
}

} // namespace gpurace::analyzer
