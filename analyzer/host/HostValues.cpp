#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;


namespace {

// Solver effort for proving that a loop's writes keep a property: the
// queries are a few terms; one that needs more proves nothing.
constexpr unsigned kInvariantEffort = 200000;

} // namespace

HostValues::HostValues(clang::ASTContext &ast, SymbolSpace &symbols,
                       const clang::FunctionDecl *host, const clang::Expr *launch,
                       HostValues *caller)
    : ast_(ast), symbols_(symbols), arith_(symbols.arith()), host_(host),
      launch_(launch), caller_(caller), environment_(ast, host),
      unknowns_(caller ? caller->unknowns_
                       : std::make_shared<std::map<std::string, v1::Imprecision>>()),
      induction_values_(caller ? caller->induction_values_
                               : std::make_shared<std::set<std::string>>()),
      invariants_(caller ? caller->invariants_
                         : std::make_shared<HostConditions>(std::vector<Fact>{},
                                                            symbols.context(), kInvariantEffort)),
      following_families_(caller ? caller->following_families_
                                 : std::make_shared<std::set<const clang::VarDecl *>>()) {}

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

// C's signed division truncates toward zero, and its remainder takes the
// dividend's sign; the solver's integer div and mod round down (for a
// positive divisor). A size read from the command line may be negative:
// `(n + 1) / 2` of n == -2 is 0, not -1.
z3::expr cDivision(const Arith &arith, const z3::expr &a, const z3::expr &b, bool is_signed,
                   bool remainder) {
  auto solverOp = [&](const z3::expr &x) {
    return remainder ? arith.rem(x, b, is_signed) : arith.div(x, b, is_signed);
  };
  if (arith.mode() != OverflowMode::Math || !is_signed || !a.is_int())
    return solverOp(a);
  std::optional<int64_t> known = Arith::numeral(a, true);
  if (known && *known >= 0)
    return solverOp(a);
  z3::expr zero = a.ctx().int_val(0);
  return z3::ite(a >= zero, solverOp(a), -solverOp(-a));
}

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

// `make_uint3(x, y, z)` and the toolkit's other vector makers (`make_int2`,
// `make_float4`, ...): one argument per field, x first.
const clang::Expr *vectorMakerArgument(const clang::Expr *e, const std::string &field) {
  auto *call = dyn_cast_or_null<clang::CallExpr>(e ? e->IgnoreParenImpCasts() : nullptr);
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  const clang::RecordDecl *made = call ? call->getType()->getAsRecordDecl() : nullptr;
  int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : field == "w" ? 3 : -1;
  if (!callee || !made || axis < 0 || axis >= static_cast<int>(call->getNumArgs()) ||
      callee->getNameAsString() != "make_" + made->getNameAsString())
    return nullptr;
  return call->getArg(axis);
}

} // namespace

std::optional<z3::expr> HostValues::valueAt(const clang::VarDecl &var, const std::string &field,
                                            const clang::Stmt &point) {
  if (field.empty() && !var.getType().getNonReferenceType()->isIntegralOrEnumerationType() &&
      !holdsWholeNumbers(var))
    return std::nullopt;
  auto key = std::make_tuple(&var, field, &point);
  bool local = var.isLocalVarDecl() && !var.isStaticLocal();
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  bool own_param = param && param->getDeclContext() == host_;
  if (following_.count(key))
    return symbolOf(var, field);
  if (const clang::CallExpr *call = lambdaCall(var))
    return caller_->valueAt(var, field, *call);
  if (var.getType().isVolatileQualified())
    return unknownSymbolOf(var, field, "is volatile", nullptr);
  if (!local && !own_param)
    if (std::optional<std::string> reason = unfollowedGlobal(var))
      return unknownSymbolOf(var, field, *reason, nullptr);
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

const clang::CallExpr *HostValues::lambdaCall(const clang::VarDecl &var) const {
  // A lambda's body reads a variable of an enclosing function through its
  // capture (`dim3 grid(n / 256); dispatch([&] { k<<<grid, 256>>>(); })`):
  // its value is the one the caller has at the call, a frame further up
  // for a lambda nested in a lambda.
  auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(host_);
  if (!method || !method->getParent()->isLambda() || !var.hasLocalStorage())
    return nullptr;
  if (dyn_cast_or_null<clang::FunctionDecl>(var.getParentFunctionOrMethod()) == host_)
    return nullptr;
  auto *call = caller_ ? dyn_cast<clang::CallExpr>(caller_->launch_) : nullptr;
  return call && &caller_->ast_ == &ast_ ? call : nullptr;
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
  for (const Definition::Choice &choice : definition.conditions) {
    if (auto *switch_stmt = dyn_cast<clang::SwitchStmt>(choice.branch)) {
      taken = taken && switchTaken(*switch_stmt, choice.entry);
      continue;
    }
    auto *branch = clang::cast<clang::IfStmt>(choice.branch);
    auto known = branch_conditions_.find(branch);
    if (known == branch_conditions_.end())
      known = branch_conditions_.emplace(branch, conditionValue(*branch->getCond())).first;
    taken = taken && (choice.holds ? known->second : !known->second);
  }
  return taken;
}

z3::expr HostValues::switchTaken(const clang::SwitchStmt &switch_stmt, const EntryLabels &entry) {
  auto known = switch_conditions_.find(&switch_stmt);
  if (known == switch_conditions_.end()) {
    std::optional<z3::expr> tested = value(switch_stmt.getCond());
    // The walk that chose the entry read the labels.
    std::optional<SwitchLabels> labels = readSwitchLabels(switch_stmt, ast_);
    known = switch_conditions_
                .emplace(&switch_stmt,
                         SwitchCondition{tested ? *tested
                                                : symbols_.freshShared("host:switch", kInt64),
                                         labels ? labels->all_values : std::set<int64_t>()})
                .first;
  }
  return switchEntered(known->second.value, entry, known->second.all_values);
}

z3::expr HostValues::conditionValue(const clang::Expr &condition) {
  std::optional<z3::expr> holds = value(&condition);
  return holds ? arith_.toBool(*holds)
               : arith_.toBool(symbols_.freshShared("host:branch", kInt64));
}

z3::expr HostValues::definitionValue(const Definition &definition, const clang::VarDecl &var,
                                     const std::string &field) {
  if (definition.kind == Definition::Kind::OnEntry)
    return onEntry(var, field);
  // The loop's facts (HostGuards) bound the counter's symbol.
  if (definition.kind == Definition::Kind::Iterated)
    return symbolOf(var, field);
  if (definition.kind == Definition::Kind::Unknown)
    return unknownSymbolOf(var, field, definition.reason, definition.at);
  if (definition.kind == Definition::Kind::Exchanged)
    return exchangedValue(definition, var);
  if (definition.kind == Definition::Kind::RangeElement)
    return rangeElementValue(definition, var);
  auto key = std::make_tuple(definition.at, &var, field);
  auto cached = definition_values_.find(key);
  if (cached != definition_values_.end())
    return cached->second;
  z3::expr out = definition.kind == Definition::Kind::Updated ? updatedValue(definition, var, field)
                 : definition.kind == Definition::Kind::PassedOut
                     ? passedOutValue(definition, var, field)
                 : definition.kind == Definition::Kind::LeftByLoop
                     ? leftByLoop(definition, var, field)
                     : assignedValue(definition, var, field);
  definition_values_.emplace(key, out);
  return out;
}

z3::expr HostValues::assignedValue(const Definition &definition, const clang::VarDecl &var,
                                   const std::string &field) {
  std::optional<z3::expr> out;
  if (!field.empty() && definition.whole)
    out = fieldOfStruct(*definition.value, var, field);
  else
    out = value(definition.value);
  if (out)
    return *out;
  return unknownSymbolOf(var, field,
                         "set from '" + shortSourceText(*definition.value, ast_.getSourceManager()) +
                             "', which is not an integer",
                         definition.at);
}

z3::expr HostValues::updatedValue(const Definition &definition, const clang::VarDecl &var,
                                  const std::string &field) {
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
      case clang::BO_DivAssign: out = cDivision(arith_, before, *by, is_signed, false); break;
      case clang::BO_RemAssign: out = cDivision(arith_, before, *by, is_signed, true); break;
      case clang::BO_ShlAssign: out = arith_.shiftLeft(before, *by); break;
      case clang::BO_ShrAssign: out = arith_.shiftRight(before, *by, is_signed); break;
      case clang::BO_AndAssign: out = arith_.bitAnd(before, *by); break;
      case clang::BO_OrAssign: out = arith_.bitOr(before, *by); break;
      case clang::BO_XorAssign: out = arith_.bitXor(before, *by); break;
      default: break;
      }
    }
  }
  if (out)
    return *out;
  return unknownSymbolOf(var, field,
                         "changed by '" + shortSourceText(*definition.at, ast_.getSourceManager()) + "'",
                         definition.at);
}

z3::expr HostValues::fieldOfStruct(const clang::Expr &struct_value, const clang::VarDecl &var,
                                   const std::string &field) {
  const clang::RecordDecl *record = recordOf(var);
  std::string shown = shortSourceText(struct_value, ast_.getSourceManager());
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
  // `grid = make_uint3(n, 1, 1)`, through dim3's constructor from a uint3.
  if (const clang::Expr *made = vectorMakerArgument(init ? init : whole, field))
    if (std::optional<z3::expr> out = value(made))
      return *out;
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

z3::expr HostValues::onEntry(const clang::VarDecl &var, const std::string &field) {
  if (&var == entry_param_ && entry_value_)
    return *entry_value_;
  if (isGlobalVariable(var))
    return globalOnEntry(var, field);
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  if (const clang::Expr *arg = callArgument(var)) {
    std::optional<z3::expr> passed =
        field.empty() ? caller_->value(arg) : caller_->structField(arg, field);
    if (passed)
      return *passed;
  }
  if (std::optional<z3::expr> defaulted = defaultArgument(var))
    return *defaulted;
  if (param && !caller_ && !entry_param_ && host_)
    return unknownSymbolOf(var, field,
                           "is a parameter of '" + host_->getNameAsString() +
                               "', which no visible code calls",
                           nullptr);
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
  const clang::DeclRefExpr *ref = structVariable(*struct_arg);
  if (!ref)
    return std::nullopt;
  auto *var = clang::cast<clang::VarDecl>(ref->getDecl());
  if (const clang::Expr *passed = argumentFor(*var))
    return caller_->structField(passed, field);
  if (isa<clang::ParmVarDecl>(var) && !lambdaCall(*var) && !environment_.written(*var))
    return std::nullopt;
  return valueAt(*var, field, *ref);
}

z3::expr HostValues::fieldSymbolFor(const clang::VarDecl &var, const std::string &field) {
  // One symbol per variable and field (`vol.pitch`), so that an argument
  // and the allocation facts speak of the same value.
  return symbols_.shared("host:" + var.getQualifiedNameAsString() + "." + field + "@" +
                             placeKey(var.getLocation()),
                         kInt64);
}

z3::expr HostValues::symbolFor(const clang::VarDecl &var) {
  // One symbol per variable: every use of it is related to every other.
  // Named by where it is declared, never by its address, so that the
  // solver sees the same names, and decides the same way, on every run.
  std::string name = "host:" + var.getQualifiedNameAsString() + "@" +
                     placeKey(var.getLocation());
  return symbols_.shared(name, kInt64);
}

const clang::Expr *HostValues::callArgument(const clang::VarDecl &var) const {
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  auto *call = caller_ ? dyn_cast<clang::CallExpr>(caller_->launch_) : nullptr;
  if (!call || !param || param->getDeclContext() != host_)
    return nullptr;
  unsigned index = param->getFunctionScopeIndex();
  if (index >= call->getNumArgs() || isa<clang::CXXDefaultArgExpr>(call->getArg(index)))
    return nullptr;
  return call->getArg(index);
}

std::optional<z3::expr> HostValues::defaultArgument(const clang::VarDecl &var) const {
  // `alignUp(n)` for `int alignUp(int n, int m = kAlign)`: the caller
  // leaves `m` to its default, which names no variable of the caller.
  auto *param = dyn_cast<clang::ParmVarDecl>(&var);
  auto *call = caller_ ? dyn_cast<clang::CallExpr>(caller_->launch_) : nullptr;
  if (!call || !param || param->getDeclContext() != host_)
    return std::nullopt;
  unsigned index = param->getFunctionScopeIndex();
  auto *defaulted = index < call->getNumArgs()
                        ? dyn_cast<clang::CXXDefaultArgExpr>(call->getArg(index))
                        : nullptr;
  std::optional<int64_t> constant =
      defaulted ? integerConstant(*defaulted->getExpr(), ast_) : std::nullopt;
  if (!constant)
    return std::nullopt;
  return arith_.constant(*constant, kInt64);
}

const clang::Expr *HostValues::argumentFor(const clang::VarDecl &var) const {
  return assignedOutsideInit(var) ? nullptr : callArgument(var);
}

std::string HostValues::placeKey(clang::SourceLocation loc) const {
  return stableKey(loc, ast_.getSourceManager());
}

std::string HostValues::callChainSuffix() const {
  std::string suffix;
  // Each caller's call is named in that caller's parse, which may be
  // another file's.
  for (const HostValues *frame = caller_; frame; frame = frame->caller_)
    if (frame->launch_)
      suffix += "<" + frame->placeKey(frame->launch_->getBeginLoc());
  return suffix;
}

z3::expr HostValues::memberOfThis(const clang::FieldDecl &field) {
  std::string name = field.getNameAsString();
  std::string owner = field.getParent()->getNameAsString();
  std::string method = host_ ? host_->getNameAsString() : "";
  if (environment_.writesMember(field)) {
    z3::expr changed = symbols_.freshShared("host:member", kInt64);
    noteUnknown(changed, "member '" + name + "' of '" + owner + "' is changed by '" + method + "'",
                owner + "::" + name, nullptr);
    return changed;
  }
  // The object's field as the caller has it (`m.scale()` on a local `m`).
  auto *call = caller_ ? dyn_cast<clang::CXXMemberCallExpr>(caller_->launch_) : nullptr;
  const clang::Expr *object = call ? call->getImplicitObjectArgument() : nullptr;
  if (object && !object->getType()->isPointerType())
    if (std::optional<z3::expr> passed = caller_->structField(object, name))
      return *passed;
  // One symbol for every reading of the member in this method, so that the
  // method's asserts over members (`assert(rows_ == cols_)`) constrain
  // what the launch passes.
  z3::expr symbol = symbols_.shared("host:this." + owner + "::" + name + "@" +
                                        (host_ ? host_->getQualifiedNameAsString() : ""),
                                    kInt64);
  noteUnknown(symbol, "member '" + name + "' of '" + owner + "' is set outside '" + method + "'",
              owner + "::" + name, nullptr);
  addRangeFact(symbol, field.getType(), name);
  return symbol;
}

std::string HostValues::unknownName(const clang::Expr &expr) const {
  // One symbol per expression and chain of calls to this frame: the frames
  // that read one evaluation of it (the launch's and a checking helper's
  // view of `n = atoi(argv[1])`) share it, two calls of one helper do not.
  return "host:unknown@" + placeKey(expr.getBeginLoc()) +
         callChainSuffix();
}

std::optional<z3::expr> HostValues::value(const clang::Expr *expr) {
  if (!expr)
    return std::nullopt;
  expr = expr->IgnoreParens();
  if (expr->getType()->isRealFloatingType())
    return floatValue(*expr).whole;
  if (!expr->getType()->isIntegralOrEnumerationType() &&
      !expr->getType()->isBooleanType())
    return std::nullopt;
  if (std::optional<int64_t> constant = integerConstant(*expr, ast_))
    return arith_.constant(*constant, kInt64);
  if (auto *cast = dyn_cast<clang::CastExpr>(expr)) {
    if (cast->getCastKind() != clang::CK_FloatingToIntegral)
      return value(cast->getSubExpr());
    if (std::optional<z3::expr> truncated = truncatedFloat(*expr, *cast->getSubExpr()))
      return truncated;
  }
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    if (auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      return valueAt(*var, "", *ref);
  if (auto *member = dyn_cast<clang::MemberExpr>(expr)) {
    // `b.x` of a struct variable, as the definitions reaching here set it.
    const clang::Expr *base = member->getBase()->IgnoreParenImpCasts();
    auto *ref = dyn_cast<clang::DeclRefExpr>(base);
    auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    auto *field_decl = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (isa<clang::CXXThisExpr>(base) && field_decl &&
        member->getType()->isIntegralOrEnumerationType())
      return memberOfThis(*field_decl);
    if (var && !member->isArrow() && member->getType()->isIntegralOrEnumerationType()) {
      std::string field = member->getMemberDecl()->getNameAsString();
      if (const clang::Expr *passed = argumentFor(*var))
        if (auto out = caller_->structField(passed, field))
          return out;
      if (auto out = valueAt(*var, field, *member))
        return out;
    }
  }
  // `(n = atoi(s)) <= 0`: an assignment's value is what it assigns.
  if (auto *assign = dyn_cast<clang::BinaryOperator>(expr);
      assign && assign->getOpcode() == clang::BO_Assign)
    return value(assign->getRHS());
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
      case clang::BO_Div: return cDivision(arith_, *a, *b, is_signed, false);
      case clang::BO_Rem: return cDivision(arith_, *a, *b, is_signed, true);
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
  if (auto *call = dyn_cast<clang::CallExpr>(expr->IgnoreParenImpCasts()))
    if (std::optional<z3::expr> returned = returnedValue(*call))
      return returned;
  if (auto *element = dyn_cast<clang::ArraySubscriptExpr>(expr->IgnoreParenImpCasts())) {
    if (std::optional<z3::expr> entry = tableElement(*element))
      return entry;
    if (std::optional<z3::expr> stored = elementValue(*element))
      return stored;
  }
  // A value the host reads from its input (argv, files, calls whose bodies
  // are not followed): unknown, constrained only by the facts around it.
  z3::expr unknown = symbols_.shared(unknownName(*expr), kInt64);
  std::string shown = shortSourceText(*expr, ast_.getSourceManager());
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


} // namespace gpurace::analyzer
