//===- HostFloats.cpp - host floating-point values as integers ------------===//
//
// Host code often computes launch sizes in floating point: a step counter
// `float t` that only ever holds whole numbers, `ceil(n / 256.0)` blocks,
// a size scaled by a factor read from the device (`n = (int)((float)n /
// scale)` with `scale = max(..., 1.0f)`). Host values are integer terms,
// so a float is read two ways at once:
//  - its exact value, where it holds a whole number: integers converted to
//    float, whole literals, sums, differences and products of whole
//    values, `ceil`/`floor` of a quotient of whole values (exact ceiling
//    and floor division), and variables every write of which stores one;
//    such a value is taken as exact below 2^24 (float) or 2^53 (double),
//    the largest magnitudes the type holds without rounding, and that is
//    stated as a fact of the launch;
//  - bounds that hold of it either way, by interval arithmetic rounded
//    outwards, so that converting a non-whole value back to an integer
//    gives a symbol known to lie between the truncated bounds.
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpurace::analyzer {

using clang::dyn_cast;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Relative widening of every rounded interval operation: more than the
// rounding of float (2^-24 of a value) and of the double arithmetic computing it.
constexpr double kRoundingSlack = 0x1p-22;

// Mantissa bits of a floating type: the magnitude below which it holds
// every integer exactly.
int exactBits(clang::QualType type, clang::ASTContext &ast) {
  return type->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                 ast.getTypeSize(type) <= 32
             ? 24
             : 53;
}

bool isWholeLiteral(double value) {
  return std::isfinite(value) && value == std::trunc(value) && std::fabs(value) <= 0x1p53;
}

std::string calleeName(const clang::CallExpr &call) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  return callee ? callee->getNameAsString() : "";
}

bool isOneOf(const std::string &name, std::initializer_list<const char *> names) {
  return std::any_of(names.begin(), names.end(), [&](const char *n) { return name == n; });
}

bool roundsUp(const std::string &name) { return isOneOf(name, {"ceil", "ceilf", "ceill"}); }
bool roundsDown(const std::string &name) { return isOneOf(name, {"floor", "floorf", "floorl"}); }
bool roundsToWhole(const std::string &name) {
  return roundsUp(name) || roundsDown(name) ||
         isOneOf(name, {"trunc", "truncf", "round", "roundf", "rint", "rintf", "nearbyint"});
}
bool isMaximum(const std::string &name) { return isOneOf(name, {"max", "fmax", "fmaxf"}); }
bool isMinimum(const std::string &name) { return isOneOf(name, {"min", "fmin", "fminf"}); }

} // namespace

bool HostValues::holdsWholeNumbers(const clang::VarDecl &var) {
  if (!var.getType()->isRealFloatingType() || !var.isLocalVarDecl() || var.isStaticLocal() ||
      var.getType().isVolatileQualified())
    return false;
  auto known = whole_floats_.find(&var);
  if (known != whole_floats_.end())
    return known->second.value_or(false); // false while being decided: a cycle
  whole_floats_[&var] = std::nullopt;
  bool whole = !var.getInit() || storesWholeNumber(*var.getInit());
  for (const clang::Stmt *write : environment_.writesOf(var)) {
    if (!whole)
      break;
    if (auto *unary = dyn_cast<clang::UnaryOperator>(write))
      whole = unary->isIncrementDecrementOp();
    else if (auto *update = dyn_cast<clang::CompoundAssignOperator>(write))
      whole = (update->getOpcode() == clang::BO_AddAssign ||
               update->getOpcode() == clang::BO_SubAssign ||
               update->getOpcode() == clang::BO_MulAssign) &&
              storesWholeNumber(*update->getRHS());
    else if (auto *assign = dyn_cast<clang::BinaryOperator>(write))
      whole = assign->getOpcode() == clang::BO_Assign && storesWholeNumber(*assign->getRHS());
    else
      whole = false; // its address taken, passed by reference
  }
  whole_floats_[&var] = whole;
  return whole;
}

bool HostValues::storesWholeNumber(const clang::Expr &stored) {
  const clang::Expr *e = stored.IgnoreParens();
  if (e->getType()->isIntegralOrEnumerationType())
    return true;
  if (auto *literal = dyn_cast<clang::FloatingLiteral>(e))
    return isWholeLiteral(literal->getValueAsApproximateDouble());
  if (auto *cast = dyn_cast<clang::CastExpr>(e))
    return storesWholeNumber(*cast->getSubExpr());
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    return var && holdsWholeNumbers(*var);
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    return (unary->getOpcode() == clang::UO_Minus || unary->getOpcode() == clang::UO_Plus) &&
           storesWholeNumber(*unary->getSubExpr());
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e))
    return (binary->getOpcode() == clang::BO_Add || binary->getOpcode() == clang::BO_Sub ||
            binary->getOpcode() == clang::BO_Mul) &&
           storesWholeNumber(*binary->getLHS()) && storesWholeNumber(*binary->getRHS());
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(e))
    return storesWholeNumber(*conditional->getTrueExpr()) &&
           storesWholeNumber(*conditional->getFalseExpr());
  if (auto *call = dyn_cast<clang::CallExpr>(e)) {
    std::string name = calleeName(*call);
    if (roundsToWhole(name))
      return true;
    if ((isMaximum(name) || isMinimum(name)) && call->getNumArgs() == 2)
      return storesWholeNumber(*call->getArg(0)) && storesWholeNumber(*call->getArg(1));
  }
  return false;
}

HostValues::FloatValue HostValues::floatValue(const clang::Expr &expr) {
  const clang::Expr *e = expr.IgnoreParens();
  FloatValue out;
  // `std::max(a / b, 1.0f)` binds its arguments to references.
  if (auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return floatValue(*temporary->getSubExpr());
  if (auto *cleanups = dyn_cast<clang::ExprWithCleanups>(e))
    return floatValue(*cleanups->getSubExpr());
  if (e->getType()->isIntegralOrEnumerationType()) {
    out.whole = value(e);
    integerBounds(*e, out);
    return out;
  }
  if (auto *literal = dyn_cast<clang::FloatingLiteral>(e)) {
    double v = literal->getValueAsApproximateDouble();
    out.low = out.high = v;
    if (isWholeLiteral(v))
      out.whole = arith_.constant(static_cast<int64_t>(v), kInt64);
    return out;
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(e)) {
    out = floatValue(*cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_IntegralToFloating && out.whole)
      statedExact(*out.whole, *e, exactBits(e->getType(), ast_));
    return out;
  }
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl())) {
      if (const clang::Expr *passed = argumentFor(*var))
        return caller_->floatValue(*passed);
      return variableFloat(*var, *ref);
    }
  if (auto *member = dyn_cast<clang::MemberExpr>(e))
    if (auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
        field && !member->isArrow())
      return fieldFloat(*member->getBase(), field->getNameAsString());
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
    return floatTableElement(*subscript);
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e)) {
    FloatValue sub = floatValue(*unary->getSubExpr());
    if (unary->getOpcode() == clang::UO_Plus)
      return sub;
    if (unary->getOpcode() == clang::UO_Minus) {
      out.low = -sub.high;
      out.high = -sub.low;
      if (sub.whole)
        out.whole = arith_.sub(arith_.constant(0, kInt64), *sub.whole);
    }
    return out;
  }
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e))
    return arithmeticFloat(*binary);
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(e)) {
    FloatValue a = floatValue(*conditional->getTrueExpr());
    FloatValue b = floatValue(*conditional->getFalseExpr());
    out.low = std::min(a.low, b.low);
    out.high = std::max(a.high, b.high);
    if (a.whole && b.whole)
      if (std::optional<z3::expr> c = value(conditional->getCond()))
        out.whole = z3::ite(arith_.toBool(*c), *a.whole, *b.whole);
    return out;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(e))
    return calledFloat(*call);
  return out;
}

HostValues::FloatValue HostValues::variableFloat(const clang::VarDecl &var,
                                                 const clang::DeclRefExpr &ref) {
  FloatValue out;
  if (holdsWholeNumbers(var)) {
    out.whole = valueAt(var, "", ref);
    if (out.whole)
      statedExact(symbolFor(var), ref, exactBits(var.getType(), ast_));
    return out;
  }
  // Bounds: those of every definition that reaches the reading.
  auto key = std::make_tuple(&var, std::string(), static_cast<const clang::Stmt *>(&ref));
  if (!var.isLocalVarDecl() || var.isStaticLocal() || following_.count(key))
    return out;
  std::vector<Definition> definitions = environment_.reaching(var, "", ref);
  if (definitions.empty())
    return out;
  following_.insert(key);
  out.low = kInfinity;
  out.high = -kInfinity;
  for (const Definition &definition : definitions) {
    FloatValue one;
    if (definition.kind == Definition::Kind::Assigned && definition.value)
      one = floatValue(*definition.value);
    out.low = std::min(out.low, one.low);
    out.high = std::max(out.high, one.high);
  }
  following_.erase(key);
  return out;
}

HostValues::FloatValue HostValues::fieldFloat(const clang::Expr &object,
                                              const std::string &field) {
  const clang::DeclRefExpr *ref = structVariable(object);
  if (!ref || field.empty())
    return {};
  auto *var = clang::cast<clang::VarDecl>(ref->getDecl());
  if (const clang::Expr *passed = argumentFor(*var))
    return caller_->fieldFloat(*passed, field);
  auto key = std::make_tuple(var, field, static_cast<const clang::Stmt *>(ref));
  if (!var->isLocalVarDecl() || var->isStaticLocal() || following_.count(key))
    return {};
  // One assignment of the field reaches the read; two would need the
  // branch that chose each, which a whole number across them rarely has.
  std::vector<Definition> definitions = environment_.reaching(*var, field, *ref);
  if (definitions.size() != 1 || definitions.front().kind != Definition::Kind::Assigned ||
      definitions.front().whole || !definitions.front().value)
    return {};
  following_.insert(key);
  FloatValue out = floatValue(*definitions.front().value);
  following_.erase(key);
  return out;
}

std::optional<z3::expr> HostValues::truncatedArgument(const clang::Expr &arg,
                                                      const std::string &field) {
  FloatValue f = field.empty() ? floatValue(arg) : fieldFloat(arg, field);
  return f.whole;
}

HostValues::FloatValue HostValues::arithmeticFloat(const clang::BinaryOperator &binary) {
  FloatValue out;
  FloatValue a = floatValue(*binary.getLHS()), b = floatValue(*binary.getRHS());
  std::array<double, 4> corners{};
  switch (binary.getOpcode()) {
  case clang::BO_Add:
    out.low = a.low + b.low;
    out.high = a.high + b.high;
    if (a.whole && b.whole)
      out.whole = arith_.add(*a.whole, *b.whole);
    break;
  case clang::BO_Sub:
    out.low = a.low - b.high;
    out.high = a.high - b.low;
    if (a.whole && b.whole)
      out.whole = arith_.sub(*a.whole, *b.whole);
    break;
  case clang::BO_Mul:
    if (a.whole && b.whole)
      out.whole = arith_.mul(*a.whole, *b.whole);
    if (std::isinf(a.low) || std::isinf(a.high) || std::isinf(b.low) || std::isinf(b.high))
      break; // 0 * inf has no bound
    corners = {a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high};
    out.low = *std::min_element(corners.begin(), corners.end());
    out.high = *std::max_element(corners.begin(), corners.end());
    break;
  case clang::BO_Div:
    // Only a divisor of one sign, away from zero, bounds a quotient.
    if (!(b.low > 0 || b.high < 0) || std::isinf(a.low) || std::isinf(a.high))
      break;
    corners = {a.low / b.low, a.low / b.high, a.high / b.low, a.high / b.high};
    out.low = *std::min_element(corners.begin(), corners.end());
    out.high = *std::max_element(corners.begin(), corners.end());
    break;
  default:
    break;
  }
  if (!out.whole)
    widen(out);
  return out;
}

HostValues::FloatValue HostValues::calledFloat(const clang::CallExpr &call) {
  FloatValue out;
  std::string name = calleeName(call);
  if (call.getNumArgs() == 2 && (isMaximum(name) || isMinimum(name))) {
    FloatValue a = floatValue(*call.getArg(0)), b = floatValue(*call.getArg(1));
    bool maximum = isMaximum(name);
    out.low = maximum ? std::max(a.low, b.low) : std::min(a.low, b.low);
    out.high = maximum ? std::max(a.high, b.high) : std::min(a.high, b.high);
    if (a.whole && b.whole) {
      z3::expr less = arith_.less(*a.whole, *b.whole, true);
      out.whole = maximum ? z3::ite(less, *b.whole, *a.whole) : z3::ite(less, *a.whole, *b.whole);
    }
    return out;
  }
  if (call.getNumArgs() != 1 || !roundsToWhole(name))
    return out;
  const clang::Expr *arg = call.getArg(0)->IgnoreParenImpCasts();
  FloatValue of = floatValue(*arg);
  out.low = std::floor(of.low);
  out.high = std::ceil(of.high);
  if (of.whole) {
    out.whole = of.whole;
    return out;
  }
  // `ceil(n / 256.0)`: the exact ceiling (floor) of a quotient of whole
  // values, which the correctly rounded division keeps below 2^24 (2^53).
  auto *quotient = dyn_cast<clang::BinaryOperator>(arg);
  if (quotient && quotient->getOpcode() == clang::BO_Div && (roundsUp(name) || roundsDown(name))) {
    FloatValue a = floatValue(*quotient->getLHS()), b = floatValue(*quotient->getRHS());
    if (a.whole && b.whole)
      out.whole = roundedQuotient(*a.whole, *b.whole, roundsUp(name));
  }
  return out;
}

z3::expr HostValues::roundedQuotient(const z3::expr &a, const z3::expr &b, bool up) {
  // With the divisor made positive, C's truncating division rounds a
  // non-negative quotient down and a negative one up; the other direction
  // is a shift of the dividend by b - 1.
  z3::expr zero = arith_.constant(0, kInt64);
  z3::expr negative = arith_.less(b, zero, true);
  z3::expr divisor = z3::ite(negative, arith_.sub(zero, b), b);
  z3::expr dividend = z3::ite(negative, arith_.sub(zero, a), a);
  z3::expr shift = arith_.sub(divisor, arith_.constant(1, kInt64));
  z3::expr non_negative = arith_.lessEq(zero, dividend, true);
  z3::expr shifted = up ? z3::ite(non_negative, arith_.add(dividend, shift), dividend)
                        : z3::ite(non_negative, dividend, arith_.sub(dividend, shift));
  return arith_.div(shifted, divisor, true);
}

void HostValues::integerBounds(const clang::Expr &integer, FloatValue &value) {
  if (!value.whole)
    return;
  z3::expr ground = *value.whole;
  // A stated symbol may stand for a value made of other stated symbols.
  for (int round = 0; round < 4 && !ground.is_numeral(); ++round) {
    z3::expr_vector from(arith_.context()), to(arith_.context());
    for (const auto &[symbol, stands_for] : stated_values_) {
      from.push_back(symbol);
      to.push_back(stands_for);
    }
    for (HostValues *frame = caller_; frame; frame = frame->caller_)
      for (const auto &[symbol, stands_for] : frame->stated_values_) {
        from.push_back(symbol);
        to.push_back(stands_for);
      }
    ground = ground.substitute(from, to).simplify();
  }
  int64_t constant = 0;
  if (ground.is_numeral_i64(constant)) {
    value.low = value.high = static_cast<double>(constant);
    return;
  }
  clang::QualType type = integer.getType();
  if (type->isBooleanType()) {
    value.low = 0;
    value.high = 1;
    return;
  }
  uint64_t width = ast_.getTypeSize(type);
  if (width >= 64)
    return;
  bool is_signed = type->isSignedIntegerOrEnumerationType();
  value.low = is_signed ? -std::ldexp(1.0, static_cast<int>(width) - 1) : 0.0;
  value.high = std::ldexp(1.0, static_cast<int>(width) - (is_signed ? 1 : 0)) - 1;
}

void HostValues::widen(FloatValue &value) const {
  value.low -= std::fabs(value.low) * kRoundingSlack;
  value.high += std::fabs(value.high) * kRoundingSlack;
}

void HostValues::statedExact(const z3::expr &whole, const clang::Expr &at, int bits) {
  if (whole.is_numeral() ||
      !stated_.insert("exact@" + placeKey(at.getBeginLoc()) +
                      callChainSuffix())
           .second)
    return;
  z3::expr limit = arith_.constant(int64_t{1} << bits, kInt64);
  z3::expr bounded = arith_.lessEq(arith_.sub(arith_.constant(0, kInt64), limit), whole, true) &&
                     arith_.lessEq(whole, limit, true);
  std::string shown = shortSourceText(at, ast_.getSourceManager());
  value_facts_.push_back(fact(bounded, v1::HOST_FACT_KIND_ANALYSIS,
                              "host '" + shown + "' holds a whole number, exact while |" + shown +
                                  "| <= 2^" + std::to_string(bits),
                              at));
}

std::optional<z3::expr> HostValues::truncatedFloat(const clang::Expr &conversion,
                                                   const clang::Expr &operand) {
  FloatValue f = floatValue(operand);
  if (f.whole)
    return f.whole;
  if (std::isinf(f.low) && std::isinf(f.high))
    return std::nullopt;
  constexpr double kLimit = 0x1p62;
  double low = std::isinf(f.low) ? -kLimit : std::max(-kLimit, std::trunc(f.low));
  double high = std::isinf(f.high) ? kLimit : std::min(kLimit, std::trunc(f.high));
  std::string name = unknownName(conversion);
  z3::expr symbol = symbols_.shared(name, kInt64);
  if (!stated_.insert(name).second)
    return symbol;
  std::string shown = shortSourceText(conversion, ast_.getSourceManager());
  auto bound = [](double v) { return std::to_string(static_cast<int64_t>(v)); };
  std::string range = (std::isinf(f.low) ? std::string() : bound(low) + " <= ") + shown +
                      (std::isinf(f.high) ? std::string() : " <= " + bound(high));
  noteUnknown(symbol, "'" + shown + "' converts a floating-point value, known only as " + range,
              shown, &conversion);
  value_facts_.push_back(fact(arith_.lessEq(arith_.constant(static_cast<int64_t>(low), kInt64),
                                            symbol, true) &&
                                  arith_.lessEq(symbol, arith_.constant(static_cast<int64_t>(high),
                                                                        kInt64),
                                                true),
                              v1::HOST_FACT_KIND_ANALYSIS,
                              "host '" + shown + "': " + range + " (interval arithmetic)",
                              conversion));
  return symbol;
}

} // namespace gpurace::analyzer
