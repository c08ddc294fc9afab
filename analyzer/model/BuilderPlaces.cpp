//===- BuilderPlaces.cpp - where lvalues designate --------------------------===//
//
// Places in memory that threads share, and thread-private storage:
// loads, stores and the addresses of both.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// Whether an lvalue names storage of this thread whatever the model knows
// of it: a local variable (not a reference), its fields and the elements
// of its arrays, or a temporary.
bool isThreadPrivate(const clang::Expr *expr) {
  while (true) {
    expr = expr->IgnoreParenCasts();
    if (auto *member = dyn_cast<clang::MemberExpr>(expr)) {
      if (member->isArrow())
        return false;
      expr = member->getBase();
    } else if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
      const clang::Expr *base = subscript->getBase()->IgnoreParenImpCasts();
      if (!base->getType()->isArrayType())
        return false;
      expr = base;
    } else if (auto *element = dyn_cast<clang::ExtVectorElementExpr>(expr)) {
      expr = element->getBase();
    } else if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
      auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
      return var && var->hasLocalStorage() && !var->getType()->isReferenceType();
    } else {
      return isa<clang::MaterializeTemporaryExpr, clang::CompoundLiteralExpr>(expr) ||
             (expr->isPRValue() && expr->getType()->isRecordType());
    }
  }
}

} // namespace

// The element count of an array object indexed in place (`tile[ty][tx]`),
// when it is fixed. A struct's last array field is left out: code that
// allocates past it uses it as a flexible array.
std::optional<uint64_t> Builder::fixedExtent(const clang::Expr &array) const {
  const clang::ConstantArrayType *type = ast_.getAsConstantArrayType(array.getType());
  if (!type || !array.isGLValue() || type->getSize().isZero())
    return std::nullopt;
  if (auto *member = dyn_cast<clang::MemberExpr>(&array)) {
    auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (!field)
      return std::nullopt;
    const clang::FieldDecl *last = nullptr;
    for (const clang::FieldDecl *each : field->getParent()->fields())
      last = each;
    if (field == last)
      return std::nullopt;
  }
  return type->getSize().getZExtValue();
}

Value Builder::load(const clang::Expr *lvalue_expr) {
  // `c ? a[i] : b[j]` reads only the branch taken: each is an access of
  // its own under its condition.
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(lvalue_expr->IgnoreParens()))
    return eitherBranch(*conditional, [this](const clang::Expr *branch) { return load(branch); });
  return loadFrom(place(lvalue_expr), lvalue_expr->getType(), *lvalue_expr);
}

Value Builder::loadFrom(const Place &where, clang::QualType type, const clang::Expr &at) {
  if (where.kind == Place::Kind::Memory) {
    recordAccess(where, &at, v1::ACCESS_KIND_READ,
                 v1::ATOMIC_OP_UNSPECIFIED, v1::MEMORY_SCOPE_UNSPECIFIED);
    bool scalar = shared_scalars_.count(where.object);
    std::optional<Value> loaded = scalar ? broadcastValue(*where.object) : std::nullopt;
    if (!loaded)
      loaded = agreedSharedRead(where, type, at);
    if (!loaded) {
      loaded = freshValue(type, v1::IMPRECISION_KIND_LOADED_VALUE,
                          "value loaded from " + where.object->name, &at, where.object->name);
      if (where.offset && (where.object->kind == MemoryObject::Kind::DeviceGlobal ||
                           where.object->kind == MemoryObject::Kind::PointerParameter))
        sameForEveryThread(*loaded, *where.object, *where.offset);
    }
    return scalar ? ownStoreOr(*where.object, *loaded) : *loaded;
  }
  if (where.kind == Place::Kind::Local)
    return readLocal(where, type, &at);
  return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "value not followed", &at);
}

void Builder::sameForEveryThread(const Value &loaded, const MemoryObject &object,
                                 const z3::expr &offset) {
  bool parameter = object.kind == MemoryObject::Kind::PointerParameter;
  if (loaded.kind == Value::Kind::Bool || (!parameter && !read_only_objects_.count(&object)))
    return;
  // One function per way of reading the bytes: width and signedness.
  auto key = std::make_pair(&object, static_cast<int>(loaded.type.width * 2 +
                                                      (loaded.type.is_signed ? 1 : 0)));
  auto contents = read_only_contents_.find(key);
  if (contents == read_only_contents_.end())
    contents = read_only_contents_
                   .emplace(key, symbols_.freshSharedFunction("contents:" + object.name, 1,
                                                              loaded.type))
                   .first;
  z3::expr same = loaded.expr == contents->second(offset);
  if (parameter)
    model_.parameter_contents.push_back({&object, same});
  else
    model_.thread_facts.push_back(same);
}

z3::expr Builder::sharedInBlock(const std::string &name, IntType type,
                                const std::optional<z3::expr> &offset,
                                const v1::Imprecision &why) {
  z3::expr_vector args(ctx());
  for (int axis = 0; axis < 3; ++axis)
    args.push_back(arith_.convert(symbols_.blockIdx(axis), kUInt32, kInt64));
  args.push_back(state_.block);
  if (offset)
    args.push_back(*offset);
  for (const z3::expr &k : iterations_)
    args.push_back(k);
  z3::func_decl f = symbols_.freshSharedFunction(name, args.size(), type);
  model_.imprecisions[f.name().str()] = why;
  return f(args);
}

std::optional<Value> Builder::agreedSharedRead(const Place &where, clang::QualType type,
                                               const clang::Expr &at) {
  if (!shared_reads_agree_ || where.object->space != v1::MEMORY_SPACE_SHARED ||
      !where.offset || type.isNull() || type->isPointerType() ||
      !z3::eq(where.offset->get_sort(), arith_.sortOf(kInt64)))
    return std::nullopt;
  // One function per read: the same thread's reads at two points may see
  // its own write between them, so only the same read, in the same
  // iterations, by threads of one block, is the same value.
  IntType t = intTypeOf(type);
  v1::Imprecision why;
  why.set_kind(v1::IMPRECISION_KIND_LOADED_VALUE);
  why.set_detail("value loaded from " + where.object->name);
  *why.mutable_location() = locationOf(at);
  why.set_source(where.object->name);
  z3::expr value = sharedInBlock("read:" + where.object->name, t, where.offset, why);
  if (type->isBooleanType())
    return boolValue(arith_.toBool(value));
  return intValue(value, t);
}

Value Builder::assign(const clang::Expr *lhs, const Value &value) {
  return assignTo(place(lhs), lhs, value);
}

Value Builder::valueForUpdate(const Place &where, const clang::Expr *lhs) {
  if (where.kind == Place::Kind::Local)
    return readLocal(where, lhs->getType(), lhs);
  if (where.kind == Place::Kind::Memory)
    return freshValue(lhs->getType(), v1::IMPRECISION_KIND_LOADED_VALUE,
                      "value of " + where.object->name + " before the update", lhs,
                      where.object->name);
  return freshValue(lhs->getType(), v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                    "value before the update", lhs);
}

Value Builder::assignTo(const Place &where, const clang::Expr *lhs,
                        const Value &value) {
  if (where.kind == Place::Kind::Memory) {
    size_t recorded = model_.accesses.size();
    recordAccess(where, lhs, v1::ACCESS_KIND_WRITE, v1::ATOMIC_OP_UNSPECIFIED,
                 v1::MEMORY_SCOPE_UNSPECIFIED);
    // A pointer into a known object is an offset within it, which says
    // nothing of the address on its own; one the model does not resolve
    // (a function pointer from a table) is the address itself.
    if (model_.accesses.size() > recorded &&
        (value.kind != Value::Kind::Pointer || value.object == unknown_))
      model_.accesses.back().stored = value.expr;
    if (shared_scalars_.count(where.object)) {
      scalar_writes_[where.object].push_back(
          {value, state_.pc, state_.block, !iterations_.empty()});
      own_stores_.insert_or_assign(
          where.object, OwnStore{value, state_.pc, iterations_.size(), ordering_points_});
    }
    // An unresolved pointer may hold the address of a local.
    if (where.object == unknown_)
      forgetExposed();
  } else if (where.kind == Place::Kind::Local) {
    writeLocal(where, lhs->getType(), value);
  }
  return value;
}

Place Builder::unresolvedPlace(const clang::Expr &at) {
  Place out;
  out.kind = Place::Kind::Memory;
  out.object = unknownObject();
  out.offset = freshValue(ast_.LongTy, v1::IMPRECISION_KIND_UNRESOLVED_POINTER,
                          "address not followed", &at)
                   .expr;
  return out;
}

Place Builder::placeOf(const Value &pointer) {
  Place out;
  if (pointer.kind != Value::Kind::Pointer) {
    // An integer used as an address (`(int *)addr`): any memory.
    out.kind = Place::Kind::Memory;
    out.object = unknownObject();
    out.offset = asInt(pointer, kInt64);
  } else if (pointer.object) {
    out.kind = Place::Kind::Memory;
    out.object = pointer.object;
    out.offset = pointer.expr;
  } else if (!pointer.local.empty()) {
    out.kind = Place::Kind::Local;
    out.local_key = pointer.local;
    out.offset = pointer.expr;
  }
  return out;
}

// Where an lvalue expression points: memory objects are followed through
// pointers, array indexing and struct fields; so are the storage of local
// variables, their fields and elements, and what references and pointers
// to them designate.
Place Builder::place(const clang::Expr *expr) {
  expr = expr->IgnoreParenNoopCasts(ast_);
  Place out;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl *decl = ref->getDecl();
    if (auto *var = dyn_cast<clang::VarDecl>(decl)) {
      if (var->hasAttr<clang::CUDASharedAttr>()) {
        out.kind = Place::Kind::Memory;
        out.object = objectFor(*var, MemoryObject::Kind::SharedArray,
                               v1::MEMORY_SPACE_SHARED, -1);
        if (var->getType()->isIntegralOrEnumerationType())
          shared_scalars_.insert(out.object);
        out.offset = zero64();
        return out;
      }
      if (var->hasGlobalStorage() && (var->hasAttr<clang::CUDADeviceAttr>() ||
                                      var->hasAttr<clang::CUDAConstantAttr>())) {
        out.kind = Place::Kind::Memory;
        out.object = objectFor(*var, MemoryObject::Kind::DeviceGlobal,
                               var->hasAttr<clang::CUDAConstantAttr>()
                                   ? v1::MEMORY_SPACE_CONSTANT
                                   : v1::MEMORY_SPACE_GLOBAL,
                               -1);
        out.offset = zero64();
        return out;
      }
      if (var->getType()->isReferenceType() || isAtomicRef(var->getType())) {
        // A reference (or a cuda::atomic_ref) designates its referent; one
        // the walk did not bind (its declaration was not executed) may be
        // anything.
        auto it = state_.env.find(localKey(*var));
        if (it != state_.env.end() && it->second.kind == Value::Kind::Pointer)
          return placeOf(it->second);
        return unresolvedPlace(*ref);
      }
    }
    out.kind = Place::Kind::Local;
    out.local_key = localKey(*decl);
    out.offset = zero64();
    return out;
  }
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    const clang::Expr *array = subscript->getBase()->IgnoreParenImpCasts();
    std::optional<uint64_t> extent = fixedExtent(*array);
    Place array_place;
    Value base = extent ? pointerFrom(array_place = place(array), array)
                        : eval(subscript->getBase());
    Value index = eval(subscript->getIdx());
    if (base.kind != Value::Kind::Pointer)
      return unresolvedPlace(*subscript);
    int64_t size = sizeOf(subscript->getType());
    z3::expr i = asInt(index, kInt64);
    base.expr = arith_.add(base.expr, arith_.mul(i, arith_.constant(size, kInt64)));
    Place out = placeOf(base);
    if (extent) {
      z3::expr within = arith_.lessEq(zero64(), i, true) &&
                        arith_.less(i, arith_.constant(static_cast<int64_t>(*extent), kInt64),
                                    true);
      out.in_bounds = array_place.in_bounds ? *array_place.in_bounds && within : within;
    }
    return out;
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() == clang::UO_Deref)
      return placeOf(eval(unary->getSubExpr()));
    if (unary->getOpcode() == clang::UO_Extension)
      return place(unary->getSubExpr());
    // `--left > 0`: in C++ a prefix step designates its operand, stepped.
    if (unary->getOpcode() == clang::UO_PreInc || unary->getOpcode() == clang::UO_PreDec) {
      evalUnary(*unary);
      return place(unary->getSubExpr());
    }
  }
  // `(x = y)` and `(x += y)` designate x, assigned.
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr);
      binary && binary->isAssignmentOp() && !binary->getLHS()->getType()->isRecordType()) {
    evalBinary(*binary);
    return place(binary->getLHS());
  }
  if (auto *member = dyn_cast<clang::MemberExpr>(expr)) {
    auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    Place base = member->isArrow() ? placeOf(eval(member->getBase()))
                                   : place(member->getBase());
    if (base.kind == Place::Kind::Private)
      return base;
    // Bit-fields of locals are not followed (their reads are fresh).
    if (base.kind == Place::Kind::Local && (!field || field->isBitField()))
      return Place{};
    if (!field || field->getParent()->isInvalidDecl())
      return unresolvedPlace(*member);
    const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(field->getParent());
    int64_t bits = static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()));
    base.offset = arith_.add(*base.offset, arith_.constant(bits / 8, kInt64));
    return base;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(expr)) {
    // A struct returned by value is read where the callee left it.
    if (call->getType()->isRecordType() && !call->isGLValue()) {
      std::optional<Place> returned = returnedPlace(*call);
      return returned ? *returned : out;
    }
    Value result = eval(call);
    // A function returning a reference returns its referent's address.
    if (call->getCallReturnType(ast_)->isReferenceType())
      return placeOf(result);
    return out;
  }
  if (auto *conditional = dyn_cast<clang::AbstractConditionalOperator>(expr)) {
    z3::expr condition = asBool(eval(conditional->getCond()));
    z3::expr saved = state_.pc;
    state_.pc = saved && condition;
    Value yes = pointerFrom(place(conditional->getTrueExpr()), conditional->getTrueExpr());
    state_.pc = saved && !condition;
    Value no = pointerFrom(place(conditional->getFalseExpr()), conditional->getFalseExpr());
    state_.pc = saved;
    return placeOf(selectPointer(condition, yes, no));
  }
  if (auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return temporary->getSubExpr()->isGLValue() ? place(temporary->getSubExpr())
                                                : this->temporary(*temporary->getSubExpr());
  if (auto *full = dyn_cast<clang::FullExpr>(expr))
    return place(full->getSubExpr());
  if (auto *arg = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return place(arg->getExpr());
  if (auto *init = dyn_cast<clang::CXXDefaultInitExpr>(expr))
    return place(init->getExpr());
  if (auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(expr))
    return place(bind->getSubExpr());
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->getOpcode() == clang::BO_Comma) {
      eval(binary->getLHS());
      return place(binary->getRHS());
    }
    if (binary->isAssignmentOp()) {
      eval(binary);
      return place(binary->getLHS());
    }
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return place(cast->getSubExpr());
  bool is_private = isThreadPrivate(expr);
  eval(expr);
  return is_private ? out : unresolvedPlace(*expr);
}

Value Builder::pointerFrom(const Place &where, const clang::Expr *at) {
  if (where.kind == Place::Kind::Memory)
    return pointerValue(*where.offset, where.object);
  if (where.kind == Place::Kind::Local) {
    exposed_.insert(where.local_key);
    return pointerValue(*where.offset, nullptr, where.local_key);
  }
  // Thread-private storage the model does not follow: accesses through it
  // cannot race.
  return pointerValue(symbols_.freshLocal("local", kInt64), nullptr);
}

} // namespace gpurace::analyzer::builder
