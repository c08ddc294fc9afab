//===- HostArrays.cpp - elements of host arrays the launch reads ----------===//
//
// `k<<<g, b>>>(w[l], s[l])` where the function filled `w` and `s` side by
// side (ElementWrites.h): each element read is one group's stores, the
// same group for every array of a family read at one index in one
// statement. A group inside a loop stores different values on each run,
// so its values are read with symbols of their own for each such read
// (the facts that hold of them copied over): what one run stored relates
// its elements to each other (`s = alignUp(w)`), not to another run's.
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/host/ElementWrites.h"
#include "analyzer/host/HostExpressions.h"
#include "analyzer/model/TermWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>

namespace gpurace::analyzer {

using clang::dyn_cast;

namespace {

// Constant tables longer than this are left unknown.
constexpr uint64_t kMaxTableEntries = 256;

// The statement of a block that holds `expr`: the reads of one index in it
// see one element, whatever runs before or after.
const clang::Stmt *enclosingStatement(const clang::Expr &expr, clang::ASTContext &ast) {
  const clang::Stmt *statement = &expr;
  for (const clang::Stmt *parent = parentStatement(ast, expr);
       parent && !clang::isa<clang::CompoundStmt>(parent); parent = parentStatement(ast, *parent))
    statement = parent;
  return statement;
}

// The groups that may have set the element `read` reads. A read at a
// constant index (`block[1]`) sees no group that stores at another
// constant index: `block[0] = 32; block[1] = 2;` sets two elements, not
// one of two values.
std::vector<const ElementWrites::Group *>
groupsStoringAt(const std::vector<const ElementWrites::Group *> &groups,
                const clang::ArraySubscriptExpr &read, const clang::ASTContext &ast) {
  std::optional<int64_t> index = integerConstant(*read.getIdx(), ast);
  if (!index)
    return groups;
  std::vector<const ElementWrites::Group *> storing;
  for (const ElementWrites::Group *group : groups) {
    std::optional<int64_t> stored_at = group->stores.begin()->second.constant_index;
    if (!stored_at || *stored_at == *index)
      storing.push_back(group);
  }
  return storing;
}

std::map<std::string, z3::expr> constantsOf(const z3::expr &e) {
  std::map<std::string, z3::expr> out;
  forEachSubterm(e, [&](const z3::expr &t) {
    if (t.is_const() && t.decl().decl_kind() == Z3_OP_UNINTERPRETED)
      out.emplace(t.decl().name().str(), t);
  });
  return out;
}

// Entry i of `values` where `index` is i; the last entry otherwise (past
// the end is undefined: the last stands for it).
z3::expr entryAt(const Arith &arith, const z3::expr &index, const std::vector<z3::expr> &values) {
  z3::expr out = values.back();
  for (size_t i = values.size() - 1; i-- > 0;)
    out = z3::ite(index == arith.constant(static_cast<int64_t>(i), kInt64), values[i], out);
  return out;
}

// The references to one variable in a function body.
class ReferenceFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit ReferenceFinder(const clang::VarDecl &var) : var_(var) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    if (ref->getDecl() == &var_)
      found.push_back(ref);
    return true;
  }
  std::vector<const clang::DeclRefExpr *> found;

private:
  const clang::VarDecl &var_;
};

bool pointsToConst(clang::QualType type, const clang::ASTContext &ast) {
  return type->isPointerType() &&
         ast.getBaseElementType(type->getPointeeType()).isConstQualified();
}

// Whether a use of an array only reads it: through subscripts to a value
// (`e[1][0]`), as a pointer to const (`f(e[1])` with `const double *`), or
// unevaluated (`sizeof e`).
bool readOnlyUse(const clang::DeclRefExpr &ref, clang::ASTContext &ast) {
  const clang::Expr *at = &ref;
  while (const clang::Stmt *parent = parentStatement(ast, *at)) {
    auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(parent);
    auto *cast = dyn_cast<clang::ImplicitCastExpr>(parent);
    if (clang::isa<clang::UnaryExprOrTypeTraitExpr>(parent) ||
        (cast && cast->getCastKind() == clang::CK_LValueToRValue))
      return true;
    bool passes = clang::isa<clang::ParenExpr>(parent) ||
                  (subscript && subscript->getBase() == at) ||
                  (cast && (cast->getCastKind() == clang::CK_ArrayToPointerDecay ||
                            cast->getCastKind() == clang::CK_NoOp));
    if (!passes)
      break;
    at = clang::cast<clang::Expr>(parent);
  }
  return pointsToConst(at->getType(), ast);
}

} // namespace

bool HostValues::readOnlyArray(const clang::VarDecl &var) {
  if (ast_.getBaseElementType(var.getType()).isConstQualified())
    return true;
  auto *function = clang::dyn_cast_or_null<clang::FunctionDecl>(var.getParentFunctionOrMethod());
  if (!var.isLocalVarDecl() || var.isStaticLocal() || !function || !function->getBody())
    return false;
  auto known = read_only_arrays_.find(&var);
  if (known != read_only_arrays_.end())
    return known->second;
  ReferenceFinder finder(var);
  finder.TraverseStmt(function->getBody());
  bool read_only = std::all_of(finder.found.begin(), finder.found.end(),
                               [&](const clang::DeclRefExpr *ref) { return readOnlyUse(*ref, ast_); });
  read_only_arrays_.emplace(&var, read_only);
  return read_only;
}

HostValues::FloatValue HostValues::floatTableElement(const clang::ArraySubscriptExpr &read) {
  std::vector<int64_t> indices;
  const clang::Expr *at = &read;
  while (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(at->IgnoreParenImpCasts())) {
    std::optional<int64_t> index = integerConstant(*subscript->getIdx(), ast_);
    if (!index || *index < 0)
      return {};
    indices.insert(indices.begin(), *index);
    at = subscript->getBase();
  }
  auto *ref = dyn_cast<clang::DeclRefExpr>(at->IgnoreParenImpCasts());
  auto *table = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!table || !table->getType()->isConstantArrayType() || !table->getInit() ||
      !readOnlyArray(*table))
    return {};
  const clang::Expr *entry = table->getInit()->IgnoreImplicit();
  clang::QualType type = table->getType();
  for (int64_t index : indices) {
    const auto *shape = ast_.getAsConstantArrayType(type);
    auto *list = dyn_cast<clang::InitListExpr>(entry);
    if (!shape || !list || static_cast<uint64_t>(index) >= shape->getSize().getZExtValue())
      return {};
    type = shape->getElementType();
    if (static_cast<unsigned>(index) >= list->getNumInits()) {
      entry = list->getArrayFiller();
      if (!entry)
        return {};
    } else {
      entry = list->getInit(static_cast<unsigned>(index))->IgnoreImplicit();
    }
  }
  if (!type->isRealFloatingType() && !type->isIntegralOrEnumerationType())
    return {};
  if (clang::isa<clang::ImplicitValueInitExpr>(entry)) {
    FloatValue zero;
    zero.whole = arith_.constant(0, kInt64);
    zero.low = zero.high = 0;
    return zero;
  }
  return floatValue(*entry);
}

std::optional<z3::expr> HostValues::tableElement(const clang::ArraySubscriptExpr &read) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(read.getBase()->IgnoreParenImpCasts());
  auto *table = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  const auto *shape = table ? ast_.getAsConstantArrayType(table->getType()) : nullptr;
  if (!shape || !ast_.getBaseElementType(table->getType()).isConstQualified() ||
      !shape->getElementType()->isIntegralOrEnumerationType() || !table->getInit())
    return std::nullopt;
  auto *entries = dyn_cast<clang::InitListExpr>(table->getInit()->IgnoreImplicit());
  uint64_t size = shape->getSize().getZExtValue();
  if (!entries || size == 0 || size > kMaxTableEntries)
    return std::nullopt;
  std::vector<int64_t> values(size, 0);
  for (unsigned i = 0; i < entries->getNumInits() && i < size; ++i) {
    std::optional<int64_t> entry = integerConstant(*entries->getInit(i), ast_);
    if (!entry)
      return std::nullopt;
    values[i] = *entry;
  }
  std::optional<z3::expr> index = value(read.getIdx());
  if (!index)
    return std::nullopt;
  std::vector<z3::expr> constants;
  for (int64_t v : values)
    constants.push_back(arith_.constant(v, kInt64));
  return entryAt(arith_, *index, constants);
}

std::optional<z3::expr> HostValues::elementValue(const clang::ArraySubscriptExpr &read) {
  const clang::VarDecl *array = ElementWrites::arrayOf(read);
  if (!array || !host_)
    return std::nullopt;
  if (!element_writes_)
    element_writes_ = std::make_shared<const ElementWrites>(ast_, host_);
  const auto *groups = element_writes_->groupsOf(*array);
  const clang::VarDecl *family = element_writes_->familyOf(*array);
  // A store's value that reads the family again is not followed twice.
  if (!groups || !family || following_families_->count(family))
    return std::nullopt;
  const clang::Stmt *statement = enclosingStatement(read, ast_);
  std::string index = shortSourceText(*read.getIdx(), ast_.getSourceManager());
  auto key = std::make_tuple(family, statement, index);
  auto known = element_reads_.find(key);
  if (known == element_reads_.end()) {
    std::string name = placeKey(statement->getBeginLoc()) + ":" + index +
                       callChainSuffix();
    following_families_->insert(family);
    std::vector<const ElementWrites::Group *> storing = groupsStoringAt(*groups, read, ast_);
    std::optional<std::map<const clang::VarDecl *, z3::expr>> values;
    if (!storing.empty())
      values = familyElements(storing, name);
    following_families_->erase(family);
    known = element_reads_.emplace(key, std::move(values)).first;
  }
  if (!known->second)
    return std::nullopt;
  return known->second->at(array);
}

z3::expr HostValues::rangeElementValue(const Definition &definition, const clang::VarDecl &var) {
  auto *loop = clang::cast<clang::CXXForRangeStmt>(definition.at);
  auto unknown = [&](const std::string &why) {
    return unknownSymbolOf(var, "", why, definition.at);
  };
  std::string name = "range@" + placeKey(loop->getBeginLoc()) +
                     callChainSuffix();
  const clang::Expr *range = loop->getRangeInit()->IgnoreImplicit();
  if (auto *list = dyn_cast<clang::CXXStdInitializerListExpr>(range))
    range = list->getSubExpr()->IgnoreImplicit();
  if (auto *list = dyn_cast<clang::InitListExpr>(range))
    return listEntry(*list, name).value_or(
        unknown("an entry of a list whose values the host code does not follow"));
  auto *ref = dyn_cast<clang::DeclRefExpr>(range->IgnoreParenImpCasts());
  auto *array = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  const auto *shape = array ? ast_.getAsConstantArrayType(array->getType()) : nullptr;
  if (!shape || !host_)
    return unknown("an element of a range the host code does not follow");
  // Entries past the initializer's are zero, which no store states.
  auto *entries = array->getInit()
                      ? dyn_cast<clang::InitListExpr>(array->getInit()->IgnoreImplicit())
                      : nullptr;
  if (entries && entries->getNumInits() < shape->getSize().getZExtValue())
    return unknown("an element of '" + array->getNameAsString() + "', zero past its initializer");
  if (!element_writes_)
    element_writes_ = std::make_shared<const ElementWrites>(ast_, host_);
  const auto *groups = element_writes_->groupsOf(*array);
  const clang::VarDecl *family = element_writes_->familyOf(*array);
  if (!groups || groups->empty() || !family || following_families_->count(family))
    return unknown("an element of '" + array->getNameAsString() + "', set in ways not followed");
  following_families_->insert(family);
  std::optional<std::map<const clang::VarDecl *, z3::expr>> values =
      familyElements(*groups, name);
  following_families_->erase(family);
  if (!values || !values->count(array))
    return unknown("an element of '" + array->getNameAsString() + "', set in ways not followed");
  return values->at(array);
}

std::optional<z3::expr> HostValues::listEntry(const clang::InitListExpr &list,
                                              const std::string &name) {
  if (list.getNumInits() == 0)
    return std::nullopt;
  std::vector<z3::expr> entries;
  for (const clang::Expr *entry : list.inits()) {
    std::optional<z3::expr> v = value(entry);
    if (!v)
      return std::nullopt;
    entries.push_back(*v);
  }
  return entryAt(arith_, symbols_.shared("host:entry@" + name, kInt64), entries);
}

std::optional<std::map<const clang::VarDecl *, z3::expr>>
HostValues::familyElements(const std::vector<const ElementWrites::Group *> &groups,
                           const std::string &name) {
  // What each group stores into each array, those of groups in a loop
  // with symbols of their own for this read.
  std::vector<std::map<const clang::VarDecl *, z3::expr>> stored;
  std::vector<z3::expr> in_loops;
  for (const ElementWrites::Group *group : groups) {
    std::map<const clang::VarDecl *, z3::expr> values;
    for (const auto &[array, store] : group->stores) {
      std::optional<z3::expr> v = value(store.value);
      if (!v)
        return std::nullopt;
      values.emplace(array, *v);
      if (group->in_loop)
        in_loops.push_back(*v);
    }
    stored.push_back(std::move(values));
  }
  Renaming renaming = freshRun(in_loops, "#" + name);
  z3::expr selector = symbols_.shared("host:element@" + name, kInt64);
  std::map<const clang::VarDecl *, z3::expr> out;
  for (const auto &[array, last] : stored.back()) {
    // A group may also store an array outside the family (one that other
    // groups fill as well): only the arrays every group stores are read.
    bool in_every_group = true;
    for (const auto &values : stored)
      in_every_group = in_every_group && values.count(array);
    if (!in_every_group)
      continue;
    z3::expr chosen = groups.back()->in_loop ? renamed(last, renaming) : last;
    for (size_t i = stored.size() - 1; i-- > 0;) {
      z3::expr v = stored[i].at(array);
      chosen = z3::ite(selector == arith_.constant(static_cast<int64_t>(i), kInt64),
                       groups[i]->in_loop ? renamed(v, renaming) : v, chosen);
    }
    out.emplace(array, chosen);
  }
  return out;
}

HostValues::Renaming HostValues::freshRun(const std::vector<z3::expr> &values,
                                          const std::string &suffix) {
  z3::context &c = arith_.context();
  Renaming renaming{z3::expr_vector(c), z3::expr_vector(c)};
  std::map<std::string, z3::expr> symbols;
  for (const z3::expr &v : values)
    for (auto &[name, symbol] : constantsOf(v))
      symbols.emplace(name, symbol);
  if (symbols.empty())
    return renaming;
  // The symbols the facts tie to them are renamed with them (the value a
  // followed helper returns, stated apart from its body's), so that the
  // copied facts relate the run's values as the originals do.
  std::vector<Fact> facts = valueFacts();
  std::vector<std::map<std::string, z3::expr>> mentioned;
  for (const Fact &fact : facts)
    mentioned.push_back(constantsOf(fact.term));
  std::vector<bool> tied(facts.size(), false);
  for (bool grown = true; grown;) {
    grown = false;
    for (size_t i = 0; i < facts.size(); ++i) {
      bool meets = false;
      for (const auto &entry : mentioned[i])
        meets = meets || symbols.count(entry.first);
      if (tied[i] || !meets)
        continue;
      tied[i] = grown = true;
      symbols.insert(mentioned[i].begin(), mentioned[i].end());
    }
  }
  for (const auto &[name, symbol] : symbols) {
    renaming.from.push_back(symbol);
    renaming.to.push_back(c.constant((name + suffix).c_str(), symbol.get_sort()));
    auto unknown = unknowns_->find(name);
    if (unknown != unknowns_->end())
      unknowns_->emplace(name + suffix, v1::Imprecision(unknown->second));
  }
  for (size_t i = 0; i < facts.size(); ++i)
    if (tied[i])
      value_facts_.push_back(
          Fact{renamed(facts[i].term, renaming), facts[i].assumption});
  return renaming;
}

z3::expr HostValues::renamed(const z3::expr &value, const Renaming &renaming) {
  if (renaming.from.empty())
    return value;
  z3::expr copy = value;
  return copy.substitute(renaming.from, renaming.to);
}

} // namespace gpurace::analyzer
