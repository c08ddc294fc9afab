#include "analyzer/host/LaunchSites.h"

#include "analyzer/host/HostValues.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <optional>

namespace gpurace::analyzer {

namespace {

using clang::dyn_cast;
using clang::isa;

const clang::FunctionDecl *kernelOf(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    e = unary->getSubExpr()->IgnoreParenCasts();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

class LaunchFinder : public clang::RecursiveASTVisitor<LaunchFinder> {
public:
  std::map<const clang::FunctionDecl *, std::vector<Launch>> launches;

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *call) {
    const clang::FunctionDecl *kernel = call->getDirectCallee();
    const clang::CallExpr *config = call->getConfig();
    if (!kernel || !config || config->getNumArgs() < 2)
      return true;
    Launch launch{kernel, call, config->getArg(0), config->getArg(1), {}, false};
    for (const clang::Expr *arg : call->arguments())
      launch.arguments.push_back(arg);
    launches[kernel->getCanonicalDecl()].push_back(launch);
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || call->getNumArgs() < 4)
      return true;
    std::string name = callee->getNameAsString();
    if (name != "cudaLaunchKernel" && name != "cudaLaunchCooperativeKernel")
      return true;
    const clang::FunctionDecl *kernel = kernelOf(call->getArg(0));
    if (!kernel)
      return true;
    // The argument array's elements are not followed: the kernel's
    // arguments stay unconstrained for this launch.
    Launch launch{kernel, call, call->getArg(1), call->getArg(2), {},
                  name == "cudaLaunchCooperativeKernel"};
    launches[kernel->getCanonicalDecl()].push_back(launch);
    return true;
  }
};

const clang::VarDecl *rootVariable(const clang::Expr *e) {
  e = e->IgnoreParenCasts();
  while (auto *binary = dyn_cast<clang::BinaryOperator>(e)) {
    if (!binary->isAdditiveOp())
      break;
    e = (binary->getLHS()->getType()->isPointerType() ? binary->getLHS()
                                                       : binary->getRHS())
            ->IgnoreParenCasts();
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(e))
    if (unary->getOpcode() == clang::UO_AddrOf)
      e = unary->getSubExpr()->IgnoreParenCasts();
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(e))
    e = subscript->getBase()->IgnoreParenCasts();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e))
    return dyn_cast<clang::VarDecl>(ref->getDecl());
  return nullptr;
}

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

std::map<const clang::FunctionDecl *, std::vector<Launch>>
findLaunches(clang::ASTContext &ast) {
  LaunchFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  return std::move(finder.launches);
}

LaunchContext launchContext(const Launch &launch, const clang::FunctionDecl &kernel,
                            clang::ASTContext &ast, SymbolSpace &symbols) {
  const clang::SourceManager &sources = ast.getSourceManager();
  LaunchContext context;
  v1::LaunchSite site;
  const clang::FunctionDecl *host = nullptr;
  for (auto parents = ast.getParents(*launch.call); !parents.empty();
       parents = ast.getParents(parents[0])) {
    if ((host = parents[0].get<clang::FunctionDecl>()))
      break;
  }
  *site.mutable_location() =
      toLocation(launch.call->getSourceRange(), sources,
                 host ? host->getQualifiedNameAsString() : "");
  site.set_expression(sourceText(launch.call->getSourceRange(), sources));
  const v1::SourceLocation &where = site.location();

  const Arith &arith = symbols.arith();
  HostValues host_values(ast, symbols, host, launch.call, where);
  const z3::expr grid[3] = {symbols.gridDim(0), symbols.gridDim(1), symbols.gridDim(2)};
  const z3::expr block[3] = {symbols.blockDim(0), symbols.blockDim(1),
                             symbols.blockDim(2)};
  addDimFacts(context, "gridDim", host_values.dims(launch.grid), launch.grid, grid,
              arith, where, sources, *site.mutable_grid_dim());
  addDimFacts(context, "blockDim", host_values.dims(launch.block), launch.block,
              block, arith, where, sources, *site.mutable_block_dim());

  std::map<const clang::VarDecl *, int> pointer_roots;
  for (unsigned i = 0; i < launch.arguments.size() && i < kernel.getNumParams(); ++i) {
    const clang::ParmVarDecl *param = kernel.getParamDecl(i);
    const clang::Expr *arg = launch.arguments[i];
    if (param->getType()->isPointerType()) {
      if (auto bytes = host_values.allocationBytes(arg, context.facts))
        context.buffer_bytes.emplace(static_cast<int>(i), *bytes);
      const clang::VarDecl *root = rootVariable(arg);
      if (!root) {
        context.unknown_origin.insert(static_cast<int>(i));
        continue;
      }
      auto [it, inserted] = pointer_roots.emplace(root, static_cast<int>(i));
      if (!inserted)
        context.may_alias.insert({it->second, static_cast<int>(i)});
      continue;
    }
    if (!param->getType()->isIntegralOrEnumerationType())
      continue;
    auto value = host_values.value(arg);
    if (!value)
      continue;
    std::string name = param->getNameAsString();
    IntType type = intTypeOf(param->getType(), ast);
    z3::expr simplified = value->simplify();
    auto number = Arith::numeral(simplified, true);
    std::string shown = number ? std::to_string(*number)
                               : "host '" + sourceText(arg->getSourceRange(), sources) + "'";
    context.facts.push_back(
        {symbols.shared(parameterSymbolName(name), type) ==
             arith.convert(simplified, kInt64, type),
         assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                    "argument " + name + " = " + shown, where)});
  }
  for (Fact &fact : host_values.dominatingFacts())
    context.facts.push_back(std::move(fact));
  context.site = site;
  return context;
}

} // namespace gpurace::analyzer
