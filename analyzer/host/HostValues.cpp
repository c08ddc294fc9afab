#include "analyzer/host/HostValues.h"

#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

const clang::VarDecl *referencedVar(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    if (unary->getOpcode() == clang::UO_AddrOf)
      e = unary->getSubExpr()->IgnoreParenCasts();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::VarDecl>(ref->getDecl());
  return nullptr;
}

// `e` without the temporaries and casts around a struct value
// (`dim3(64)` as an argument, `= dim3(a, b)`).
const clang::Expr *structValue(const clang::Expr *e) {
  for (const clang::Expr *before = nullptr; e && before != e;) {
    before = e;
    e = e->IgnoreImplicit()->IgnoreParens();
    if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = temp->getSubExpr();
    if (auto *cast = dyn_cast<clang::CXXFunctionalCastExpr>(e))
      e = cast->getSubExpr();
  }
  return e;
}

// The variables `stmt` reads, in source order (so that the facts made of
// them come in the same order on every run).
void collectVars(const clang::Stmt *stmt, std::vector<const clang::VarDecl *> &vars) {
  if (!stmt)
    return;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (std::find(vars.begin(), vars.end(), var) == vars.end())
        vars.push_back(var);
  for (const clang::Stmt *child : stmt->children())
    collectVars(child, vars);
}

bool callsTerminator(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::ReturnStmt, clang::CXXThrowExpr>(stmt))
    return true;
  if (auto *call = dyn_cast<clang::CallExpr>(stmt))
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      std::string name = callee->getNameAsString();
      if (name == "exit" || name == "abort" || name == "_Exit" ||
          name == "quick_exit" || name == "__assert_fail" || name == "__assert" ||
          name == "__assert_rtn" || callee->isNoReturn())
        return true;
    }
  for (const clang::Stmt *child : stmt->children())
    if (callsTerminator(child))
      return true;
  return false;
}

// `assert(c)` as glibc expands it: `c ? void(0) : __assert_fail(...)`.
const clang::Expr *assertedCondition(const clang::Stmt *stmt) {
  auto *expr = dyn_cast_or_null<clang::Expr>(stmt);
  if (!expr)
    return nullptr;
  expr = expr->IgnoreParenImpCasts();
  // The condition without assert's own `static_cast<bool>`, so its text is
  // the user's condition rather than the macro.
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(expr))
    if (callsTerminator(conditional->getFalseExpr()))
      return conditional->getCond()->IgnoreParenCasts();
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    if (binary->getOpcode() == clang::BO_LOr && callsTerminator(binary->getRHS()))
      return binary->getLHS();
  return nullptr;
}

} // namespace

HostValues::HostValues(clang::ASTContext &ast, SymbolSpace &symbols,
                       const clang::FunctionDecl *host, const clang::Expr *launch,
                       HostValues *caller)
    : ast_(ast), symbols_(symbols), arith_(symbols.arith()), host_(host),
      launch_(launch), caller_(caller), environment_(ast, host),
      unknowns_(caller ? caller->unknowns_
                       : std::make_shared<std::map<std::string, v1::Imprecision>>()) {}

std::array<std::optional<z3::expr>, 3> HostValues::dims(const clang::Expr *e) {
  std::array<std::optional<z3::expr>, 3> out{
      arith_.constant(1, kInt64), arith_.constant(1, kInt64),
      arith_.constant(1, kInt64)};
  // `dim3(64)` as an argument: a copy of a temporary made by a cast.
  e = structValue(e);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts())) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (const clang::Expr *arg = var ? argumentFor(*var) : nullptr)
      return caller_->dims(arg);
    // Each axis from the definitions that reach the launch: the
    // initializer, `grid.x = n / 256;`, `grid = dim3(...)` on each path.
    if (var && var->getType()->isRecordType()) {
      for (int axis = 0; axis < 3; ++axis)
        out[axis] = valueAt(*var, std::string(1, "xyz"[axis]), *ref);
      return out;
    }
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 &&
        construct->getArg(0)->getType()->isRecordType())
      return dims(construct->getArg(0));
    for (unsigned i = 0; i < 3 && i < construct->getNumArgs(); ++i)
      if (!isa<clang::CXXDefaultArgExpr>(construct->getArg(i)))
        out[i] = value(construct->getArg(i));
    return out;
  }
  if (e->IgnoreParenImpCasts()->getType()->isIntegerType()) {
    out[0] = value(e); // a scalar converts to dim3(n, 1, 1)
    return out;
  }
  return {std::nullopt, std::nullopt, std::nullopt};
}

bool HostValues::assignedOutsideInit(const clang::VarDecl &var) const {
  return environment_.written(var);
}

namespace {

// The expression that gives one field of a struct initialized from `init`:
// a member of an init list (`Image img = {p, w, h}`), an argument of a
// dim3 constructor (`dim3 b(8, 1, 1)`, its defaults included), or the
// struct copied from (`dim3 g2(g)`, to be read field by field).
const clang::Expr *fieldInitializer(const clang::Expr *init, const clang::RecordDecl *record,
                                    const std::string &field) {
  init = structValue(init);
  if (auto *construct = dyn_cast_or_null<clang::CXXConstructExpr>(init)) {
    if (construct->getNumArgs() == 1 && construct->getArg(0)->getType()->isRecordType())
      return construct->getArg(0);
    int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
    if (!record || record->getName() != "dim3" || axis < 0 ||
        axis >= static_cast<int>(construct->getNumArgs()))
      return nullptr;
    const clang::Expr *arg = construct->getArg(axis);
    if (auto *defaulted = dyn_cast<clang::CXXDefaultArgExpr>(arg))
      return defaulted->getExpr();
    return arg;
  }
  auto *list = dyn_cast_or_null<clang::InitListExpr>(init);
  auto *cxx = dyn_cast_or_null<clang::CXXRecordDecl>(record);
  if (!list || !record || (cxx && cxx->getNumBases() > 0))
    return nullptr;
  unsigned index = 0;
  for (const clang::FieldDecl *decl : record->fields()) {
    if (decl->getNameAsString() == field)
      return index < list->getNumInits() ? list->getInit(index) : nullptr;
    ++index;
  }
  return nullptr;
}

// The struct a variable holds, refers to or points to.
const clang::RecordDecl *recordOf(const clang::VarDecl &var) {
  clang::QualType type = var.getType().getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  return type->getAsRecordDecl();
}

std::string shortText(const clang::Stmt &stmt, const clang::SourceManager &sources) {
  std::string shown = sourceText(stmt.getSourceRange(), sources);
  if (shown.size() > 60)
    shown = shown.substr(0, 57) + "...";
  return shown;
}

} // namespace

std::optional<z3::expr> HostValues::valueAt(const clang::VarDecl &var, const std::string &field,
                                            const clang::Stmt &point) {
  if (field.empty() && !var.getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  auto key = std::make_pair(&var, field);
  bool local = var.isLocalVarDecl() && !var.isStaticLocal();
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  bool own_param = param && param->getDeclContext() == host_;
  if (following_.count(key) || var.getType().isVolatileQualified() || (!local && !own_param))
    return symbolOf(var, field);
  if (own_param && !environment_.written(var))
    return onEntry(var, field);
  std::vector<Definition> definitions = environment_.reaching(var, field, point);
  if (definitions.empty())
    return symbolOf(var, field);
  following_.insert(key);
  z3::expr out = combine(definitions, var, field);
  following_.erase(key);
  return out;
}

z3::expr HostValues::combine(const std::vector<Definition> &definitions,
                             const clang::VarDecl &var, const std::string &field) {
  // The definitions partition the paths: the last one reaches wherever the
  // conditions of the others do not hold.
  z3::expr out = definitionValue(definitions.back(), var, field);
  for (size_t i = definitions.size() - 1; i-- > 0;)
    out = z3::ite(branchTaken(definitions[i]), definitionValue(definitions[i], var, field),
                  out);
  return out;
}

z3::expr HostValues::branchTaken(const Definition &definition) {
  z3::expr taken = arith_.context().bool_val(true);
  for (const auto &[branch, holds] : definition.conditions) {
    auto known = branch_conditions_.find(branch);
    if (known == branch_conditions_.end()) {
      std::optional<z3::expr> condition = value(branch->getCond());
      z3::expr truth = condition ? arith_.toBool(*condition)
                                 : arith_.toBool(symbols_.freshShared("host:branch", kInt64));
      known = branch_conditions_.emplace(branch, truth).first;
    }
    taken = taken && (holds ? known->second : !known->second);
  }
  return taken;
}

z3::expr HostValues::definitionValue(const Definition &definition, const clang::VarDecl &var,
                                     const std::string &field) {
  switch (definition.kind) {
  case Definition::Kind::OnEntry:
    return onEntry(var, field);
  case Definition::Kind::Unknown:
    return unknownSymbolOf(var, field, definition.reason, definition.at);
  case Definition::Kind::Updated:
    return updatedValue(definition, var, field);
  case Definition::Kind::PassedOut:
    return passedOutValue(definition, var, field);
  case Definition::Kind::Assigned:
    break;
  }
  auto key = std::make_pair(definition.at, field);
  auto cached = definition_values_.find(key);
  if (cached != definition_values_.end())
    return cached->second;
  std::optional<z3::expr> out;
  if (!field.empty() && definition.whole)
    out = fieldOfStruct(*definition.value, var, field);
  else
    out = value(definition.value);
  if (!out)
    out = unknownSymbolOf(var, field,
                          "set from '" + shortText(*definition.value, ast_.getSourceManager()) +
                              "', which is not an integer",
                          definition.at);
  definition_values_.emplace(key, *out);
  return *out;
}

z3::expr HostValues::updatedValue(const Definition &definition, const clang::VarDecl &var,
                                  const std::string &field) {
  auto key = std::make_pair(definition.at, field);
  auto cached = definition_values_.find(key);
  if (cached != definition_values_.end())
    return cached->second;
  z3::expr before = definition.before.empty() ? symbolOf(var, field)
                                              : combine(definition.before, var, field);
  z3::expr one = arith_.constant(1, kInt64);
  std::optional<z3::expr> out;
  if (auto *unary = dyn_cast<clang::UnaryOperator>(definition.at)) {
    out = unary->isIncrementOp() ? arith_.add(before, one) : arith_.sub(before, one);
  } else if (auto *update = dyn_cast<clang::CompoundAssignOperator>(definition.at)) {
    std::optional<z3::expr> by = value(update->getRHS());
    bool is_signed = update->getComputationResultType()->isSignedIntegerOrEnumerationType();
    if (by) {
      switch (update->getOpcode()) {
      case clang::BO_AddAssign: out = arith_.add(before, *by); break;
      case clang::BO_SubAssign: out = arith_.sub(before, *by); break;
      case clang::BO_MulAssign: out = arith_.mul(before, *by); break;
      case clang::BO_DivAssign: out = arith_.div(before, *by, is_signed); break;
      case clang::BO_RemAssign: out = arith_.rem(before, *by, is_signed); break;
      case clang::BO_ShlAssign: out = arith_.shiftLeft(before, *by); break;
      case clang::BO_ShrAssign: out = arith_.shiftRight(before, *by, is_signed); break;
      case clang::BO_AndAssign: out = arith_.bitAnd(before, *by); break;
      case clang::BO_OrAssign: out = arith_.bitOr(before, *by); break;
      case clang::BO_XorAssign: out = arith_.bitXor(before, *by); break;
      default: break;
      }
    }
  }
  if (!out)
    out = unknownSymbolOf(var, field,
                          "changed by '" + shortText(*definition.at, ast_.getSourceManager()) +
                              "'",
                          definition.at);
  definition_values_.emplace(key, *out);
  return *out;
}

z3::expr HostValues::fieldOfStruct(const clang::Expr &struct_value, const clang::VarDecl &var,
                                   const std::string &field) {
  const clang::RecordDecl *record = recordOf(var);
  std::string shown = shortText(struct_value, ast_.getSourceManager());
  const clang::Expr *whole = structValue(&struct_value);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(whole))
    if (auto *source = dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (std::optional<z3::expr> copied = valueAt(*source, field, *ref))
        return *copied;
  if (auto *call = dyn_cast<clang::CallExpr>(whole);
      call && !isa<clang::CXXOperatorCallExpr>(call) && call->getType()->isRecordType())
    if (std::optional<z3::expr> returned = returnedField(*call, var, field))
      return *returned;
  const clang::Expr *init = fieldInitializer(&struct_value, record, field);
  if (init && init->getType()->isRecordType()) {
    // A copy of another struct variable (`dim3 g2(g)`, `grid = g`): its
    // field where the copy is made.
    auto *ref = dyn_cast<clang::DeclRefExpr>(structValue(init));
    auto *source = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (source)
      if (std::optional<z3::expr> copied = valueAt(*source, field, *ref))
        return *copied;
    return unknownSymbolOf(var, field, "copied from '" + shown + "'", &struct_value);
  }
  if (init)
    if (std::optional<z3::expr> out = value(init))
      return *out;
  return unknownSymbolOf(var, field, "set from '" + shown + "'", &struct_value);
}

namespace {

constexpr int kMaxCalleeDepth = 3;

// The callee's parameter that `call` hands `var` to: `&var` to a pointer,
// `var` to a reference.
const clang::ParmVarDecl *outParameter(const clang::CallExpr &call, const clang::FunctionDecl &callee,
                                       const clang::VarDecl &var) {
  for (unsigned i = 0; i < call.getNumArgs() && i < callee.getNumParams(); ++i) {
    const clang::Expr *arg = call.getArg(i)->IgnoreParenCasts();
    const clang::ParmVarDecl *param = callee.getParamDecl(i);
    bool by_address = false;
    if (auto *address = dyn_cast<clang::UnaryOperator>(arg);
        address && address->getOpcode() == clang::UO_AddrOf) {
      arg = address->getSubExpr()->IgnoreParenCasts();
      by_address = true;
    }
    auto *ref = dyn_cast<clang::DeclRefExpr>(arg);
    if (!ref || ref->getDecl() != &var)
      continue;
    if (by_address ? param->getType()->isPointerType()
                   : param->getType()->isLValueReferenceType())
      return param;
  }
  return nullptr;
}

} // namespace

std::unique_ptr<HostValues> HostValues::calleeFrame(const clang::CallExpr &call,
                                                    std::unique_ptr<HostValues> &sibling) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  const clang::FunctionDecl *body = callee ? callee->getDefinition() : nullptr;
  if (!body || !body->hasBody() || callee_depth_ >= kMaxCalleeDepth || !host_)
    return nullptr;
  sibling = std::make_unique<HostValues>(ast_, symbols_, host_, &call, caller_);
  sibling->unknowns_ = unknowns_;
  sibling->callee_depth_ = callee_depth_;
  auto frame = std::make_unique<HostValues>(ast_, symbols_, body, nullptr, sibling.get());
  frame->callee_depth_ = callee_depth_ + 1;
  return frame;
}

z3::expr HostValues::passedOutValue(const Definition &definition, const clang::VarDecl &var,
                                    const std::string &field) {
  auto key = std::make_pair(definition.at, field);
  auto cached = definition_values_.find(key);
  if (cached != definition_values_.end())
    return cached->second;
  const auto &call = *clang::cast<clang::CallExpr>(definition.value);
  std::string callee_name = call.getDirectCallee()->getNameAsString();
  std::unique_ptr<HostValues> sibling;
  std::unique_ptr<HostValues> frame = calleeFrame(call, sibling);
  const clang::ParmVarDecl *param =
      frame ? outParameter(call, *frame->host_, var) : nullptr;
  std::vector<Definition> at_exit;
  if (param)
    at_exit = frame->environment_.reachingExit(*param, field,
                                                param->getType()->isPointerType());
  std::optional<z3::expr> out;
  if (!at_exit.empty()) {
    frame->entry_param_ = param;
    frame->entry_value_ = definition.before.empty() ? symbolOf(var, field)
                                                    : combine(definition.before, var, field);
    out = frame->combine(at_exit, *param, field);
    for (Fact &fact : frame->value_facts_)
      value_facts_.push_back(std::move(fact));
    for (Fact &fact : sibling->value_facts_)
      value_facts_.push_back(std::move(fact));
  } else {
    out = unknownSymbolOf(var, field,
                          "passed by address or reference to '" + callee_name + "'",
                          definition.at);
  }
  definition_values_.emplace(key, *out);
  return *out;
}

std::optional<z3::expr> HostValues::returnedField(const clang::CallExpr &call,
                                                  const clang::VarDecl &var,
                                                  const std::string &field) {
  std::unique_ptr<HostValues> sibling;
  std::unique_ptr<HostValues> frame = calleeFrame(call, sibling);
  auto *body = frame ? dyn_cast<clang::CompoundStmt>(frame->host_->getBody()) : nullptr;
  auto *last = body && !body->body_empty() ? dyn_cast<clang::ReturnStmt>(body->body_back())
                                           : nullptr;
  if (!last || !last->getRetValue())
    return std::nullopt;
  // One return, the last statement: its struct, read in the callee.
  struct Returns : clang::RecursiveASTVisitor<Returns> {
    unsigned count = 0;
    bool VisitReturnStmt(clang::ReturnStmt *) { return ++count, true; }
  } returns;
  returns.TraverseStmt(body);
  if (returns.count != 1)
    return std::nullopt;
  z3::expr out = frame->fieldOfStruct(*last->getRetValue(), var, field);
  for (Fact &fact : frame->value_facts_)
    value_facts_.push_back(std::move(fact));
  for (Fact &fact : sibling->value_facts_)
    value_facts_.push_back(std::move(fact));
  return out;
}

z3::expr HostValues::onEntry(const clang::VarDecl &var, const std::string &field) {
  if (&var == entry_param_ && entry_value_)
    return *entry_value_;
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  const clang::CallExpr *call = caller_ ? dyn_cast<clang::CallExpr>(caller_->launch_) : nullptr;
  if (param && call && param->getDeclContext() == host_) {
    unsigned index = param->getFunctionScopeIndex();
    if (index < call->getNumArgs() && !isa<clang::CXXDefaultArgExpr>(call->getArg(index))) {
      const clang::Expr *arg = call->getArg(index);
      std::optional<z3::expr> passed =
          field.empty() ? caller_->value(arg) : caller_->structField(arg, field);
      if (passed)
        return *passed;
    }
  }
  return symbolOf(var, field);
}

z3::expr HostValues::symbolOf(const clang::VarDecl &var, const std::string &field) {
  z3::expr symbol = field.empty() ? symbolFor(var) : fieldSymbolFor(var, field);
  clang::QualType type = var.getType().getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  if (!field.empty())
    if (const clang::RecordDecl *record = recordOf(var))
      for (const clang::FieldDecl *decl : record->fields())
        if (decl->getNameAsString() == field)
          type = decl->getType();
  addRangeFact(symbol, type,
               var.getNameAsString() + (field.empty() ? std::string() : "." + field));
  return symbol;
}

z3::expr HostValues::unknownSymbolOf(const clang::VarDecl &var, const std::string &field,
                                     const std::string &reason, const clang::Stmt *at) {
  z3::expr symbol = symbolOf(var, field);
  std::string name = var.getNameAsString() + (field.empty() ? std::string() : "." + field);
  noteUnknown(symbol, "host '" + name + "' " + reason, name, at);
  return symbol;
}

void HostValues::noteUnknown(const z3::expr &symbol, const std::string &detail,
                             const std::string &source, const clang::Stmt *at) {
  std::string name = symbol.decl().name().str();
  if (unknowns_->count(name))
    return;
  v1::Imprecision imprecision;
  imprecision.set_kind(v1::IMPRECISION_KIND_UNKNOWN_HOST_VALUE);
  imprecision.set_detail(detail);
  imprecision.set_source("host:" + source);
  if (at)
    *imprecision.mutable_location() =
        toLocation(at->getSourceRange(), ast_.getSourceManager(),
                   host_ ? host_->getQualifiedNameAsString() : "");
  unknowns_->emplace(name, std::move(imprecision));
}

void HostValues::addRangeFact(const z3::expr &symbol, clang::QualType type,
                              const std::string &name) {
  std::string symbol_name = symbol.decl().name().str();
  if (!type->isUnsignedIntegerOrEnumerationType() || type->isBooleanType() ||
      !ranged_.insert(symbol_name).second)
    return;
  uint64_t width = ast_.getTypeSize(type);
  z3::expr zero = arith_.constant(0, kInt64);
  z3::expr range = arith_.lessEq(zero, symbol, true);
  if (width < 64)
    range = range && arith_.lessEq(symbol, arith_.constant((int64_t{1} << width) - 1, kInt64),
                                   true);
  v1::Assumption assumption;
  assumption.set_kind(v1::HOST_FACT_KIND_ANALYSIS);
  assumption.set_role(v1::Assumption::ROLE_USED);
  assumption.set_description("host '" + name + "' is unsigned: 0 <= " + name +
                             (width < 64 ? " < 2^" + std::to_string(width) : ""));
  value_facts_.push_back({range, assumption});
}

std::vector<Fact> HostValues::valueFacts() const {
  std::vector<Fact> facts = caller_ ? caller_->valueFacts() : std::vector<Fact>{};
  facts.insert(facts.end(), value_facts_.begin(), value_facts_.end());
  return facts;
}

std::optional<z3::expr> HostValues::structField(const clang::Expr *struct_arg,
                                                const std::string &field) {
  const clang::Expr *e = struct_arg->IgnoreImplicit();
  if (auto *copy = dyn_cast<clang::CXXConstructExpr>(e))
    if (copy->getNumArgs() == 1)
      e = copy->getArg(0)->IgnoreImplicit();
  auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParens());
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var)
    return std::nullopt;
  if (const clang::Expr *passed = argumentFor(*var))
    return caller_->structField(passed, field);
  if (isa<clang::ParmVarDecl>(var) && !environment_.written(*var))
    return std::nullopt;
  return valueAt(*var, field, *ref);
}

z3::expr HostValues::fieldSymbolFor(const clang::VarDecl &var, const std::string &field) {
  // One symbol per variable and field (`vol.pitch`), so that an argument
  // and the allocation facts speak of the same value.
  return symbols_.shared("host:" + var.getQualifiedNameAsString() + "." + field + "@" +
                             std::to_string(var.getLocation().getRawEncoding()),
                         kInt64);
}

z3::expr HostValues::symbolFor(const clang::VarDecl &var) {
  // One symbol per variable: every use of it is related to every other.
  // Named by where it is declared, never by its address, so that the
  // solver sees the same names, and decides the same way, on every run.
  std::string name = "host:" + var.getQualifiedNameAsString() + "@" +
                     std::to_string(var.getLocation().getRawEncoding());
  return symbols_.shared(name, kInt64);
}

const clang::Expr *HostValues::argumentFor(const clang::VarDecl &var) const {
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  if (!caller_ || !param || param->getDeclContext() != host_ ||
      assignedOutsideInit(var))
    return nullptr;
  auto *call = dyn_cast<clang::CallExpr>(caller_->launch_);
  unsigned index = param->getFunctionScopeIndex();
  if (!call || index >= call->getNumArgs() ||
      isa<clang::CXXDefaultArgExpr>(call->getArg(index)))
    return nullptr;
  return call->getArg(index);
}

std::optional<z3::expr> HostValues::value(const clang::Expr *expr) {
  if (!expr)
    return std::nullopt;
  expr = expr->IgnoreParens();
  if (!expr->getType()->isIntegralOrEnumerationType() &&
      !expr->getType()->isBooleanType())
    return std::nullopt;
  clang::Expr::EvalResult constant;
  if (!expr->isValueDependent() && expr->EvaluateAsInt(constant, ast_))
    return arith_.constant(constant.Val.getInt().getExtValue(), kInt64);
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return value(cast->getSubExpr());
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      return valueAt(*var, "", *ref);
  if (auto *member = dyn_cast<clang::MemberExpr>(expr)) {
    // `b.x` of a struct variable, as the definitions reaching here set it.
    const clang::Expr *base = member->getBase()->IgnoreParenImpCasts();
    auto *ref = dyn_cast<clang::DeclRefExpr>(base);
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (var && !member->isArrow() && member->getType()->isIntegralOrEnumerationType()) {
      std::string field = member->getMemberDecl()->getNameAsString();
      if (const clang::Expr *passed = argumentFor(*var))
        if (auto out = caller_->structField(passed, field))
          return out;
      if (auto out = valueAt(*var, field, *member))
        return out;
    }
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    auto sub = value(unary->getSubExpr());
    if (sub && unary->getOpcode() == clang::UO_Minus)
      return arith_.sub(arith_.constant(0, kInt64), *sub);
    if (sub && unary->getOpcode() == clang::UO_Plus)
      return sub;
    if (sub && unary->getOpcode() == clang::UO_Not) // ~x == -x - 1
      return arith_.sub(arith_.sub(arith_.constant(0, kInt64), *sub), arith_.constant(1, kInt64));
  }
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    auto a = value(binary->getLHS()), b = value(binary->getRHS());
    if (a && b) {
      bool is_signed = binary->getType()->isSignedIntegerOrEnumerationType();
      switch (binary->getOpcode()) {
      case clang::BO_Add: return arith_.add(*a, *b);
      case clang::BO_Sub: return arith_.sub(*a, *b);
      case clang::BO_Mul: return arith_.mul(*a, *b);
      case clang::BO_Div: return arith_.div(*a, *b, is_signed);
      case clang::BO_Rem: return arith_.rem(*a, *b, is_signed);
      case clang::BO_Shl: return arith_.shiftLeft(*a, *b);
      case clang::BO_Shr: return arith_.shiftRight(*a, *b, is_signed);
      case clang::BO_And: return arith_.bitAnd(*a, *b);
      case clang::BO_Or: return arith_.bitOr(*a, *b);
      case clang::BO_Xor: return arith_.bitXor(*a, *b);
      default: break;
      }
    }
  }
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(expr)) {
    auto c = value(conditional->getCond());
    auto a = value(conditional->getTrueExpr()), b = value(conditional->getFalseExpr());
    if (c && a && b)
      return z3::ite(arith_.toBool(*c), *a, *b);
  }
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->isComparisonOp() || binary->isLogicalOp()) {
      auto a = value(binary->getLHS()), b = value(binary->getRHS());
      if (a && b) {
        z3::expr x = *a, y = *b;
        z3::expr truth = [&] {
          switch (binary->getOpcode()) {
          case clang::BO_LT: return arith_.less(x, y, true);
          case clang::BO_GT: return arith_.less(y, x, true);
          case clang::BO_LE: return arith_.lessEq(x, y, true);
          case clang::BO_GE: return arith_.lessEq(y, x, true);
          case clang::BO_EQ: return x == y;
          case clang::BO_NE: return x != y;
          case clang::BO_LAnd: return arith_.toBool(x) && arith_.toBool(y);
          default: return arith_.toBool(x) || arith_.toBool(y);
          }
        }();
        return arith_.fromBool(truth, kInt64);
      }
    }
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    if (unary->getOpcode() == clang::UO_LNot)
      if (auto sub = value(unary->getSubExpr()))
        return arith_.fromBool(!arith_.toBool(*sub), kInt64);
  // A value the host reads from its input (argv, files, calls whose bodies
  // are not followed): unknown, constrained only by the facts around it.
  z3::expr unknown = symbols_.freshShared("host:unknown", kInt64);
  std::string shown = shortText(*expr, ast_.getSourceManager());
  noteUnknown(unknown,
              "'" + shown + "' " +
                  (isa<clang::CallExpr>(expr->IgnoreParenImpCasts())
                       ? "is the result of a call whose body is not followed"
                       : "is not followed"),
              shown, expr);
  if (expr->getType()->isUnsignedIntegerOrEnumerationType())
    addRangeFact(unknown, expr->getType(), shown);
  return unknown;
}

Fact HostValues::fact(z3::expr term, v1::HostFactKind kind,
                      const std::string &text, const clang::Stmt &at) {
  v1::Assumption a;
  a.set_kind(kind);
  a.set_role(v1::Assumption::ROLE_USED);
  a.set_description(text);
  *a.mutable_location() =
      toLocation(at.getSourceRange(), ast_.getSourceManager(),
                 host_ ? host_->getQualifiedNameAsString() : "");
  return {term, a};
}

void HostValues::addCondition(const clang::Expr *condition, bool holds,
                              v1::HostFactKind kind, const std::string &text,
                              const clang::Stmt &at, std::vector<Fact> &facts) {
  // `if (!(c)) exit(1);` says c: shown as the user wrote c, also when the
  // negation comes from a macro.
  if (auto *negation = dyn_cast<clang::UnaryOperator>(condition->IgnoreParenImpCasts()))
    if (negation->getOpcode() == clang::UO_LNot) {
      addCondition(negation->getSubExpr()->IgnoreParens(), !holds, kind, text, at, facts);
      return;
    }
  auto v = value(condition);
  if (!v)
    return;
  z3::expr truth = arith_.toBool(*v);
  std::string shown = sourceText(condition->getSourceRange(), ast_.getSourceManager());
  facts.push_back(fact(holds ? truth : !truth, kind,
                       text + (holds ? shown : "!(" + shown + ")"), at));
}

void HostValues::addPrecedingGuards(const clang::Stmt &block,
                                    const clang::Stmt *until,
                                    std::vector<Fact> &facts) {
  for (const clang::Stmt *stmt : block.children()) {
    if (stmt == until)
      break;
    addGuard(*stmt, facts);
  }
}

void HostValues::addGuard(const clang::Stmt &stmt, std::vector<Fact> &facts) {
  if (const clang::Expr *asserted = assertedCondition(&stmt)) {
    addCondition(asserted, true, v1::HOST_FACT_KIND_ASSERT, "assert: ", stmt, facts);
    return;
  }
  // `do { if (!(c)) abort(); } while (0)`: the shape of assert macros such
  // as KALDI_ASSERT.
  if (auto *once = dyn_cast<clang::DoStmt>(&stmt)) {
    bool loops = true;
    if (!once->getCond()->isValueDependent() &&
        once->getCond()->EvaluateAsBooleanCondition(loops, ast_) && !loops) {
      if (isa<clang::CompoundStmt>(once->getBody()))
        addPrecedingGuards(*once->getBody(), nullptr, facts);
      else
        addGuard(*once->getBody(), facts);
    }
    return;
  }
  auto *if_stmt = dyn_cast<clang::IfStmt>(&stmt);
  if (if_stmt && !if_stmt->getElse() && callsTerminator(if_stmt->getThen()))
    addCondition(if_stmt->getCond(), false, v1::HOST_FACT_KIND_ASSERT, "guard: ",
                 stmt, facts);
}

bool HostValues::contains(const clang::Stmt &outer, const clang::Stmt &inner) const {
  if (&outer == &inner)
    return true;
  for (auto parents = ast_.getParents(inner); !parents.empty();
       parents = ast_.getParents(parents[0])) {
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      return false;
    if (parent == &outer)
      return true;
  }
  return false;
}

bool HostValues::changedBeforeLaunch(const clang::Stmt &body,
                                     const clang::VarDecl &var) const {
  const auto &writes = environment_.writesOf(var);
  if (writes.empty())
    return false;
  const clang::SourceManager &sources = ast_.getSourceManager();
  for (const clang::Stmt *write : writes) {
    if (!contains(body, *write))
      continue;
    if (sources.isBeforeInTranslationUnit(write->getBeginLoc(), launch_->getBeginLoc()))
      return true;
    // A write after the launch in a loop around both still comes first
    // on that loop's next iteration.
    for (auto parents = ast_.getParents(*write); !parents.empty();
         parents = ast_.getParents(parents[0])) {
      const clang::Stmt *parent = parents[0].get<clang::Stmt>();
      if (!parent || parent == &body)
        break;
      if ((isa<clang::ForStmt>(parent) || isa<clang::WhileStmt>(parent) ||
           isa<clang::DoStmt>(parent)) &&
          contains(*parent, *launch_))
        return true;
    }
  }
  return false;
}

void HostValues::addLoopFacts(const clang::Stmt &loop, const clang::Expr *condition,
                              const clang::Stmt &body, std::vector<Fact> &facts) {
  if (!condition)
    return;
  std::vector<const clang::VarDecl *> tested;
  collectVars(condition, tested);
  for (const clang::VarDecl *var : tested)
    if (changedBeforeLaunch(body, *var))
      return;
  addCondition(condition, true, v1::HOST_FACT_KIND_LOOP_BOUND, "loop: ", loop, facts);
  for (const clang::VarDecl *var : tested)
    addInductionFacts(loop, *var, facts);
}

void HostValues::addInductionFacts(const clang::Stmt &loop, const clang::VarDecl &var,
                                   std::vector<Fact> &facts) {
  if (!var.getType()->isIntegralOrEnumerationType())
    return;
  const clang::Expr *start =
      var.isLocalVarDecl() && !var.isStaticLocal() ? var.getInit() : nullptr;
  const clang::Stmt *restart = nullptr; // `for (i = s; ...)`
  if (auto *for_loop = dyn_cast<clang::ForStmt>(&loop))
    if (auto *init = dyn_cast_or_null<clang::BinaryOperator>(for_loop->getInit()))
      if (init->getOpcode() == clang::BO_Assign && referencedVar(init->getLHS()) == &var) {
        start = init->getRHS();
        restart = init;
      }
  const auto &writes = environment_.writesOf(var);
  if (!start || writes.empty())
    return;
  // Every other write must add a constant of one sign; after a restart
  // they must all lie in this loop, which the restart begins.
  std::vector<const clang::Stmt *> steps;
  for (const clang::Stmt *write : writes) {
    if (write == restart)
      continue;
    if (restart && !contains(loop, *write))
      return;
    steps.push_back(write);
  }
  std::optional<StepSummary> summary = summarizeSteps(steps, var, ast_);
  std::optional<z3::expr> from = value(start);
  if (!summary || summary->direction == 0 || !from)
    return;
  int direction = summary->direction;
  int64_t stride = summary->stride;
  z3::expr at_launch = symbolFor(var);
  std::string name = var.getNameAsString();
  std::string shown = sourceText(start->getSourceRange(), ast_.getSourceManager());
  if (summary->scales) {
    addScalingFacts(loop, at_launch, *from, *summary,
                    name + (direction > 0 ? " grows from " : " shrinks from ") + shown, facts);
    return;
  }
  facts.push_back(fact(direction > 0 ? arith_.lessEq(*from, at_launch, true)
                                     : arith_.lessEq(at_launch, *from, true),
                       v1::HOST_FACT_KIND_LOOP_BOUND,
                       "loop: " + name + (direction > 0 ? " counts up from " : " counts down from ") +
                           shown,
                       loop));
  if (stride > 1)
    facts.push_back(fact(arith_.rem(arith_.sub(at_launch, *from),
                                    arith_.constant(stride, kInt64), true) ==
                             arith_.constant(0, kInt64),
                         v1::HOST_FACT_KIND_LOOP_BOUND,
                         "loop: " + name + " steps by " + std::to_string(stride) + " from " +
                             shown,
                         loop));
}

void HostValues::addScalingFacts(const clang::Stmt &loop, const z3::expr &at_launch,
                                 const z3::expr &from, const StepSummary &steps,
                                 const std::string &described, std::vector<Fact> &facts) {
  // Multiplying a positive value by at least one (`stride <<= 1`,
  // `n *= 2`), or adding a positive constant, never makes it smaller.
  // Dividing a non-negative one (`s >>= 1`, `s /= 2`) keeps it between zero
  // and where it started, unless constants are also subtracted.
  z3::expr zero = arith_.constant(0, kInt64);
  std::optional<z3::expr> bound;
  if (steps.direction > 0)
    bound = z3::implies(arith_.less(zero, from, true), arith_.lessEq(from, at_launch, true));
  else if (steps.stride == 0)
    bound = z3::implies(arith_.lessEq(zero, from, true),
                        arith_.lessEq(zero, at_launch, true) &&
                            arith_.lessEq(at_launch, from, true));
  if (bound)
    facts.push_back(fact(*bound, v1::HOST_FACT_KIND_LOOP_BOUND, "loop: " + described, loop));
}

std::vector<Fact> HostValues::dominatingFacts() {
  std::vector<Fact> facts;
  const clang::Stmt *child = launch_;
  for (auto parents = ast_.getParents(*launch_); !parents.empty();
       parents = ast_.getParents(parents[0])) {
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      break;
    if (isa<clang::CompoundStmt>(parent)) {
      addPrecedingGuards(*parent, child, facts);
    } else if (auto *if_stmt = dyn_cast<clang::IfStmt>(parent)) {
      if (child == if_stmt->getThen() || child == if_stmt->getElse())
        addCondition(if_stmt->getCond(), child == if_stmt->getThen(),
                     v1::HOST_FACT_KIND_ASSERT, "enclosing condition: ", *parent,
                     facts);
    } else if (auto *loop = dyn_cast<clang::ForStmt>(parent)) {
      if (child == loop->getBody())
        addLoopFacts(*loop, loop->getCond(), *loop->getBody(), facts);
    } else if (auto *loop = dyn_cast<clang::WhileStmt>(parent)) {
      if (child == loop->getBody())
        addLoopFacts(*loop, loop->getCond(), *loop->getBody(), facts);
    }
    child = parent;
  }
  if (caller_)
    for (Fact &fact : caller_->dominatingFacts())
      facts.push_back(std::move(fact));
  return facts;
}

namespace {

// Where a host pointer gets its memory: a cudaMalloc-style call that
// writes it, or an initializer or assignment from malloc, calloc or new[].
struct AllocationFinder : clang::RecursiveASTVisitor<AllocationFinder> {
  const clang::VarDecl *pointer = nullptr;
  std::vector<const clang::Expr *> allocations;

  static bool allocates(const clang::Expr *e) {
    e = e->IgnoreParenCasts();
    if (isa<clang::CXXNewExpr>(e))
      return true;
    auto *call = dyn_cast<clang::CallExpr>(e);
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    return callee && (callee->getName() == "malloc" || callee->getName() == "calloc");
  }
  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || call->getNumArgs() < 2)
      return true;
    std::string name = callee->getNameAsString();
    if ((name == "cudaMalloc" || name == "cudaMallocManaged" ||
         name == "cudaMallocPitch" || name == "cudaMallocHost" ||
         name == "cudaHostAlloc") &&
        referencedVar(call->getArg(0)) == pointer)
      allocations.push_back(call);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->getOpcode() == clang::BO_Assign && referencedVar(op->getLHS()) == pointer &&
        allocates(op->getRHS()))
      allocations.push_back(op->getRHS()->IgnoreParenCasts());
    return true;
  }
};

// Calls that change a std::vector's size after it was constructed.
bool resized(const clang::Stmt *body, const clang::VarDecl &vector) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::VarDecl *vector;
    bool found = false;
    bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *call) {
      llvm::StringRef name = call->getMethodDecl() ? call->getMethodDecl()->getName() : "";
      if (referencedVar(call->getImplicitObjectArgument()) == vector &&
          (name == "resize" || name == "push_back" || name == "emplace_back" ||
           name == "assign" || name == "insert" || name == "erase" ||
           name == "clear" || name == "swap" || name == "pop_back"))
        found = true;
      return true;
    }
  } finder;
  finder.vector = &vector;
  finder.TraverseStmt(const_cast<clang::Stmt *>(body));
  return finder.found;
}

} // namespace

std::optional<z3::expr> HostValues::vectorBytes(const clang::Expr *pointer_arg,
                                                std::string &name) {
  auto *call = dyn_cast<clang::CXXMemberCallExpr>(pointer_arg->IgnoreParenCasts());
  if (!call || !call->getMethodDecl() || call->getMethodDecl()->getName() != "data")
    return std::nullopt;
  const clang::VarDecl *vector = referencedVar(call->getImplicitObjectArgument());
  const clang::CXXRecordDecl *record =
      vector ? vector->getType()->getAsCXXRecordDecl() : nullptr;
  auto *construct = vector ? dyn_cast_or_null<clang::CXXConstructExpr>(
                                 vector->getInit() ? vector->getInit()->IgnoreImplicit()
                                                   : nullptr)
                           : nullptr;
  if (!record || record->getQualifiedNameAsString() != "std::vector" || !construct ||
      construct->getNumArgs() == 0 ||
      !construct->getArg(0)->getType()->isIntegerType() ||
      assignedOutsideInit(*vector) || resized(host_->getBody(), *vector))
    return std::nullopt;
  clang::QualType element = call->getType()->getPointeeType();
  auto count = value(construct->getArg(0));
  if (!count || element.isNull() || element->isIncompleteType())
    return std::nullopt;
  name = vector->getNameAsString();
  return arith_.mul(*count, arith_.constant(ast_.getTypeSizeInChars(element).getQuantity(),
                                            kInt64));
}

std::optional<z3::expr> HostValues::volumeBytes(const clang::Expr *pointer_arg,
                                                std::string &name,
                                                std::vector<Fact> &facts) {
  auto *member = dyn_cast<clang::MemberExpr>(pointer_arg->IgnoreParenCasts());
  auto *ref = member ? dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts())
                     : nullptr;
  auto *volume = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!volume || member->getMemberDecl()->getName() != "ptr")
    return std::nullopt;
  // cudaMalloc3D(&volume, extent), the extent from make_cudaExtent(w, h, d).
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::VarDecl *volume;
    std::vector<const clang::CallExpr *> calls;
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getName() == "cudaMalloc3D" && call->getNumArgs() == 2 &&
          referencedVar(call->getArg(0)) == volume)
        calls.push_back(call);
      return true;
    }
  } finder;
  finder.volume = volume;
  finder.TraverseStmt(host_->getBody());
  if (finder.calls.size() != 1)
    return std::nullopt;
  const clang::Expr *extent = finder.calls.front()->getArg(1)->IgnoreImplicit();
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(extent))
    extent = temp->getSubExpr()->IgnoreImplicit();
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(extent))
    if (construct->getNumArgs() == 1)
      extent = construct->getArg(0)->IgnoreImplicit();
  if (const clang::VarDecl *local = referencedVar(extent))
    if (local->getInit() && !assignedOutsideInit(*local))
      extent = local->getInit()->IgnoreImplicit();
  auto *make = dyn_cast<clang::CallExpr>(extent->IgnoreImplicit());
  if (!make || !make->getDirectCallee() ||
      make->getDirectCallee()->getName() != "make_cudaExtent" || make->getNumArgs() != 3)
    return std::nullopt;
  auto width = value(make->getArg(0)), height = value(make->getArg(1)),
       depth = value(make->getArg(2));
  if (!width || !height || !depth)
    return std::nullopt;
  z3::expr pitch = fieldSymbolFor(*volume, "pitch");
  facts.push_back(fact(arith_.lessEq(*width, pitch, true), v1::HOST_FACT_KIND_ALLOCATION,
                       "pitch of '" + volume->getNameAsString() + "' >= its width",
                       *finder.calls.front()));
  name = volume->getNameAsString() + ".ptr";
  return arith_.mul(arith_.mul(pitch, *height), *depth);
}

std::optional<z3::expr> HostValues::bytesOf(const clang::Expr &allocation,
                                            const clang::VarDecl &pointer,
                                            std::string &text, std::vector<Fact> &facts) {
  const clang::SourceManager &sources = ast_.getSourceManager();
  if (auto *array = dyn_cast<clang::CXXNewExpr>(&allocation)) {
    clang::QualType element = array->getAllocatedType();
    if (element->isIncompleteType() || element->isDependentType())
      return std::nullopt;
    z3::expr size = arith_.constant(ast_.getTypeSizeInChars(element).getQuantity(), kInt64);
    if (!array->isArray()) {
      text = "sizeof(" + element.getAsString() + ")";
      return size;
    }
    auto count = array->getArraySize() ? value(*array->getArraySize()) : std::nullopt;
    if (!count)
      return std::nullopt;
    text = sourceText((*array->getArraySize())->getSourceRange(), sources) + " elements";
    return arith_.mul(*count, size);
  }
  auto *call = dyn_cast<clang::CallExpr>(&allocation);
  std::string name = call->getDirectCallee()->getNameAsString();
  if (name == "calloc") {
    auto count = value(call->getArg(0)), size = value(call->getArg(1));
    if (!count || !size)
      return std::nullopt;
    text = sourceText(call->getSourceRange(), sources);
    return arith_.mul(*count, *size);
  }
  if (name == "cudaMallocPitch" && call->getNumArgs() >= 4) {
    const clang::VarDecl *pitch_var = referencedVar(call->getArg(1));
    auto width = value(call->getArg(2)), height = value(call->getArg(3));
    if (!pitch_var || !width || !height)
      return std::nullopt;
    z3::expr pitch = symbolFor(*pitch_var);
    facts.push_back(fact(arith_.lessEq(*width, pitch, true), v1::HOST_FACT_KIND_ALLOCATION,
                         "pitch of '" + pointer.getNameAsString() + "' >= its width",
                         *call));
    text = "pitch * height";
    return arith_.mul(pitch, *height);
  }
  // malloc(bytes), cudaMalloc(&p, bytes) and the like: the bytes argument.
  const clang::Expr *bytes = call->getArg(name == "malloc" ? 0 : 1);
  text = sourceText(bytes->getSourceRange(), sources) + " bytes";
  return value(bytes);
}

std::optional<z3::expr> HostValues::allocationBytes(const clang::Expr *pointer_arg,
                                                    std::vector<Fact> &facts) {
  const clang::VarDecl *pointer = referencedVar(pointer_arg);
  if (const clang::Expr *arg = pointer ? argumentFor(*pointer) : nullptr)
    return caller_->allocationBytes(arg, facts);
  if (!host_ || !host_->hasBody())
    return std::nullopt;
  std::string name, text;
  const clang::Stmt *at = pointer_arg;
  std::optional<z3::expr> bytes = vectorBytes(pointer_arg, name);
  if (bytes) {
    text = "its elements";
  } else if ((bytes = volumeBytes(pointer_arg, name, facts))) {
    text = "pitch * height * depth bytes";
  } else {
    if (!pointer || !pointer_arg->IgnoreParenCasts()->getType()->isPointerType() ||
        !isa<clang::DeclRefExpr>(pointer_arg->IgnoreParenCasts()))
      return std::nullopt;
    AllocationFinder finder;
    finder.pointer = pointer;
    if (pointer->getInit() && AllocationFinder::allocates(pointer->getInit()))
      finder.allocations.push_back(pointer->getInit()->IgnoreParenCasts());
    finder.TraverseStmt(host_->getBody());
    if (finder.allocations.size() != 1)
      return std::nullopt; // none, or reallocated: the size is not one value
    at = finder.allocations.front();
    bytes = bytesOf(*finder.allocations.front(), *pointer, text, facts);
    name = pointer->getNameAsString();
  }
  if (!bytes)
    return std::nullopt;
  facts.push_back(fact(arith_.less(arith_.constant(0, kInt64), *bytes, true),
                       v1::HOST_FACT_KIND_ALLOCATION,
                       "'" + name + "' holds " + text +
                           " (> 0); accesses through it stay inside",
                       *at));
  return bytes;
}

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

namespace {

// `p = q` for a pointer `p`: q is neither an allocation nor null.
bool copiesPointer(const clang::Expr *from, clang::ASTContext &ast) {
  from = from->IgnoreParenCasts();
  return !isa<clang::CXXNewExpr>(from) && !isa<clang::CallExpr>(from) &&
         !from->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull);
}

} // namespace

bool HostValues::reassignedPointer(const clang::VarDecl &var) const {
  for (const clang::Stmt *write : environment_.writesOf(var)) {
    auto *assign = dyn_cast<clang::BinaryOperator>(write);
    if (!assign || !referencedVar(assign->getLHS()) ||
        referencedVar(assign->getLHS()) != &var)
      continue;
    if (copiesPointer(assign->getRHS(), ast_))
      return true; // `p = q`: p may point into q's buffer
  }
  return false;
}


bool HostValues::reassignedField(const clang::FieldDecl &field) const {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::FieldDecl *field;
    clang::ASTContext *ast;
    bool found = false;
    bool VisitBinaryOperator(clang::BinaryOperator *op) {
      auto *member = dyn_cast<clang::MemberExpr>(op->getLHS()->IgnoreParenCasts());
      if (op->isAssignmentOp() && member && member->getMemberDecl() == field &&
          (op->getOpcode() != clang::BO_Assign || copiesPointer(op->getRHS(), *ast)))
        found = true;
      return !found;
    }
  } finder;
  finder.field = &field;
  finder.ast = &ast_;
  if (!host_ || !host_->hasBody())
    return true;
  finder.TraverseStmt(host_->getBody());
  return finder.found;
}

HostValues::PointerOrigin HostValues::fieldOrigin(const clang::MemberExpr &member) {
  auto *field = dyn_cast<clang::FieldDecl>(member.getMemberDecl());
  const clang::Expr *base = member.getBase()->IgnoreParenImpCasts();
  std::optional<int64_t> element = 0;
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(base)) {
    clang::Expr::EvalResult index;
    element.reset();
    if (!subscript->getIdx()->isValueDependent() &&
        subscript->getIdx()->EvaluateAsInt(index, ast_))
      element = index.Val.getInt().getExtValue();
    base = subscript->getBase()->IgnoreParenImpCasts();
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(base);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (member.isArrow() || !field || !var || !var->isLocalVarDecl() || reassignedField(*field))
    return {};
  return {var, arith_.constant(0, kInt64), field, element};
}

HostValues::PointerOrigin HostValues::pointerOrigin(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  auto elementBytes = [&](const clang::Expr *pointer) {
    clang::QualType pointee = pointer->getType()->getPointeeType();
    int64_t bytes = pointee.isNull() || pointee->isIncompleteType()
                        ? 1
                        : ast_.getTypeSizeInChars(pointee).getQuantity();
    return arith_.constant(bytes, kInt64);
  };
  // `pointer + count` elements: the count moves the offset, if it is known.
  auto advanced = [&](const clang::Expr *pointer, const clang::Expr *count, bool back) {
    PointerOrigin origin = pointerOrigin(pointer);
    std::optional<z3::expr> n = value(count);
    if (!origin.offset || !n) {
      origin.offset.reset();
      return origin;
    }
    z3::expr bytes = arith_.mul(*n, elementBytes(pointer));
    origin.offset = back ? arith_.sub(*origin.offset, bytes) : arith_.add(*origin.offset, bytes);
    return origin;
  };
  if (auto *binary = dyn_cast<clang::BinaryOperator>(e)) {
    if (!binary->isAdditiveOp())
      return {};
    bool pointer_left = binary->getLHS()->getType()->isPointerType();
    return advanced(pointer_left ? binary->getLHS() : binary->getRHS(),
                    pointer_left ? binary->getRHS() : binary->getLHS(),
                    binary->getOpcode() == clang::BO_Sub);
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e)) {
    if (unary->getOpcode() != clang::UO_AddrOf)
      return {};
    const clang::Expr *target = unary->getSubExpr()->IgnoreParenCasts();
    if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(target)) // `&p[i]`
      return advanced(subscript->getBase(), subscript->getIdx(), false);
    return {pointerOrigin(target).root, std::nullopt}; // `&x`
  }
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
    return {pointerOrigin(subscript->getBase()).root, std::nullopt};
  if (auto *member = dyn_cast<clang::MemberExpr>(e))
    return fieldOrigin(*member);
  if (auto *call = dyn_cast<clang::CXXMemberCallExpr>(e)) { // v.data()
    PointerOrigin origin = pointerOrigin(call->getImplicitObjectArgument());
    if (!call->getMethodDecl() || call->getMethodDecl()->getName() != "data")
      origin.offset.reset();
    return origin;
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var)
    return {};
  if (const clang::Expr *arg = argumentFor(*var))
    return caller_->pointerOrigin(arg);
  if (const clang::Expr *init = viewInitializer(*var))
    return pointerOrigin(init);
  if (reassignedPointer(*var))
    return {};
  return {var, arith_.constant(0, kInt64)};
}

} // namespace gpurace::analyzer
