// Where the pointer arguments of a launch point: the host variable or
// struct field whose buffer each is in, and where a pointer is set on
// several paths or exchanged by a loop, each buffer it may be in with the
// condition that selects it. Which arguments may alias follows from them.
#include "analyzer/host/HostValues.h"

#include "analyzer/host/GlobalWriters.h"

#include "analyzer/host/HostExpressions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// The device pointer that `thrust::raw_pointer_cast(p)` (or
// `thrust::device_pointer_cast`) converts: the same address.
const clang::Expr *rawPointerOf(const clang::Expr &e) {
  auto *call = dyn_cast<clang::CallExpr>(&e);
  auto *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || call->getNumArgs() != 1)
    return nullptr;
  std::string name = callee->getQualifiedNameAsString();
  if (name != "thrust::raw_pointer_cast" && name != "thrust::device_pointer_cast")
    return nullptr;
  return call->getArg(0)->IgnoreImplicit();
}

// Beyond this many buffers a pointer may be in, it may be in any.
constexpr size_t kMaxPointerChoices = 16;

// `std::vector<T *>`.
bool isVectorOfPointers(clang::QualType type) {
  auto *record = dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      type.getNonReferenceType()->getAsCXXRecordDecl());
  if (!record || record->getName() != "vector" || !record->isInStdNamespace())
    return false;
  const clang::TemplateArgumentList &args = record->getTemplateArgs();
  return args.size() > 0 && args[0].getKind() == clang::TemplateArgument::Type &&
         args[0].getAsType()->isPointerType();
}

// `v[i]` of a std::vector of pointers: the vector and the index.
const clang::CXXOperatorCallExpr *vectorElement(const clang::Expr &e) {
  auto *call = dyn_cast<clang::CXXOperatorCallExpr>(&e);
  if (!call || call->getOperator() != clang::OO_Subscript || call->getNumArgs() != 2 ||
      !isVectorOfPointers(call->getArg(0)->getType()))
    return nullptr;
  return call;
}

// Whether a vector of pointers holds only what the host stores in its
// elements in place (`cudaMalloc(&v[i], bytes)` into `std::vector<float *>
// v(n)`): constructed empty or sized, never grown, copied or swapped.
bool onlyFilledInPlace(const clang::VarDecl &var, const clang::FunctionDecl &function) {
  const clang::Expr *initializer = var.getInit() ? var.getInit()->IgnoreImplicit() : nullptr;
  auto *init = dyn_cast_or_null<clang::CXXConstructExpr>(initializer);
  if (initializer && !init)
    return false;
  for (unsigned i = 0; init && i < init->getNumArgs(); ++i)
    if (!init->getArg(i)->getType()->isIntegerType() &&
        !isa<clang::CXXDefaultArgExpr>(init->getArg(i)))
      return false; // copied, or listed from other pointers
  struct Finder : clang::DynamicRecursiveASTVisitor {
    const clang::VarDecl *var;
    bool changed = false;
    bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *call) override {
      const clang::CXXMethodDecl *method = call->getMethodDecl();
      std::string name = method ? method->getNameAsString() : "";
      if (referencedVar(call->getImplicitObjectArgument()) == var &&
          (name == "push_back" || name == "emplace_back" || name == "insert" ||
           name == "emplace" || name == "assign" || name == "swap" || name == "resize"))
        changed = true;
      return !changed;
    }
    bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *call) override {
      if (call->isAssignmentOp() && referencedVar(call->getArg(0)) == var)
        changed = true;
      return !changed;
    }
  } finder;
  finder.var = &var;
  if (function.hasBody())
    finder.TraverseStmt(function.getBody());
  return !finder.changed;
}

// `bufs[i] = p;` where `p` is declared in the assignment's own block, set
// by an allocation call between its declaration and the assignment, and
// read nowhere else: each time the block runs, the element takes over a
// new buffer that nothing else points to (`float *p; cudaMalloc(&p, n);
// bufs[i] = p;`), as `cudaMalloc(&bufs[i], n)` would.
bool movesFreshAllocation(const clang::BinaryOperator &assignment, clang::ASTContext &ast) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(assignment.getRHS()->IgnoreParenCasts());
  auto *pointer = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  auto *block = dyn_cast_or_null<clang::CompoundStmt>(parentStatement(ast, assignment));
  if (!pointer || !block || !pointer->getType()->isPointerType() ||
      !pointer->isLocalVarDecl() || pointer->isStaticLocal() || pointer->hasInit())
    return false;
  struct Uses : clang::DynamicRecursiveASTVisitor {
    const clang::VarDecl *pointer;
    int reads = 0, allocations = 0;
    bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *) override {
      return true; // sizeof(*p) reads nothing
    }
    bool VisitCallExpr(clang::CallExpr *call) override {
      allocations += allocatesInto(*call, *pointer);
      return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
      reads += ref->getDecl() == pointer;
      return true;
    }
  } before, after;
  before.pointer = after.pointer = pointer;
  bool declared = false, assigned = false;
  for (const clang::Stmt *statement : block->body()) {
    if (auto *decl = dyn_cast<clang::DeclStmt>(statement))
      for (const clang::Decl *d : decl->decls())
        declared = declared || d == pointer;
    if (statement == &assignment)
      assigned = true;
    else if (declared)
      (assigned ? after : before).TraverseStmt(const_cast<clang::Stmt *>(statement));
  }
  // The only reads: the allocation's `&p` before, the assignment itself.
  return declared && assigned && before.allocations == 1 && before.reads == 1 &&
         after.reads == 0;
}

} // namespace

const clang::Expr *HostValues::viewInitializer(const clang::VarDecl &var) const {
  const clang::Expr *init = var.getInit();
  if (!var.isLocalVarDecl() || !var.getType()->isPointerType() || !init ||
      assignedOutsideInit(var))
    return nullptr;
  init = init->IgnoreParenCasts();
  bool allocates = isa<clang::CXXNewExpr>(init) ||
                   (isa<clang::CallExpr>(init) && !isa<clang::CXXMemberCallExpr>(init));
  bool null = init->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull);
  return allocates || null ? nullptr : init;
}

bool HostValues::reassignedPointer(const clang::VarDecl &var) const {
  for (const clang::Stmt *write : environment_.writesOf(var)) {
    if (auto *call = dyn_cast<clang::CallExpr>(write); call && isStdSwap(*call))
      return true; // `std::swap(p, q)`: p takes q's buffer
    auto *assign = dyn_cast<clang::BinaryOperator>(write);
    if (!assign || !referencedVar(assign->getLHS()) ||
        referencedVar(assign->getLHS()) != &var)
      continue;
    if (copiesPointer(assign->getRHS(), ast_))
      return true; // `p = q`: p may point into q's buffer
  }
  return false;
}

bool HostValues::setFromPointer(llvm::function_ref<bool(const clang::Expr &)> target) const {
  struct Finder : clang::DynamicRecursiveASTVisitor {
    llvm::function_ref<bool(const clang::Expr &)> target;
    clang::ASTContext *ast;
    bool found = false;
    bool VisitBinaryOperator(clang::BinaryOperator *op) override {
      if (op->isAssignmentOp() && target(*op->getLHS()->IgnoreParenCasts()) &&
          (op->getOpcode() != clang::BO_Assign ||
           (copiesPointer(op->getRHS(), *ast) && !movesFreshAllocation(*op, *ast))))
        found = true;
      return !found;
    }
  } finder;
  finder.target = target;
  finder.ast = &ast_;
  if (!host_ || !host_->hasBody())
    return true;
  finder.TraverseStmt(host_->getBody());
  return finder.found;
}

bool HostValues::reassignedField(const clang::FieldDecl &field) const {
  return setFromPointer([&](const clang::Expr &lhs) {
    auto *member = dyn_cast<clang::MemberExpr>(&lhs);
    return member && member->getMemberDecl() == &field;
  });
}

bool HostValues::reassignedElement(const clang::VarDecl &var) const {
  return setFromPointer([&](const clang::Expr &lhs) {
    if (const clang::CXXOperatorCallExpr *element = vectorElement(lhs))
      return referencedVar(element->getArg(0)) == &var;
    // `v.back() = p`, `v.at(i) = p`, `v.data()[i] = p`.
    const clang::Expr *place = &lhs;
    if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(place)) {
      if (referencedVar(subscript->getBase()) == &var)
        return true;
      place = subscript->getBase()->IgnoreParenCasts();
    }
    auto *method = dyn_cast<clang::CXXMemberCallExpr>(place);
    return method && referencedVar(method->getImplicitObjectArgument()) == &var;
  });
}

HostValues::PointerOrigin HostValues::fieldOrigin(const clang::MemberExpr &member) {
  auto *field = dyn_cast<clang::FieldDecl>(member.getMemberDecl());
  const clang::Expr *base = member.getBase()->IgnoreParenImpCasts();
  std::optional<z3::expr> element = arith_.constant(0, kInt64);
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(base)) {
    // `a[i]->field`: elements may point to one struct.
    if (member.isArrow())
      return {};
    element = value(subscript->getIdx());
    base = subscript->getBase()->IgnoreParenImpCasts();
  }
  if (!field)
    return {};
  return objectFieldOrigin(*base, member.isArrow(), *field, element);
}

HostValues::PointerOrigin HostValues::objectFieldOrigin(const clang::Expr &object, bool arrow,
                                                        const clang::FieldDecl &field,
                                                        const std::optional<z3::expr> &element) {
  const clang::Expr *e = object.IgnoreParenImpCasts();
  if (auto *address = dyn_cast<clang::UnaryOperator>(e);
      arrow && address && address->getOpcode() == clang::UO_AddrOf) {
    e = address->getSubExpr()->IgnoreParenImpCasts(); // `(&s)->field` is `s.field`
    arrow = false;
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || reassignedField(field))
    return {};
  if (lambdaCall(*var)) // a struct the lambda captures: the caller's
    return caller_->objectFieldOrigin(object, arrow, field, element);
  if (var->isLocalVarDecl() && !arrow)
    return {var, arith_.constant(0, kInt64), &field, element};
  // A global struct whose fields only allocations set (`cudaMalloc(&g.x,
  // n)`, wherever the program does it): each field its own buffer.
  if (!arrow && ownGlobalStruct(*e) && globalWriters().copiesInto(*var, field).empty())
    return {var, arith_.constant(0, kInt64), &field, element};
  // A struct parameter (by value, by reference, or by pointer): the
  // caller's struct at the call, or, with no visible caller, the
  // parameter's own fields, each taken as a buffer of its own as pointer
  // parameters of such a wrapper are.
  auto *param = dyn_cast<clang::ParmVarDecl>(var);
  if (!param || param->getDeclContext() != host_ || environment_.written(*var))
    return {};
  if (const clang::Expr *arg = callArgument(*var))
    return caller_->objectFieldOrigin(*arg, arrow, field, element);
  if (caller_ || entry_param_)
    return {};
  return {var, arith_.constant(0, kInt64), &field, element};
}

std::vector<HostValues::PointerChoice> HostValues::fieldChoices(const clang::Expr &object,
                                                                const clang::FieldDecl &field) {
  const clang::Expr *e = object.IgnoreParenImpCasts();
  // A struct argument is copied into the parameter.
  if (auto *copy = dyn_cast<clang::CXXConstructExpr>(e);
      copy && copy->getNumArgs() == 1 && copy->getConstructor()->isCopyOrMoveConstructor())
    e = copy->getArg(0)->IgnoreParenImpCasts();
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (const clang::CallExpr *call = var ? lambdaCall(*var) : nullptr) {
    // A struct the lambda captures: the caller's, where it calls the lambda.
    if (std::optional<std::vector<PointerChoice>> assigned =
            caller_->assignedFieldChoices(*var, field, *call))
      return *assigned;
    return caller_->fieldChoices(object, field);
  }
  auto *entries = var && var->isLocalVarDecl() && var->getInit() && !environment_.written(*var)
                      ? dyn_cast<clang::InitListExpr>(var->getInit()->IgnoreImplicit())
                      : nullptr;
  const clang::RecordDecl *record = var ? var->getType()->getAsRecordDecl() : nullptr;
  if (entries && record && field.getParent() == record->getDefinition() &&
      field.getFieldIndex() < entries->getNumInits()) {
    const clang::Expr *entry = entries->getInit(field.getFieldIndex());
    if (isa<clang::ImplicitValueInitExpr>(entry->IgnoreImplicit()))
      return {}; // a field the initializer leaves out is null
    return pointerChoices(entry);
  }
  if (var && ref && (var->isLocalVarDecl() || isa<clang::ParmVarDecl>(var)) &&
      !var->isStaticLocal())
    if (std::optional<std::vector<PointerChoice>> assigned =
            assignedFieldChoices(*var, field, *ref))
      return *assigned;
  std::optional<z3::expr> element = arith_.constant(0, kInt64);
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e)) { // `structs[i]`
    element = value(subscript->getIdx());
    e = subscript->getBase()->IgnoreParenImpCasts();
  }
  if (const clang::VarDecl *global = ownGlobalStruct(*e))
    return globalFieldChoices(*global, field, element);
  return {{objectFieldOrigin(*e, false, field, element), arith_.context().bool_val(true)}};
}

const clang::VarDecl *HostValues::ownGlobalStruct(const clang::Expr &object) {
  const clang::VarDecl *var = referencedVar(&object);
  bool structs = var && var->getType()->getBaseElementTypeUnsafe()->isRecordType();
  return structs && isGlobalVariable(*var) && ownGlobalBuffer(*var) ? var : nullptr;
}

std::vector<HostValues::PointerChoice>
HostValues::globalFieldChoices(const clang::VarDecl &var, const clang::FieldDecl &field,
                               const std::optional<z3::expr> &element) {
  z3::expr always = arith_.context().bool_val(true);
  std::vector<PointerChoice> out{{{&var, arith_.constant(0, kInt64), &field, element}, always}};
  const std::vector<const clang::Expr *> &copies = globalWriters().copiesInto(var, field);
  if (copies.empty())
    return out;
  auto key = std::make_tuple(&var, "global*" + field.getNameAsString(),
                             static_cast<const clang::Stmt *>(nullptr));
  if (following_.count(key))
    return {{{}, always}};
  // Set in some function from another pointer, in an order not followed:
  // its own allocation or any of the pointers assigned to it.
  following_.insert(key);
  for (const clang::Expr *copy : copies)
    for (PointerChoice &choice : globalPointerChoices(*copy))
      out.push_back({choice.origin, always});
  following_.erase(key);
  if (out.size() > kMaxPointerChoices)
    return {{{}, always}};
  return out;
}

std::vector<HostValues::PointerChoice> HostValues::globalPointerChoices(const clang::Expr &copy) {
  z3::expr always = arith_.context().bool_val(true);
  const clang::Expr *e = copy.IgnoreParenCasts();
  bool offset = false;
  if (auto *sum = dyn_cast<clang::BinaryOperator>(e); sum && sum->isAdditiveOp()) { // `g.x + n`
    e = (sum->getLHS()->getType()->isPointerType() ? sum->getLHS() : sum->getRHS())
            ->IgnoreParenCasts();
    offset = true;
  }
  std::vector<PointerChoice> out = {{{}, always}};
  auto *member = dyn_cast<clang::MemberExpr>(e);
  auto *field = member ? dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  const clang::VarDecl *pointer = referencedVar(e);
  if (field && !member->isArrow()) {
    const clang::Expr *base = member->getBase()->IgnoreParenImpCasts();
    std::optional<z3::expr> element = arith_.constant(0, kInt64);
    if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(base)) {
      element = std::nullopt; // whichever element the writer's index named
      base = subscript->getBase()->IgnoreParenImpCasts();
    }
    if (const clang::VarDecl *global = ownGlobalStruct(*base))
      out = globalFieldChoices(*global, *field, element);
  } else if (pointer && pointer->getType()->isPointerType() && isGlobalVariable(*pointer) &&
             ownGlobalBuffer(*pointer)) {
    out = {{{pointer, arith_.constant(0, kInt64)}, always}};
  }
  if (offset)
    for (PointerChoice &choice : out)
      choice.origin.offset.reset();
  return out;
}

std::optional<std::vector<HostValues::PointerChoice>>
HostValues::assignedFieldChoices(const clang::VarDecl &var, const clang::FieldDecl &field,
                                 const clang::Stmt &point) {
  z3::expr always = arith_.context().bool_val(true);
  auto key = std::make_tuple(&var, "*" + field.getNameAsString(), &point);
  if (following_.count(key))
    return std::nullopt;
  std::vector<Definition> definitions =
      environment_.reaching(var, field.getNameAsString(), point);
  // A parameter's field as the caller passed it, where no other
  // definition reaches (`p` by reference, other fields set here).
  const clang::Expr *passed = callArgument(var);
  bool on_entry = !definitions.empty() && std::all_of(definitions.begin(), definitions.end(),
                                                      [](const Definition &d) {
                                                        return d.kind == Definition::Kind::OnEntry;
                                                      });
  if (on_entry && passed)
    return caller_->fieldChoices(*passed, field);
  // Only where the field itself is set; a struct set whole is read as before.
  bool field_set = std::any_of(definitions.begin(), definitions.end(), [](const Definition &d) {
    return !d.whole && (d.kind == Definition::Kind::Assigned || d.kind == Definition::Kind::PassedOut);
  });
  if (!field_set)
    return std::nullopt;
  following_.insert(key);
  // An allocation put in the field is the field's own buffer.
  PointerOrigin own{&var, arith_.constant(0, kInt64), &field, arith_.constant(0, kInt64)};
  auto choicesOf = [&](const Definition &definition) -> std::vector<PointerChoice> {
    if (definition.kind == Definition::Kind::PassedOut)
      return {{own, always}};
    if (definition.kind == Definition::Kind::OnEntry && passed)
      return caller_->fieldChoices(*passed, field);
    if (definition.kind != Definition::Kind::Assigned || !definition.value)
      return {{{}, always}};
    if (definition.whole)
      return fieldChoices(*definition.value, field);
    const clang::Expr *value = definition.value->IgnoreParenCasts();
    if (value->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull))
      return {};
    if (!copiesPointer(definition.value, ast_))
      return {{own, always}};
    return pointerChoices(definition.value);
  };
  std::vector<PointerChoice> out = partitionedChoices(definitions, choicesOf);
  following_.erase(key);
  return out;
}

std::vector<HostValues::PointerChoice> HostValues::pointerChoices(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  z3::expr always = arith_.context().bool_val(true);
  auto elementBytes = [&](const clang::Expr *pointer) {
    clang::QualType pointee = pointer->getType()->getPointeeType();
    int64_t bytes = pointee.isNull() || pointee->isIncompleteType()
                        ? 1
                        : ast_.getTypeSizeInChars(pointee).getQuantity();
    return arith_.constant(bytes, kInt64);
  };
  // The choices of `pointer`, each with its offset changed by `change`.
  auto each = [&](const clang::Expr *pointer, auto change) {
    std::vector<PointerChoice> out = pointerChoices(pointer);
    for (PointerChoice &choice : out)
      change(choice.origin);
    return out;
  };
  // `pointer + count` elements: the count moves the offset, if it is known.
  auto advanced = [&](const clang::Expr *pointer, const clang::Expr *count, bool back) {
    std::optional<z3::expr> n = value(count);
    return each(pointer, [&](PointerOrigin &origin) {
      if (!origin.offset || !n) {
        origin.offset.reset();
        return;
      }
      z3::expr bytes = arith_.mul(*n, elementBytes(pointer));
      origin.offset =
          back ? arith_.sub(*origin.offset, bytes) : arith_.add(*origin.offset, bytes);
    });
  };
  auto rootOnly = [](PointerOrigin &origin) { origin.offset.reset(); };
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e)) {
    if (!binary->isAdditiveOp())
      return {{{}, always}};
    bool pointer_left = binary->getLHS()->getType()->isPointerType();
    return advanced(pointer_left ? binary->getLHS() : binary->getRHS(),
                    pointer_left ? binary->getRHS() : binary->getLHS(),
                    binary->getOpcode() == clang::BO_Sub);
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e)) {
    if (unary->getOpcode() != clang::UO_AddrOf)
      return {{{}, always}};
    const clang::Expr *target = unary->getSubExpr()->IgnoreParenCasts();
    if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(target)) // `&p[i]`
      return advanced(subscript->getBase(), subscript->getIdx(), false);
    return each(target, rootOnly); // `&x`
  }
  // `buf[i]` of an array (or std::vector) of separate allocations is the
  // i-th of them.
  auto element = [&](const clang::Expr *base, const clang::Expr *at) {
    std::optional<z3::expr> index = value(at);
    return each(base, [&](PointerOrigin &origin) {
      bool separate = origin.separate_elements && !origin.element && !origin.field &&
                      origin.offset && Arith::numeral(origin.offset->simplify(), true) == 0;
      origin.offset.reset();
      origin.separate_elements = false;
      // An element of pointers that may be copies of others may point
      // into any buffer.
      if (!separate)
        origin = {};
      else if (index)
        origin.element = *index;
      else
        origin.element = symbols_.freshShared("host:element", kInt64);
    });
  };
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
    return element(subscript->getBase(), subscript->getIdx());
  if (const clang::CXXOperatorCallExpr *at = vectorElement(*e))
    return element(at->getArg(0), at->getArg(1));
  if (auto *member = dyn_cast<clang::MemberExpr>(e)) {
    auto *field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (field && !member->isArrow() &&
        isa<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts()))
      return fieldChoices(*member->getBase(), *field);
    return {{fieldOrigin(*member), always}};
  }
  if (const clang::Expr *pointer = rawPointerOf(*e))
    return pointerChoices(pointer);
  // `v.data() + n` of a device pointer class: the same buffer, at an
  // offset not followed.
  if (auto *op = dyn_cast<clang::CXXOperatorCallExpr>(e);
      op && op->getNumArgs() == 2 && op->getArg(0)->getType()->isRecordType() &&
      (op->getOperator() == clang::OO_Plus || op->getOperator() == clang::OO_Minus))
    return each(op->getArg(0)->IgnoreImplicit(), rootOnly);
  if (auto *call = dyn_cast<clang::CXXMemberCallExpr>(e)) { // v.data()
    bool data = call->getMethodDecl() && call->getMethodDecl()->getName() == "data";
    return each(call->getImplicitObjectArgument(), [&](PointerOrigin &origin) {
      if (!data)
        origin.offset.reset();
    });
  }
  if (auto *choose = dyn_cast<clang::ConditionalOperator>(e)) { // `c ? a : b`
    z3::expr holds = conditionValue(*choose->getCond());
    std::vector<PointerChoice> out = pointerChoices(choose->getTrueExpr());
    for (PointerChoice &choice : out)
      choice.when = choice.when && holds;
    for (PointerChoice &choice : pointerChoices(choose->getFalseExpr()))
      out.push_back({choice.origin, choice.when && !holds});
    return out;
  }
  if (e->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull))
    return {}; // null points into no buffer
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var)
    return {{{}, always}};
  return namedPointerChoices(*var, *ref);
}

std::vector<HostValues::PointerChoice>
HostValues::namedPointerChoices(const clang::VarDecl &pointer, const clang::Stmt &point) {
  if (const clang::CallExpr *call = lambdaCall(pointer))
    return caller_->namedPointerChoices(pointer, *call);
  z3::expr always = arith_.context().bool_val(true);
  const clang::VarDecl *var = &pointer;
  if (const clang::Expr *arg = argumentFor(*var))
    return caller_->pointerChoices(arg);
  if (const clang::Expr *init = viewInitializer(*var))
    return pointerChoices(init);
  if (reassignedPointer(*var))
    return variableChoices(*var, point);
  PointerOrigin own{var, arith_.constant(0, kInt64)};
  auto *array = ast_.getAsConstantArrayType(var->getType());
  own.separate_elements = array && array->getElementType()->isPointerType() &&
                          (isGlobalVariable(*var) ? ownGlobalBuffer(*var)
                                                  : !reassignedElement(*var));
  if (isVectorOfPointers(var->getType()) && var->isLocalVarDecl() && !var->isStaticLocal())
    own.separate_elements = host_ && onlyFilledInPlace(*var, *host_) && !reassignedElement(*var);
  return {{own, always}};
}

std::vector<HostValues::PointerChoice> HostValues::variableChoices(const clang::VarDecl &var,
                                                                   const clang::Stmt &point) {
  z3::expr always = arith_.context().bool_val(true);
  auto key = std::make_tuple(&var, std::string("*"), &point);
  if (following_.count(key))
    return {{{}, always}};
  std::vector<Definition> definitions = environment_.reaching(var, "", point);
  if (definitions.empty())
    return {{{}, always}};
  following_.insert(key);
  std::vector<PointerChoice> out = partitionedChoices(
      definitions, [&](const Definition &definition) { return definitionChoices(definition, var); });
  following_.erase(key);
  return out;
}

std::vector<HostValues::PointerChoice> HostValues::partitionedChoices(
    const std::vector<Definition> &definitions,
    const std::function<std::vector<PointerChoice>(const Definition &)> &choicesOf) {
  // Each definition holds where its conditions do and those of the ones
  // before it do not; the last wherever none of those do.
  z3::expr always = arith_.context().bool_val(true);
  std::vector<PointerChoice> out;
  z3::expr earlier = arith_.context().bool_val(false);
  for (size_t i = 0; i < definitions.size(); ++i) {
    z3::expr taken = i + 1 == definitions.size() ? always : branchTaken(definitions[i]);
    for (PointerChoice &choice : choicesOf(definitions[i]))
      out.push_back({choice.origin, choice.when && taken && !earlier});
    earlier = earlier || taken;
  }
  if (out.size() > kMaxPointerChoices)
    return {{{}, always}};
  return out;
}

std::vector<HostValues::PointerChoice>
HostValues::definitionChoices(const Definition &definition, const clang::VarDecl &var) {
  z3::expr always = arith_.context().bool_val(true);
  PointerOrigin own{&var, arith_.constant(0, kInt64)};
  switch (definition.kind) {
  case Definition::Kind::Assigned:
    // An allocation (or a pointer a call returns) is the variable's own.
    if (!copiesPointer(definition.value, ast_) &&
        !definition.value->IgnoreParenCasts()->isNullPointerConstant(
            ast_, clang::Expr::NPC_ValueDependentIsNotNull))
      return {{own, always}};
    return pointerChoices(definition.value);
  case Definition::Kind::PassedOut: {
    // `std::swap(p, q)` leaves q's buffer in p; another call that takes
    // the pointer's address (`cudaMalloc(&p, n)`) gives it one of its own.
    auto *call = dyn_cast<clang::CallExpr>(definition.value);
    if (call && isStdSwap(*call)) {
      const clang::Expr *first = call->getArg(0), *second = call->getArg(1);
      return pointerChoices(referencedVar(first) == &var ? second : first);
    }
    return {{own, always}};
  }
  case Definition::Kind::OnEntry:
    if (const clang::Expr *arg = callArgument(var))
      return caller_->pointerChoices(arg);
    return {{own, always}};
  case Definition::Kind::Exchanged: {
    // One member's buffer on entry to the loop, a different one for each.
    z3::expr selector = exchangeSelector(definition, var);
    std::vector<PointerChoice> out;
    for (size_t i = 0; i < definition.group.size(); ++i)
      for (PointerChoice &choice : variableChoices(*definition.group[i], *definition.at))
        out.push_back({choice.origin,
                       choice.when &&
                           selector == arith_.constant(static_cast<int64_t>(i), kInt64)});
    return out;
  }
  default:
    return {{{}, always}};
  }
}

} // namespace gpurace::analyzer
