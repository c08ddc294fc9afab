//===- BuilderExpressions.cpp - values of expressions -----------------------===//
//
// Integer, Bool and pointer values of expressions as Z3 terms.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

// --- values ---------------------------------------------------------------

IntType Builder::intTypeOf(clang::QualType type) const {
  return analyzer::intTypeOf(type, ast_);
}

Value Builder::freshValue(clang::QualType type, v1::ImprecisionKind why,
                          const std::string &detail, const clang::Stmt *at,
                          const std::string &source) {
  IntType t = intTypeOf(type);
  bool pointer = !type.isNull() && type->isPointerType();
  z3::expr symbol = symbols_.freshLocal(pointer ? "ptr" : "v", t);
  v1::Imprecision imprecision;
  // Accesses through a pointer the analysis cannot follow may touch any
  // global memory: they are checked against everything, never dropped.
  imprecision.set_kind(pointer ? v1::IMPRECISION_KIND_UNRESOLVED_POINTER : why);
  imprecision.set_detail(pointer && detail.rfind("value ", 0) == 0
                             ? "pointer " + detail.substr(6)
                             : detail);
  if (at)
    *imprecision.mutable_location() = locationOf(*at);
  imprecision.set_source(source);
  model_.imprecisions[symbol.decl().name().str()] = imprecision;
  if (pointer)
    return pointerValue(symbol, unknownObject());
  if (!type.isNull() && type->isBooleanType())
    return boolValue(arith_.toBool(arith_.convert(symbol, t, t)));
  // An unknown byte or short is still one: a bin from a pixel's channel
  // (`bins[c] = p.x`) stays below 256. Wider types' ranges rarely decide a
  // pair and would weigh on every query.
  if (arith_.mode() == OverflowMode::Math && t.width < 32 && !type.isNull() &&
      type->isIntegerType()) {
    int64_t low = t.is_signed ? -(int64_t{1} << (t.width - 1)) : 0;
    int64_t high = t.is_signed ? (int64_t{1} << (t.width - 1)) - 1 : (int64_t{1} << t.width) - 1;
    model_.thread_facts.push_back(arith_.lessEq(arith_.constant(low, t), symbol, true) &&
                                  arith_.lessEq(symbol, arith_.constant(high, t), true));
  }
  return intValue(symbol, t);
}

z3::expr Builder::asInt(const Value &v, IntType to) const {
  switch (v.kind) {
  case Value::Kind::Bool:
    return arith_.fromBool(v.expr, to);
  case Value::Kind::Pointer:
  case Value::Kind::Int:
    return arith_.convert(v.expr, v.type, to);
  }
  return v.expr;
}

z3::expr Builder::asBool(const Value &v) const {
  if (v.kind == Value::Kind::Bool)
    return v.expr;
  return arith_.toBool(v.expr);
}

std::optional<z3::expr> Builder::isNull(const Value &pointer) const {
  if (pointer.kind != Value::Kind::Pointer)
    return asInt(pointer, kInt64) == zero64();
  if (!pointer.local.empty())
    return ctx().bool_val(false);
  if (!pointer.object)
    return std::nullopt;
  switch (pointer.object->kind) {
  case MemoryObject::Kind::PointerParameter:
    // Pointer arithmetic keeps a pointer into its buffer; on null it is
    // undefined, so `p + i` is null only where p is.
    return ctx().bool_const(pointerNullSymbolName(pointer.object->name).c_str());
  case MemoryObject::Kind::SharedArray:
  case MemoryObject::Kind::DeviceGlobal:
    return ctx().bool_val(false);
  case MemoryObject::Kind::Unknown:
    return std::nullopt;
  }
  return std::nullopt;
}

Value Builder::nullTest(const Value &pointer, bool is_null, const clang::Expr &at) {
  std::optional<z3::expr> null = isNull(pointer);
  if (!null)
    return freshValue(ast_.BoolTy, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "null test of a pointer the model does not resolve", &at);
  return boolValue(is_null ? *null : !*null);
}

Value Builder::asType(const Value &v, clang::QualType type) const {
  if (v.kind == Value::Kind::Pointer || type->isPointerType())
    return v;
  if (type->isBooleanType())
    return v.kind == Value::Kind::Bool ? v : boolValue(asBool(v));
  if (!type->isIntegralOrEnumerationType())
    return v;
  IntType t = intTypeOf(type);
  return intValue(asInt(v, t), t);
}

const MemoryObject *Builder::eitherObject(const Value &yes, const Value &no) {
  // At most this many buffers; beyond, the pointer is unresolved.
  constexpr size_t kMaxMembers = 4;
  std::vector<const MemoryObject *> members;
  for (const Value *side : {&yes, &no}) {
    const MemoryObject *object = side->object;
    if (side->kind != Value::Kind::Pointer || !side->local.empty() || !object ||
        (object->kind == MemoryObject::Kind::Unknown && object->members.empty()))
      return unknownObject();
    if (object->members.empty())
      members.push_back(object);
    else
      members.insert(members.end(), object->members.begin(), object->members.end());
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  if (members.size() > kMaxMembers)
    return unknownObject();
  const MemoryObject *&choice = choices_[members];
  if (!choice) {
    auto object = std::make_unique<MemoryObject>();
    object->kind = MemoryObject::Kind::Unknown;
    object->space = members.front()->space;
    for (const MemoryObject *member : members) {
      object->name += (object->name.empty() ? "" : " or ") + member->name;
      if (member->space != object->space)
        object->space = v1::MEMORY_SPACE_GLOBAL;
    }
    object->members = members;
    choice = object.get();
    model_.objects.push_back(std::move(object));
  }
  return choice;
}

Value Builder::selectPointer(const z3::expr &condition, const Value &yes, const Value &no) {
  // A condition the model decides (`Traits::kHasZ ? row + n : nullptr` in
  // one instantiation) takes its branch.
  z3::expr decided = condition.simplify();
  if (decided.is_true() && yes.kind == Value::Kind::Pointer)
    return yes;
  if (decided.is_false() && no.kind == Value::Kind::Pointer)
    return no;
  Value out = yes.kind == Value::Kind::Pointer ? yes : no;
  if (yes.kind != no.kind || yes.object != no.object || yes.local != no.local) {
    out.object = eitherObject(yes, no);
    out.local.clear();
  }
  out.kind = Value::Kind::Pointer;
  out.type = kInt64;
  out.expr = z3::ite(condition, asInt(yes, kInt64), asInt(no, kInt64));
  return out;
}

Value Builder::selectValue(const z3::expr &condition, const Value &yes, const Value &no,
                           clang::QualType type) {
  if (yes.kind == Value::Kind::Pointer || no.kind == Value::Kind::Pointer)
    return selectPointer(condition, yes, no);
  if (yes.kind == Value::Kind::Bool && no.kind == Value::Kind::Bool)
    return boolValue(z3::ite(condition, yes.expr, no.expr));
  IntType t = intTypeOf(type);
  return intValue(z3::ite(condition, asInt(yes, t), asInt(no, t)), t);
}

int64_t Builder::sizeOf(clang::QualType type) const {
  if (type.isNull() || type->isIncompleteType() || type->isDependentType() ||
      type->isFunctionType() || type->isSizelessType() || type->isReferenceType())
    return 1;
  return std::max<int64_t>(1, ast_.getTypeSizeInChars(type).getQuantity());
}

// A floating-point constant (`0.0f`, `static_cast<float>(0)`) is one
// launch-wide symbol per bit pattern: every thread that stores `0.0f`
// stores the same bytes, and a block-uniform value compared with a
// constant (`if (sum == zero) continue;`) sends the whole block one way.
// Two different constants are not known to differ, nor ordered, as
// floating-point arithmetic is not modelled; each stays an imprecision of
// its own, so a guard that compares against constants scores as before.
// NaN, which equals nothing, is left a fresh value.
std::optional<Value> Builder::floatConstant(const clang::Expr &expr) {
  llvm::APFloat real(0.0);
  if (expr.isValueDependent() || !expr.getType()->isRealFloatingType() ||
      expr.HasSideEffects(ast_) || !expr.EvaluateAsFloat(real, ast_) || real.isNaN())
    return std::nullopt;
  llvm::APInt bits = real.bitcastToAPInt();
  llvm::SmallString<24> hex;
  bits.toStringUnsigned(hex, 16);
  IntType t = intTypeOf(expr.getType());
  z3::expr symbol = symbols_.shared(
      "float:" + std::to_string(bits.getBitWidth()) + ":" + std::string(hex), t);
  v1::Imprecision imprecision;
  imprecision.set_kind(v1::IMPRECISION_KIND_UNMODELED_EXPRESSION);
  imprecision.set_detail("floating-point value");
  *imprecision.mutable_location() = locationOf(expr);
  model_.imprecisions.emplace(symbol.decl().name().str(), imprecision);
  return intValue(symbol, t);
}

Value Builder::eval(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  if (auto coordinate = builtinCoordinate(expr))
    return *coordinate;
  clang::Expr::EvalResult constant;
  if (!expr->isValueDependent() && expr->getType()->isIntegralOrEnumerationType() &&
      !expr->HasSideEffects(ast_) && expr->EvaluateAsInt(constant, ast_) &&
      constant.Val.getInt().getSignificantBits() <= 64) {
    IntType t = intTypeOf(expr->getType());
    return intValue(arith_.constant(constant.Val.getInt().getExtValue(), t), t);
  }
  if (auto *literal = dyn_cast<clang::CXXBoolLiteralExpr>(expr))
    return boolValue(ctx().bool_val(literal->getValue()));
  if (std::optional<Value> constant = floatConstant(*expr))
    return *constant;
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return evalCast(*cast);
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    return evalUnary(*unary);
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    return evalBinary(*binary);
  if (auto *conditional = dyn_cast<clang::AbstractConditionalOperator>(expr))
    return evalConditional(*conditional);
  if (auto *call = dyn_cast<clang::CallExpr>(expr))
    return evalCall(*call);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return evalDeclRef(*ref);
  if (auto *full = dyn_cast<clang::FullExpr>(expr))
    return eval(full->getSubExpr());
  if (auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return eval(temporary->getSubExpr());
  if (auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(expr))
    return eval(bind->getSubExpr());
  if (auto *arg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return eval(arg->getExpr());
  if (auto *init = dyn_cast<clang::CXXDefaultInitExpr>(expr))
    return eval(init->getExpr());
  if (auto *statements = dyn_cast<clang::StmtExpr>(expr))
    return evalStmtExpr(*statements);
  if (isa<clang::CXXThisExpr>(expr))
    return evalThis(*expr);
  if (expr->isGLValue() && (isa<clang::ArraySubscriptExpr, clang::MemberExpr>(expr)))
    return load(expr);
  if (isa<clang::CXXNullPtrLiteralExpr, clang::GNUNullExpr>(expr))
    return intValue(zero64(), kInt64);
  // Anything else: its subexpressions may still access memory.
  for (const clang::Stmt *child : expr->children())
    if (auto *sub = dyn_cast_or_null<clang::Expr>(child))
      eval(sub);
  return freshValue(expr->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "expression not modeled", expr);
}

std::optional<Value> Builder::builtinCoordinate(const clang::Expr *expr) {
  const clang::MSPropertyRefExpr *property = nullptr;
  if (auto *pseudo = dyn_cast<clang::PseudoObjectExpr>(expr))
    property = dyn_cast<clang::MSPropertyRefExpr>(
        pseudo->getSyntacticForm()->IgnoreParens());
  else
    property = dyn_cast<clang::MSPropertyRefExpr>(expr);
  if (!property)
    return std::nullopt;
  const clang::Expr *base_expr = property->getBaseExpr()->IgnoreParenImpCasts();
  if (auto *opaque = dyn_cast<clang::OpaqueValueExpr>(base_expr))
    base_expr = opaque->getSourceExpr()->IgnoreParenImpCasts();
  auto *base = dyn_cast_or_null<clang::DeclRefExpr>(base_expr);
  if (!base)
    return std::nullopt;
  std::string name = base->getDecl()->getName().str();
  std::string field = property->getPropertyDecl()->getName().str();
  int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
  if (axis < 0)
    return std::nullopt;
  if (name == "threadIdx" || name == "blockDim")
    model_.reads_thread_axis[axis] = true;
  if (name == "blockIdx" || name == "gridDim")
    model_.reads_block_axis[axis] = true;
  if (name == "threadIdx")
    return intValue(symbols_.threadIdx(axis), kUInt32);
  if (name == "blockIdx")
    return intValue(symbols_.blockIdx(axis), kUInt32);
  if (name == "blockDim")
    return intValue(symbols_.blockDim(axis), kUInt32);
  if (name == "gridDim")
    return intValue(symbols_.gridDim(axis), kUInt32);
  return std::nullopt;
}

Value Builder::evalCast(const clang::CastExpr &cast) {
  const clang::Expr *sub = cast.getSubExpr();
  clang::QualType to = cast.getType();
  switch (cast.getCastKind()) {
  case clang::CK_LValueToRValue:
    return load(sub);
  case clang::CK_ArrayToPointerDecay:
    return pointerFrom(place(sub), sub);
  case clang::CK_IntegralToPointer: {
    // An address made from an integer: unresolved memory at that value.
    Value v = eval(sub);
    if (v.kind == Value::Kind::Pointer)
      return v;
    return pointerValue(asInt(v, kInt64), unknownObject());
  }
  case clang::CK_IntegralCast: {
    Value v = eval(sub);
    if (v.kind == Value::Kind::Pointer)
      return v;
    IntType t = intTypeOf(to);
    return intValue(arith_.convert(asInt(v, v.type), v.type, t), t);
  }
  case clang::CK_IntegralToBoolean:
    return boolValue(asBool(eval(sub)));
  case clang::CK_PointerToBoolean:
    return nullTest(eval(sub), false, cast);
  case clang::CK_FloatingToIntegral: {
    Value v = eval(sub);
    if (std::optional<Value> truncated = truncatedParameter(v, to))
      return *truncated;
    return freshValue(to, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "floating-point value", &cast);
  }
  case clang::CK_FloatingToBoolean:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingCast:
    eval(sub);
    return freshValue(to, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "floating-point value", &cast);
  case clang::CK_PointerToIntegral: {
    Value v = eval(sub);
    return freshValue(to, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "pointer converted to integer", &cast);
  }
  default: {
    Value v = eval(sub);
    if (v.kind == Value::Kind::Int && to->isIntegralOrEnumerationType() &&
        !to->isBooleanType()) {
      IntType t = intTypeOf(to);
      return intValue(arith_.convert(v.expr, v.type, t), t);
    }
    return v;
  }
  }
}

Value Builder::evalUnary(const clang::UnaryOperator &op) {
  const clang::Expr *sub = op.getSubExpr();
  IntType t = intTypeOf(op.getType());
  switch (op.getOpcode()) {
  case clang::UO_AddrOf:
    return pointerFrom(place(sub), sub);
  case clang::UO_Deref:
    return load(&op);
  case clang::UO_Minus:
    return intValue(arith_.sub(arith_.constant(0, t), asInt(eval(sub), t)), t);
  case clang::UO_Plus:
    return eval(sub);
  case clang::UO_LNot:
    return boolValue(!asBool(eval(sub)));
  case clang::UO_Not: {
    Value v = eval(sub);
    auto one_less = arith_.bitXor(asInt(v, t), arith_.constant(-1, t));
    if (one_less)
      return intValue(*one_less, t);
    // ~x == -x - 1 on two's complement integers.
    return intValue(arith_.sub(arith_.sub(arith_.constant(0, t), asInt(v, t)),
                               arith_.constant(1, t)),
                    t);
  }
  case clang::UO_PreInc:
  case clang::UO_PostInc:
  case clang::UO_PreDec:
  case clang::UO_PostDec: {
    Place where = place(sub);
    Value old = valueForUpdate(where, sub);
    Value one = intValue(arith_.constant(1, t), t);
    Value updated = evalArithmetic(op.isIncrementOp() ? clang::BO_Add : clang::BO_Sub,
                                   old, one, sub->getType(), &op);
    assignTo(where, sub, updated);
    return op.isPrefix() ? updated : old;
  }
  default:
    eval(sub);
    return freshValue(op.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "operator not modeled", &op);
  }
}

Value Builder::evalArithmetic(clang::BinaryOperatorKind op, const Value &a,
                              const Value &b, clang::QualType type,
                              const clang::Expr *at) {
  // Pointer arithmetic: the offset moves by whole elements.
  if (a.kind == Value::Kind::Pointer || b.kind == Value::Kind::Pointer) {
    if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer) {
      return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                        "pointer difference", at);
    }
    const Value &pointer = a.kind == Value::Kind::Pointer ? a : b;
    const Value &index = a.kind == Value::Kind::Pointer ? b : a;
    clang::QualType pointee = type->getPointeeType();
    int64_t size = pointee.isNull() || pointee->isIncompleteType() ||
                           pointee->isVoidType()
                       ? 1
                       : ast_.getTypeSizeInChars(pointee).getQuantity();
    z3::expr delta = arith_.mul(asInt(index, kInt64), arith_.constant(size, kInt64));
    Value out = pointer;
    out.expr = op == clang::BO_Sub ? arith_.sub(pointer.expr, delta)
                                   : arith_.add(pointer.expr, delta);
    return out;
  }
  // Floating-point values are opaque: as integer polynomials, an unrolled
  // `z = z * z + c` grows into a product of degree 2^n that the solver
  // chokes on, and no address is computed in floating point.
  if (type->isFloatingType())
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION, "floating-point value", at);
  bool is_signed = type->isSignedIntegerOrEnumerationType();
  IntType t = intTypeOf(type);
  z3::expr x = asInt(a, t), y = asInt(b, t);
  std::optional<z3::expr> result;
  switch (op) {
  case clang::BO_Add: result = arith_.add(x, y); break;
  case clang::BO_Sub: result = arith_.sub(x, y); break;
  case clang::BO_Mul: result = arith_.mul(x, y); break;
  case clang::BO_Div:
  case clang::BO_Rem:
    // Dividing by zero is undefined: a thread that gets past a division
    // had a nonzero divisor (as it had no overflow in the math model).
    // Without this the quotient of `i / w` is any value where w == 0.
    model_.thread_facts.push_back(!state_.pc || y != arith_.constant(0, t));
    result = op == clang::BO_Div ? arith_.div(x, y, is_signed) : arith_.rem(x, y, is_signed);
    break;
  case clang::BO_Shl: result = arith_.shiftLeft(x, y); break;
  case clang::BO_Shr: result = arith_.shiftRight(x, y, is_signed); break;
  case clang::BO_And: result = arith_.bitAnd(x, y); break;
  case clang::BO_Or: result = arith_.bitOr(x, y); break;
  case clang::BO_Xor: result = arith_.bitXor(x, y); break;
  default: break;
  }
  if (!result) {
    Value out = freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                           "bitwise operation on mathematical integers", at);
    if (out.kind != Value::Kind::Int)
      return out;
    boundBitwise(op, x, y, out.expr);
    std::optional<bool> mask_first =
        op == clang::BO_And ? lowBitsMaskOperand(at) : std::nullopt;
    if (mask_first)
      keepLowBits(*mask_first ? y : x, *mask_first ? x : y, t, out.expr);
    // An operand the same for all threads in the same iterations of the
    // enclosing loops: a stride, a stage, a bitonic network's `tid ^ j`
    // with j halved each step.
    else if (arith_.mode() == OverflowMode::Math && !symbols_.isThreadDependent(y, iterations_))
      keepSingleBit(op, x, y, t, out.expr);
    else if (arith_.mode() == OverflowMode::Math && !symbols_.isThreadDependent(x, iterations_))
      keepSingleBit(op, y, x, t, out.expr);
    return out;
  }
  return intValue(*result, t);
}


Value Builder::evalBinary(const clang::BinaryOperator &op) {
  clang::BinaryOperatorKind kind = op.getOpcode();
  if (kind == clang::BO_Assign)
    return assign(op.getLHS(), eval(op.getRHS()));
  if (op.isCompoundAssignmentOp()) {
    Value rhs = eval(op.getRHS());
    Place where = place(op.getLHS());
    Value old = valueForUpdate(where, op.getLHS());
    auto *compound = dyn_cast<clang::CompoundAssignOperator>(&op);
    clang::QualType computation =
        compound ? compound->getComputationResultType() : op.getType();
    Value updated = evalArithmetic(clang::BinaryOperator::getOpForCompoundAssignment(kind),
                                   old, rhs, computation, &op);
    return assignTo(where, op.getLHS(), updated);
  }
  if (kind == clang::BO_Comma) {
    eval(op.getLHS());
    return eval(op.getRHS());
  }
  if (kind == clang::BO_LAnd || kind == clang::BO_LOr) {
    z3::expr lhs = asBool(eval(op.getLHS()));
    z3::expr saved = state_.pc;
    // The right operand runs only when the left one does not decide.
    state_.pc = saved && (kind == clang::BO_LAnd ? lhs : !lhs);
    z3::expr rhs = asBool(eval(op.getRHS()));
    state_.pc = saved;
    return boolValue(kind == clang::BO_LAnd ? (lhs && rhs) : (lhs || rhs));
  }
  Value a = eval(op.getLHS());
  Value b = eval(op.getRHS());
  if (op.isComparisonOp()) {
    clang::QualType operand = op.getLHS()->getType();
    if (a.kind == Value::Kind::Pointer || b.kind == Value::Kind::Pointer) {
      auto npc = clang::Expr::NPC_ValueDependentIsNotNull;
      bool equality = kind == clang::BO_EQ || kind == clang::BO_NE;
      if (equality && op.getRHS()->isNullPointerConstant(ast_, npc))
        return nullTest(a, kind == clang::BO_EQ, op);
      if (equality && op.getLHS()->isNullPointerConstant(ast_, npc))
        return nullTest(b, kind == clang::BO_EQ, op);
      if (a.object != b.object)
        return freshValue(op.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                          "comparison of pointers", &op);
      operand = ast_.LongTy;
    }
    IntType t = a.kind == Value::Kind::Bool && b.kind == Value::Kind::Bool
                    ? kInt32
                    : intTypeOf(operand->isIntegralOrEnumerationType() ||
                                        operand->isPointerType()
                                    ? operand
                                    : ast_.LongTy);
    bool is_signed = t.is_signed;
    z3::expr x = asInt(a, t), y = asInt(b, t);
    switch (kind) {
    case clang::BO_LT: return boolValue(arith_.less(x, y, is_signed));
    case clang::BO_GT: return boolValue(arith_.less(y, x, is_signed));
    case clang::BO_LE: return boolValue(arith_.lessEq(x, y, is_signed));
    case clang::BO_GE: return boolValue(arith_.lessEq(y, x, is_signed));
    case clang::BO_EQ: return boolValue(x == y);
    case clang::BO_NE: return boolValue(x != y);
    default: break;
    }
  }
  return evalArithmetic(kind, a, b, op.getType(), &op);
}

Value Builder::evalConditional(const clang::AbstractConditionalOperator &op) {
  return eitherBranch(op, [this](const clang::Expr *branch) { return eval(branch); });
}

Value Builder::eitherBranch(const clang::AbstractConditionalOperator &op,
                            llvm::function_ref<Value(const clang::Expr *)> branch) {
  z3::expr condition = asBool(eval(op.getCond()));
  z3::expr saved = state_.pc;
  state_.pc = saved && condition;
  Value yes = branch(op.getTrueExpr());
  state_.pc = saved && !condition;
  Value no = branch(op.getFalseExpr());
  state_.pc = saved;
  return choose(condition, yes, no, op.getType());
}

Value Builder::choose(const z3::expr &condition, const Value &yes, const Value &no,
                      clang::QualType type) {
  if (yes.kind == Value::Kind::Pointer || no.kind == Value::Kind::Pointer)
    return selectPointer(condition, yes, no);
  if (yes.kind == Value::Kind::Bool && no.kind == Value::Kind::Bool)
    return boolValue(z3::ite(condition, yes.expr, no.expr));
  IntType t = intTypeOf(type);
  return intValue(z3::ite(condition, asInt(yes, t), asInt(no, t)), t);
}

// `({ ...; value; })`: the statements, then the last one's value.
Value Builder::evalStmtExpr(const clang::StmtExpr &expr) {
  const clang::CompoundStmt *body = expr.getSubStmt();
  if (!body || body->body_empty())
    return freshValue(expr.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "statement expression", &expr);
  for (const clang::Stmt *stmt : body->body())
    if (stmt != body->body_back())
      walk(stmt);
  if (auto *last = dyn_cast<clang::Expr>(body->body_back()))
    return eval(last);
  walk(body->body_back());
  return freshValue(expr.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "statement expression", &expr);
}

Value Builder::evalThis(const clang::Expr &at) {
  if (!frames_.empty() && frames_.back().this_value)
    return *frames_.back().this_value;
  return freshValue(at.getType(), v1::IMPRECISION_KIND_UNRESOLVED_POINTER,
                    "value of 'this' not followed", &at);
}

Value Builder::evalDeclRef(const clang::DeclRefExpr &ref) {
  const clang::ValueDecl *decl = ref.getDecl();
  if (auto *enumerator = dyn_cast<clang::EnumConstantDecl>(decl);
      enumerator && enumerator->getInitVal().getSignificantBits() <= 64) {
    IntType t = intTypeOf(ref.getType());
    return intValue(arith_.constant(enumerator->getInitVal().getExtValue(), t), t);
  }
  auto it = state_.env.find(localKey(*decl));
  if (it != state_.env.end())
    return it->second;
  if (ref.getType()->isArrayType() || ref.getType()->isFunctionType())
    return pointerFrom(place(&ref), &ref);
  return freshValue(ref.getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "value of '" + decl->getNameAsString() + "' not followed", &ref);
}

} // namespace gpurace::analyzer::builder
