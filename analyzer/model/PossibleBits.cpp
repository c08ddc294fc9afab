#include "analyzer/model/PossibleBits.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <optional>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;

constexpr uint64_t kAnyBits = ~uint64_t{0};
// Bounded so that a chain of constants cannot recurse without end.
constexpr int kMaxDepth = 16;

std::optional<int64_t> constantOf(const clang::Expr &e, clang::ASTContext &ast) {
  clang::Expr::EvalResult result;
  if (e.isValueDependent() || !e.EvaluateAsInt(result, ast))
    return std::nullopt;
  return result.Val.getInt().getExtValue();
}

// `mask` as the value of an integer of `type` holds it: an unsigned type
// keeps only its width; a signed type whose sign bit may be set may be
// negative, which sets every bit above it.
uint64_t asValueOf(uint64_t mask, clang::QualType type, clang::ASTContext &ast) {
  if (!type->isIntegerType())
    return kAnyBits;
  uint64_t width = ast.getTypeSize(type);
  if (width >= 64)
    return mask;
  uint64_t low = (uint64_t{1} << width) - 1;
  if (type->isSignedIntegerType() && (mask >> (width - 1)) & 1)
    return mask | ~low;
  return mask & low;
}

uint64_t bitsOf(const clang::Expr &expr, clang::ASTContext &ast, int depth);

uint64_t operatorBits(const clang::BinaryOperator &op, clang::ASTContext &ast, int depth) {
  uint64_t lhs = bitsOf(*op.getLHS(), ast, depth + 1);
  switch (op.getOpcode()) {
  case clang::BO_And:
    return lhs & bitsOf(*op.getRHS(), ast, depth + 1);
  case clang::BO_Or:
  case clang::BO_Xor:
    return lhs | bitsOf(*op.getRHS(), ast, depth + 1);
  case clang::BO_Shl:
  case clang::BO_Shr: {
    std::optional<int64_t> amount = constantOf(*op.getRHS(), ast);
    if (!amount || *amount < 0 || *amount > 63)
      return kAnyBits;
    if (op.getOpcode() == clang::BO_Shl)
      return lhs << *amount;
    // A negative value shifts ones in from the top.
    return lhs >> 63 ? kAnyBits : lhs >> *amount;
  }
  default:
    return kAnyBits;
  }
}

uint64_t bitsOf(const clang::Expr &expr, clang::ASTContext &ast, int depth) {
  if (depth > kMaxDepth)
    return kAnyBits;
  const clang::Expr *e = expr.IgnoreParens();
  if (std::optional<int64_t> value = constantOf(*e, ast))
    return static_cast<uint64_t>(*value);
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    if (!cast->getSubExpr()->getType()->isIntegerType())
      return kAnyBits;
    return asValueOf(bitsOf(*cast->getSubExpr(), ast, depth + 1), cast->getType(), ast);
  }
  uint64_t mask = kAnyBits;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->getType().isConstQualified() && var->hasLocalStorage() && var->getInit())
      mask = bitsOf(*var->getInit(), ast, depth + 1);
  } else if (auto *op = dyn_cast<clang::BinaryOperator>(e)) {
    mask = operatorBits(*op, ast, depth);
  }
  return asValueOf(mask, e->getType(), ast);
}

} // namespace

uint64_t possibleBits(const clang::Expr &e, clang::ASTContext &ast) {
  return bitsOf(e, ast, 0);
}

bool shareNoBits(const clang::Expr &a, const clang::Expr &b, clang::ASTContext &ast) {
  return (possibleBits(a, ast) & possibleBits(b, ast)) == 0;
}

} // namespace gpurace::analyzer
