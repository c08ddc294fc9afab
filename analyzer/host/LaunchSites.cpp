#include "analyzer/host/LaunchSites.h"
#include "analyzer/host/RelatedFacts.h"

#include "analyzer/host/HostConditions.h"
#include "analyzer/host/HostValues.h"
#include "analyzer/host/KernelPointers.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/model/SourceLocations.h"
#include "analyzer/model/StructPointerFields.h"
#include "analyzer/program/KernelKey.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

// Call chains longer than this, or more numerous, are cut: the outer
// frames' parameters then stay unknowns, which is sound.
constexpr size_t kMaxChainDepth = 4;
constexpr size_t kMaxChains = 8;
// Calls of lambdas (a dispatch macro's `[&] { ... }()`) run a body written
// in place: they count towards this bound only.
constexpr size_t kMaxChainCalls = 16;

bool callsLambda(const clang::CallExpr &call) {
  auto *method = dyn_cast_or_null<clang::CXXMethodDecl>(call.getDirectCallee());
  return method && method->getParent()->isLambda();
}

// Whether `chain` may not grow further outwards.
bool chainFull(const std::vector<ChainCall> &chain) {
  size_t functions = std::count_if(chain.begin(), chain.end(),
                                   [](const ChainCall &c) { return !callsLambda(*c.call); });
  return functions >= kMaxChainDepth || chain.size() >= kMaxChainCalls;
}

// The arguments a cudaLaunchKernel-style argument array holds: `void
// *args[] = {&a, &n}` gives `a` and `n`.
std::vector<const clang::Expr *> argumentArray(const clang::Expr *array) {
  const clang::Expr *e = array->IgnoreParenCasts();
  auto *ref = dyn_cast<clang::DeclRefExpr>(e);
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  auto *list = var ? dyn_cast_or_null<clang::InitListExpr>(var->getInit()) : nullptr;
  std::vector<const clang::Expr *> out;
  if (!list)
    return out;
  for (const clang::Expr *element : list->inits()) {
    element = element->IgnoreParenCasts();
    auto *address = dyn_cast<clang::UnaryOperator>(element);
    if (!address || address->getOpcode() != clang::UO_AddrOf)
      return {}; // not the documented form: leave the arguments unknown
    out.push_back(address->getSubExpr()->IgnoreParens());
  }
  return out;
}

const clang::FunctionDecl *enclosingFunction(clang::ASTContext &ast,
                                             const clang::Stmt &stmt) {
  for (auto parents = ast.getParents(stmt); !parents.empty();
       parents = ast.getParents(parents[0]))
    if (auto *function = parents[0].get<clang::FunctionDecl>())
      return function;
  return nullptr;
}

class LaunchFinder : public clang::DynamicRecursiveASTVisitor {
public:
  std::map<const clang::FunctionDecl *, std::vector<Launch>> launches;
  // Host functions with a body, by canonical declaration, and the calls of
  // each.
  std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> callers;
  // Calls of functions declared here and defined in another unit, by key.
  std::map<std::string, std::vector<const clang::CallExpr *>> external_calls;

  LaunchFinder() { ShouldVisitTemplateInstantiations = true; }

  // The call operator of a generic lambda (`[&]<bool E>() { k<E><<<g,
  // b>>>(p); }`, `[&](auto tag) { ... }`) is a template: the launches it
  // resolves, and the calls it makes, are in its specializations, which
  // the traversal of the lambda does not reach.
  bool VisitLambdaExpr(clang::LambdaExpr *lambda) override {
    if (clang::FunctionTemplateDecl *generic = lambda->getDependentCallOperator())
      for (clang::FunctionDecl *specialization : generic->specializations())
        TraverseDecl(specialization);
    return true;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *call) override {
    const clang::CallExpr *config = call->getConfig();
    if (!config || config->getNumArgs() < 2)
      return true;
    for (const clang::FunctionDecl *kernel : launchedKernels(call->getCallee())) {
      Launch launch{kernel, call, config->getArg(0), config->getArg(1), {}, false};
      for (const clang::Expr *arg : call->arguments())
        launch.arguments.push_back(arg);
      launches[kernel->getCanonicalDecl()].push_back(launch);
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (callee && !isa<clang::CUDAKernelCallExpr>(call) &&
        !callee->hasAttr<clang::CUDAGlobalAttr>()) {
      if (callee->hasBody())
        callers[callee->getCanonicalDecl()].push_back(call);
      else if (definedInAnotherUnit(*callee))
        external_calls[kernelKey(*callee)].push_back(call);
    }
    if (!callee || call->getNumArgs() < 4)
      return true;
    std::string name = callee->getNameAsString();
    if (name != "cudaLaunchKernel" && name != "cudaLaunchCooperativeKernel")
      return true;
    for (const clang::FunctionDecl *kernel : launchedKernels(call->getArg(0))) {
      Launch launch{kernel, call, call->getArg(1), call->getArg(2),
                    argumentArray(call->getArg(3)), name == "cudaLaunchCooperativeKernel"};
      launches[kernel->getCanonicalDecl()].push_back(launch);
    }
    return true;
  }
};

v1::Assumption assumption(v1::HostFactKind kind, const std::string &text,
                          const v1::SourceLocation &where) {
  v1::Assumption a;
  a.set_kind(kind);
  a.set_role(v1::Assumption::ROLE_USED);
  a.set_description(text);
  *a.mutable_location() = where;
  return a;
}

bool isIdentifier(const std::string &text) {
  return !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

void addDimFacts(LaunchContext &context, const char *name,
                 const std::array<std::optional<z3::expr>, 3> &dims,
                 const clang::Expr *written, const z3::expr (&symbols)[3],
                 const Arith &arith, const v1::SourceLocation &where,
                 const clang::SourceManager &sources, v1::Dim3 &constant) {
  static const char *const kAxes[3] = {"x", "y", "z"};
  std::string text = sourceText(written->getSourceRange(), sources);
  bool all_constant = true;
  uint32_t values[3] = {1, 1, 1};
  for (int axis = 0; axis < 3; ++axis) {
    if (!dims[axis]) {
      all_constant = false;
      continue;
    }
    z3::expr value = dims[axis]->simplify();
    auto number = Arith::numeral(value, true);
    all_constant &= number.has_value();
    if (number)
      values[axis] = static_cast<uint32_t>(*number);
    std::string shown = number ? std::to_string(*number)
                        : isIdentifier(text) ? text + "." + kAxes[axis]
                                             : std::string(kAxes[axis]) + " of '" + text + "'";
    context.facts.push_back(
        {symbols[axis] == arith.convert(value, kInt64, kUInt32),
         assumption(v1::HOST_FACT_KIND_LAUNCH_DIMS,
                    std::string(name) + "." + kAxes[axis] + " == " + shown, where)});
  }
  if (all_constant) {
    constant.set_x(values[0]);
    constant.set_y(values[1]);
    constant.set_z(values[2]);
  }
}

} // namespace

HostCallGraph::HostCallGraph(clang::ASTContext &ast) : ast_(ast) {
  LaunchFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  by_decl_ = std::move(finder.callers);
  by_key_ = std::move(finder.external_calls);
}

HostCallGraph::HostCallGraph(clang::ASTContext &ast, CallsByDecl by_decl, CallsByKey by_key)
    : ast_(ast), by_decl_(std::move(by_decl)), by_key_(std::move(by_key)) {}

HostCallGraph::~HostCallGraph() = default;

std::vector<const clang::CallExpr *>
HostCallGraph::callsOf(const clang::FunctionDecl &function) const {
  if (&function.getASTContext() == &ast_) {
    auto it = by_decl_.find(function.getCanonicalDecl());
    return it == by_decl_.end() ? std::vector<const clang::CallExpr *>{} : it->second;
  }
  if (!function.isExternallyVisible())
    return {};
  auto it = by_key_.find(kernelKey(function));
  return it == by_key_.end() ? std::vector<const clang::CallExpr *>{} : it->second;
}

// Extends `chain` (calls reaching `function`) outwards into `chains`,
// through the calls `graph` has of it.
void collectChains(const HostCallGraph &graph, const clang::FunctionDecl *function,
                   std::vector<ChainCall> &chain, std::vector<std::vector<ChainCall>> &chains) {
  std::vector<const clang::CallExpr *> calls =
      function ? graph.callsOf(*function) : std::vector<const clang::CallExpr *>{};
  if (calls.empty() || chainFull(chain)) {
    chains.push_back(chain);
    return;
  }
  clang::ASTContext &ast = graph.ast();
  for (const clang::CallExpr *call : calls) {
    if (chains.size() == kMaxChains)
      return;
    const clang::FunctionDecl *outer = enclosingFunction(ast, *call);
    bool recursive = outer == function ||
                     std::any_of(chain.begin(), chain.end(), [&](const ChainCall &c) {
                       return enclosingFunction(*c.ast, *c.call) == outer;
                     });
    chain.push_back({call, &ast});
    if (recursive)
      chains.push_back(chain);
    else
      collectChains(graph, outer, chain, chains);
    chain.pop_back();
  }
}

// The function the outermost call of `chain` is in (the launch's own
// function for an empty chain).
const clang::FunctionDecl *outermostFunction(const Launch &launch,
                                             const std::vector<ChainCall> &chain) {
  if (chain.empty())
    return launch.host;
  return enclosingFunction(*chain.back().ast, *chain.back().call);
}

void continueAcrossUnits(Launch &launch, const std::vector<const HostCallGraph *> &others) {
  std::vector<std::vector<ChainCall>> chains;
  for (std::vector<ChainCall> &chain : launch.call_chains) {
    const clang::FunctionDecl *outer = outermostFunction(launch, chain);
    bool continued = false;
    if (outer && outer->isExternallyVisible() && !outer->isMain() &&
        !chainFull(chain))
      for (const HostCallGraph *other : others)
        if (!other->callsOf(*outer).empty()) {
          collectChains(*other, outer, chain, chains);
          continued = true;
        }
    if (!continued)
      chains.push_back(std::move(chain));
  }
  if (chains.size() > kMaxChains)
    chains.resize(kMaxChains);
  launch.call_chains = std::move(chains);
}

std::map<const clang::FunctionDecl *, std::vector<Launch>>
findLaunches(clang::ASTContext &ast) {
  LaunchFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  HostCallGraph graph(ast, std::move(finder.callers), std::move(finder.external_calls));
  for (auto &[kernel, launches] : finder.launches)
    for (Launch &launch : launches) {
      launch.host = enclosingFunction(ast, *launch.call);
      std::vector<ChainCall> chain;
      collectChains(graph, launch.host, chain, launch.call_chains);
    }
  return std::move(finder.launches);
}

namespace {

// How a null pointer argument reads (`nullptr`, `NULL`, `0`, or a
// parameter's default of one: `int *partial_sums = NULL`); nothing for
// other arguments.
std::optional<std::string> nullArgument(const clang::Expr &arg, clang::ASTContext &ast) {
  const clang::Expr *value = &arg;
  std::string suffix;
  if (auto *defaulted = dyn_cast<clang::CXXDefaultArgExpr>(value->IgnoreParenImpCasts())) {
    value = defaulted->getExpr();
    suffix = ", its default";
  }
  if (value->isNullPointerConstant(ast, clang::Expr::NPC_ValueDependentIsNotNull) ==
      clang::Expr::NPCK_NotNull)
    return std::nullopt;
  return sourceText(value->getSourceRange(), ast.getSourceManager()) + suffix;
}

// Where pointer arguments into one host buffer point, in bytes from its
// start (`copy(base + 100, base)`), so that the kernel's offsets through
// them can be compared.
void addPointerBaseFacts(LaunchContext &context, const clang::VarDecl &root,
                         const std::vector<std::pair<int, HostValues::PointerOrigin>> &params,
                         const Launch &launch, const std::vector<std::string> &names,
                         clang::ASTContext &ast, SymbolSpace &symbols,
                         const v1::SourceLocation &where) {
  for (const auto &[i, origin] : params) {
    if (!origin.offset)
      continue;
    const clang::Expr *arg = launch.arguments[static_cast<size_t>(i)];
    const std::string &name = names[static_cast<size_t>(i)];
    context.facts.push_back(
        {symbols.shared(pointerBaseSymbolName(name), kInt64) == origin.offset->simplify(),
         assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                    "argument " + name + " = " +
                        sourceText(arg->getSourceRange(), ast.getSourceManager()) +
                        ", into the buffer of host '" + root.getNameAsString() + "'",
                    where)});
    context.placed.insert(i);
  }
}

// `param:NAME == value`, shown as a number when it is one.
void addArgumentFact(LaunchContext &context, const std::string &name, clang::QualType type,
                     const z3::expr &value, const std::string &source, clang::ASTContext &ast,
                     SymbolSpace &symbols, const v1::SourceLocation &where) {
  IntType t = intTypeOf(type, ast);
  z3::expr simplified = value.simplify();
  auto number = Arith::numeral(simplified, true);
  std::string shown = number ? std::to_string(*number) : source;
  context.facts.push_back({symbols.shared(parameterSymbolName(name), t) ==
                               symbols.arith().convert(simplified, kInt64, t),
                           assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                                      "argument " + name + " = " + shown, where)});
}

// The integer fields of a struct passed by value (`img.width`), as the
// host set them.
void addStructArgument(LaunchContext &context, const std::string &name,
                       const clang::RecordDecl &record, const clang::Expr *arg,
                       HostValues &host_values, clang::ASTContext &ast,
                       SymbolSpace &symbols, const v1::SourceLocation &where) {
  const clang::RecordDecl *definition = record.getDefinition();
  if (!definition || definition->isUnion())
    return;
  for (const clang::FieldDecl *field : definition->fields()) {
    std::string field_name = field->getNameAsString();
    if (field_name.empty() || field->isBitField())
      continue;
    std::string source =
        "host '" + sourceText(arg->getSourceRange(), ast.getSourceManager()) + "." + field_name + "'";
    if (field->getType()->isRealFloatingType()) {
      if (auto whole = host_values.truncatedArgument(*arg, field_name))
        addArgumentFact(context, truncatedParameterName(name + "." + field_name),
                        ast.LongLongTy, *whole, source, ast, symbols, where);
      continue;
    }
    if (!field->getType()->isIntegralOrEnumerationType())
      continue;
    if (auto value = host_values.structField(arg, field_name))
      addArgumentFact(context, name + "." + field_name, field->getType(), *value, source, ast,
                      symbols, where);
  }
}

// What identifies a buffer among a launch's pointer arguments with one
// origin each: a host variable, one pointer field of a local struct, or
// one element, by a constant index, of a local array of structs or of
// pointers.
struct OriginKey {
  const clang::VarDecl *root;
  const clang::FieldDecl *field;
  std::optional<int64_t> element;
  bool operator==(const OriginKey &o) const {
    return root == o.root && field == o.field && element == o.element;
  }
};

std::optional<OriginKey> keyOf(const HostValues::PointerOrigin &origin) {
  if (!origin.element)
    return OriginKey{origin.root, origin.field, std::nullopt};
  std::optional<int64_t> element = Arith::numeral(origin.element->simplify(), true);
  if (!element)
    return std::nullopt;
  return OriginKey{origin.root, origin.field, element};
}

// When two origins are the same buffer: the same variable and field, and
// the same element where both name one (an element whose index is not
// known may be any).
z3::expr sameBuffer(const HostValues::PointerOrigin &a, const HostValues::PointerOrigin &b,
                    z3::context &ctx) {
  if (a.root != b.root || a.field != b.field)
    return ctx.bool_val(false);
  if (a.element && b.element)
    return *a.element == *b.element;
  return ctx.bool_val(true);
}

struct PointerArgument {
  int index;
  std::vector<HostValues::PointerChoice> choices;
};

// Solver effort for whether two pointers' host conditions can hold together.
constexpr unsigned kAliasingEffort = 2000000;

// Whether two pointer arguments may point into one buffer, and under
// which host condition; where both choices that share it place their
// pointers in it, how far apart they are there.
void addChoiceAliasing(LaunchContext &context, const PointerArgument &first,
                       const PointerArgument &second, HostConditions &conditions,
                       const std::vector<std::string> &names, SymbolSpace &symbols,
                       const v1::SourceLocation &where) {
  z3::context &ctx = symbols.context();
  z3::expr shared = ctx.bool_val(false);
  bool alias = false, placed = true, excluded = false;
  std::vector<z3::expr> apart;
  for (const auto &a : first.choices)
    for (const auto &b : second.choices) {
      z3::expr both = (a.when && b.when && sameBuffer(a.origin, b.origin, ctx)).simplify();
      if (!conditions.possible(both)) {
        excluded = excluded || !both.is_false() || (a.origin.root == b.origin.root &&
                                                    a.origin.field == b.origin.field);
        continue;
      }
      alias = true;
      shared = shared || both;
      if (!a.origin.offset || !b.origin.offset) {
        placed = false;
        continue;
      }
      apart.push_back(z3::implies(
          both, symbols.shared(pointerBaseSymbolName(names[first.index]), kInt64) -
                        symbols.shared(pointerBaseSymbolName(names[second.index]), kInt64) ==
                    (*a.origin.offset - *b.origin.offset).simplify()));
    }
  std::pair<int, int> pair{first.index, second.index};
  if (!alias) {
    // Both may name one buffer, but never at once: say why, with the
    // exchanges of loops that keep them apart.
    if (!excluded)
      return;
    std::vector<v1::Assumption> &why = context.kept_apart[pair];
    why.push_back(assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                             "arguments " + names[first.index] + " and " +
                                 names[second.index] +
                                 " never point into one buffer: the host code chooses "
                                 "their buffers together",
                             where));
    for (const Fact &fact : conditions.facts())
      if (fact.assumption.description().rfind("loop: only exchanges", 0) == 0)
        why.push_back(fact.assumption);
    return;
  }
  context.may_alias.insert(pair);
  shared = shared.simplify();
  if (!shared.is_true())
    context.alias_conditions.emplace(pair, shared);
  if (!placed || (first.choices.size() == 1 && second.choices.size() == 1))
    return; // one origin each: placed from the buffer's start below
  for (const z3::expr &fact : apart)
    context.facts.push_back(
        {fact, assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                          "arguments " + names[first.index] + " and " + names[second.index] +
                              " lie where the host's choice of buffer puts them",
                          where)});
  context.placed.insert(first.index);
  context.placed.insert(second.index);
}

// Which pointer arguments may point into one buffer: two may where some
// choice of each names the same host variable (or struct field) and the
// conditions of both can hold together (HostConditions). One whose origin
// the host code does not show (a global set from another pointer, a value read from
// elsewhere) may alias any other. Parameters of a function with no
// visible caller (a library's launch wrapper) are taken to be buffers of
// their own, an assumption the results state. Arguments into one buffer
// at known offsets get the facts that place them.
void addPointerAliasing(LaunchContext &context, const std::vector<PointerArgument> &pointers,
                        HostValues &host_values, const Launch &launch,
                        const std::vector<std::string> &names, clang::ASTContext &ast,
                        SymbolSpace &symbols, const v1::SourceLocation &where) {
  std::vector<const PointerArgument *> known;
  for (const PointerArgument &pointer : pointers) {
    bool unknown = false, parameters_only = true;
    for (const HostValues::PointerChoice &choice : pointer.choices) {
      const clang::VarDecl *root = choice.origin.root;
      unknown = unknown || !root ||
                (root->hasGlobalStorage() && !host_values.ownGlobalBuffer(*root));
      parameters_only = parameters_only && root && isa<clang::ParmVarDecl>(root);
    }
    if (unknown) {
      context.unknown_origin.insert(pointer.index);
      continue;
    }
    if (!pointer.choices.empty() && parameters_only)
      context.assumed_distinct.insert(pointer.index);
    known.push_back(&pointer);
  }
  HostConditions conditions(host_values.valueFacts(), symbols.context(), kAliasingEffort);
  for (size_t a = 0; a < known.size(); ++a)
    for (size_t b = a + 1; b < known.size(); ++b)
      addChoiceAliasing(context, *known[a], *known[b], conditions, names, symbols, where);
  // Arguments with one origin each, into the same buffer.
  std::vector<std::pair<OriginKey, std::vector<std::pair<int, HostValues::PointerOrigin>>>>
      placed;
  for (const PointerArgument *pointer : known) {
    // A struct's field has no argument of its own to name.
    if (static_cast<size_t>(pointer->index) >= launch.arguments.size() ||
        pointer->choices.size() != 1 || !pointer->choices.front().when.simplify().is_true())
      continue;
    const HostValues::PointerOrigin &origin = pointer->choices.front().origin;
    std::optional<OriginKey> key = keyOf(origin);
    if (!key)
      continue;
    auto same = std::find_if(placed.begin(), placed.end(),
                             [&](const auto &entry) { return entry.first == *key; });
    if (same == placed.end())
      same = placed.insert(placed.end(), {*key, {}});
    same->second.emplace_back(pointer->index, origin);
  }
  for (const auto &[key, params] : placed)
    if (params.size() > 1)
      addPointerBaseFacts(context, *key.root, params, launch, names, ast, symbols, where);
}

// The pointer fields of struct arguments, numbered after the parameters
// as the kernel model numbers them (`names` holds the model's names): the
// buffer each holds, or any buffer where this kernel declares no such
// field (a struct that differs between device and host compilation).
void addStructPointerFields(std::vector<PointerArgument> &pointers,
                            const clang::FunctionDecl &kernel, const Launch &launch,
                            const std::vector<std::string> &names, HostValues &host_values,
                            SymbolSpace &symbols) {
  std::vector<StructPointerField> fields = structPointerFields(kernel);
  for (size_t i = kernel.getNumParams(); i < names.size(); ++i) {
    auto same = std::find_if(fields.begin(), fields.end(),
                             [&](const StructPointerField &f) { return f.name == names[i]; });
    PointerArgument pointer{static_cast<int>(i), {}};
    if (same != fields.end() && same->parameter < launch.arguments.size())
      pointer.choices =
          host_values.fieldChoices(*launch.arguments[same->parameter], *same->field);
    else
      pointer.choices.push_back({{}, symbols.context().bool_val(true)});
    pointers.push_back(std::move(pointer));
  }
}

// The host values made of values the host code does not establish: the
// unknowns themselves, and what a loop's bounds or a followed call's value
// (`for (j = start; ...)`, `n = helper(atoi(s))`) ties to one, each with
// the unknown it comes from. A loop variable whose start and bound the
// facts state is as known as they are.
std::map<std::string, v1::Imprecision>
unknownDerivedValues(const std::vector<Fact> &host_facts,
                     const std::map<std::string, v1::Imprecision> &unknowns,
                     const std::set<std::string> &induction_values) {
  std::map<std::string, v1::Imprecision> derived;
  for (const auto &[name, imprecision] : unknowns)
    if (!induction_values.count(name))
      derived.emplace(name, imprecision);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Fact &fact : host_facts) {
      v1::HostFactKind kind = fact.assumption.kind();
      if (kind != v1::HOST_FACT_KIND_LOOP_BOUND && kind != v1::HOST_FACT_KIND_ANALYSIS)
        continue;
      std::set<std::string> names = symbolNames({fact.term}, true);
      auto cause = std::find_if(names.begin(), names.end(),
                                [&](const std::string &name) { return derived.count(name); });
      if (cause == names.end())
        continue;
      v1::Imprecision from = derived.at(*cause);
      for (const std::string &name : names) {
        if (name.rfind("host:", 0) != 0 || derived.count(name))
          continue;
        v1::Imprecision imprecision = from;
        imprecision.set_detail(fact.assumption.description() + ", where " + from.detail());
        derived.emplace(name, std::move(imprecision));
        changed = true;
      }
    }
  }
  return derived;
}

// Marks the kernel's launch-wide values (dims, arguments) whose facts are
// made of host values the host code does not establish.
void stateUnknownValues(LaunchContext &context,
                        const std::map<std::string, v1::Imprecision> &unknowns) {
  for (const Fact &fact : context.facts) {
    std::set<std::string> names = symbolNames({fact.term});
    const v1::Imprecision *cause = nullptr;
    for (const std::string &name : symbolNames({fact.term}, true)) {
      auto found = unknowns.find(name);
      if (found != unknowns.end() &&
          (!cause || found->second.detail() < cause->detail()))
        cause = &found->second;
    }
    if (!cause)
      continue;
    for (const std::string &name : names) {
      if (name.rfind("host:", 0) == 0 || context.imprecisions.count(name))
        continue;
      v1::Imprecision imprecision = *cause;
      imprecision.set_detail(fact.assumption.description() + ", where " + cause->detail());
      context.imprecisions.emplace(name, std::move(imprecision));
    }
  }
}

// The facts of one launch reached through one call chain; `host_values` is
// the launching function's frame.
LaunchContext contextFor(const Launch &launch, const clang::FunctionDecl &kernel,
                         const std::vector<std::string> &names, clang::ASTContext &ast,
                         SymbolSpace &symbols, HostValues &host_values) {
  const clang::SourceManager &sources = ast.getSourceManager();
  LaunchContext context;
  v1::LaunchSite site;
  *site.mutable_location() =
      toLocation(launch.call->getSourceRange(), sources,
                 launch.host ? launch.host->getQualifiedNameAsString() : "");
  site.set_expression(sourceText(launch.call->getSourceRange(), sources));
  const v1::SourceLocation &where = site.location();

  const Arith &arith = symbols.arith();
  const z3::expr grid[3] = {symbols.gridDim(0), symbols.gridDim(1), symbols.gridDim(2)};
  const z3::expr block[3] = {symbols.blockDim(0), symbols.blockDim(1),
                             symbols.blockDim(2)};
  addDimFacts(context, "gridDim", host_values.dims(launch.grid), launch.grid, grid,
              arith, where, sources, *site.mutable_grid_dim());
  addDimFacts(context, "blockDim", host_values.dims(launch.block), launch.block,
              block, arith, where, sources, *site.mutable_block_dim());

  // Pointer arguments in the order the arguments name them, so that the
  // facts (and the solver's problem) are the same on every run.
  std::vector<PointerArgument> pointers;
  for (unsigned i = 0;
       i < launch.arguments.size() && i < kernel.getNumParams() && i < names.size(); ++i) {
    const clang::ParmVarDecl *param = kernel.getParamDecl(i);
    const clang::Expr *arg = launch.arguments[i];
    if (param->getType()->isPointerType()) {
      if (std::optional<std::string> null = nullArgument(*arg, ast)) {
        // Null aliases nothing; the kernel's null tests of it hold.
        context.facts.push_back(
            {symbols.context().bool_const(pointerNullSymbolName(names[i]).c_str()),
             assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                        "argument " + names[i] + " = " + *null, where)});
        continue;
      }
      if (auto bytes = host_values.allocationBytes(arg, context.facts))
        context.buffer_bytes.emplace(static_cast<int>(i), *bytes);
      pointers.push_back({static_cast<int>(i), host_values.pointerChoices(arg)});
      continue;
    }
    const std::string &name = names[i];
    if (const clang::RecordDecl *record = param->getType()->getAsRecordDecl()) {
      addStructArgument(context, name, *record, arg, host_values, ast, symbols, where);
      continue;
    }
    if (param->getType()->isRealFloatingType()) {
      if (auto whole = host_values.truncatedArgument(*arg, ""))
        addArgumentFact(context, truncatedParameterName(name), ast.LongLongTy, *whole,
                        "host '" + sourceText(arg->getSourceRange(), sources) + "'", ast, symbols,
                        where);
      continue;
    }
    if (!param->getType()->isIntegralOrEnumerationType())
      continue;
    if (auto value = host_values.value(arg))
      addArgumentFact(context, name, param->getType(), *value,
                      "host '" + sourceText(arg->getSourceRange(), sources) + "'", ast,
                      symbols, where);
  }
  addStructPointerFields(pointers, kernel, launch, names, host_values, symbols);
  addPointerAliasing(context, pointers, host_values, launch, names, ast, symbols, where);
  std::vector<Fact> host_facts = host_values.dominatingFacts();
  for (Fact &fact : host_values.valueFacts())
    host_facts.push_back(std::move(fact));
  stateUnknownValues(context, unknownDerivedValues(host_facts, host_values.unknownValues(),
                                                      host_values.inductionValues()));
  for (Fact &fact : host_facts)
    context.facts.push_back(std::move(fact));
  context.site = site;
  return context;
}

} // namespace

std::vector<LaunchContext> launchContexts(const Launch &launch,
                                          const std::vector<std::string> &parameter_names,
                                          clang::ASTContext &ast, SymbolSpace &symbols,
                                          FactSetVerdicts &verdicts) {
  // The declaration the host sees may leave parameters unnamed; the
  // definition's types are the ones the kernel model uses.
  const clang::FunctionDecl *kernel = launch.kernel->getDefinition();
  if (!kernel)
    kernel = launch.kernel;
  std::vector<LaunchContext> contexts;
  for (const auto &chain : launch.call_chains) {
    // Frames from the outermost caller inwards, each knowing its caller.
    std::vector<std::unique_ptr<HostValues>> frames;
    for (auto call = chain.rbegin(); call != chain.rend(); ++call)
      frames.push_back(std::make_unique<HostValues>(
          *call->ast, symbols, enclosingFunction(*call->ast, *call->call), call->call,
          frames.empty() ? nullptr : frames.back().get()));
    HostValues launching(ast, symbols, launch.host, launch.call,
                         frames.empty() ? nullptr : frames.back().get());
    contexts.push_back(
        contextFor(launch, *kernel, parameter_names, ast, symbols, launching));
    keepRelatedFacts(contexts.back(), symbols.context(), verdicts);
    for (const ChainCall &call : chain) {
      const clang::FunctionDecl *caller = enclosingFunction(*call.ast, *call.call);
      *contexts.back().site->add_called_from() =
          toLocation(call.call->getSourceRange(), call.ast->getSourceManager(),
                     caller ? caller->getQualifiedNameAsString() : "");
    }
  }
  return contexts;
}

} // namespace gpurace::analyzer
