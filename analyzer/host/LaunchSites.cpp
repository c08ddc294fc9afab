#include "analyzer/host/LaunchSites.h"

#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

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

std::optional<int64_t> foldInt(const clang::Expr *e, clang::ASTContext &ast) {
  clang::Expr::EvalResult result;
  if (e && !e->isValueDependent() && e->EvaluateAsInt(result, ast))
    return result.Val.getInt().getExtValue();
  return std::nullopt;
}

// The three components of a dim3 expression that the compiler can fold:
// `256`, `dim3(16, 16)`, or a local `dim3 block(16, 16)` initialized once.
std::array<std::optional<int64_t>, 3> foldDim3(const clang::Expr *e,
                                               clang::ASTContext &ast) {
  std::array<std::optional<int64_t>, 3> out{1, 1, 1};
  e = e->IgnoreImplicit()->IgnoreParens();
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    e = temp->getSubExpr()->IgnoreImplicit();
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts())) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && var->getInit() && var->getType()->isRecordType() &&
        !var->getType().isVolatileQualified())
      return foldDim3(var->getInit(), ast);
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 &&
        construct->getArg(0)->getType()->isRecordType())
      return foldDim3(construct->getArg(0), ast);
    for (unsigned i = 0; i < 3; ++i)
      out[i] = i < construct->getNumArgs() &&
                       !isa<clang::CXXDefaultArgExpr>(construct->getArg(i))
                   ? foldInt(construct->getArg(i), ast)
                   : std::optional<int64_t>(1);
    return out;
  }
  if (e->IgnoreParenImpCasts()->getType()->isIntegerType()) {
    // A scalar converts to dim3(n, 1, 1).
    out[0] = foldInt(e, ast);
    return out;
  }
  return {std::nullopt, std::nullopt, std::nullopt};
}

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

void addDimFacts(LaunchContext &context, const char *name,
                 const std::array<std::optional<int64_t>, 3> &dims,
                 const z3::expr (&symbols)[3], const Arith &arith,
                 const v1::SourceLocation &where, v1::Dim3 &constant) {
  static const char *const kAxes[3] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (!dims[axis])
      continue;
    context.facts.push_back(
        {symbols[axis] == arith.constant(*dims[axis], kUInt32),
         assumption(v1::HOST_FACT_KIND_LAUNCH_DIMS,
                    std::string(name) + "." + kAxes[axis] + " == " +
                        std::to_string(*dims[axis]),
                    where)});
  }
  if (dims[0] && dims[1] && dims[2]) {
    constant.set_x(static_cast<uint32_t>(*dims[0]));
    constant.set_y(static_cast<uint32_t>(*dims[1]));
    constant.set_z(static_cast<uint32_t>(*dims[2]));
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
  const z3::expr grid[3] = {symbols.gridDim(0), symbols.gridDim(1), symbols.gridDim(2)};
  const z3::expr block[3] = {symbols.blockDim(0), symbols.blockDim(1),
                             symbols.blockDim(2)};
  addDimFacts(context, "gridDim", foldDim3(launch.grid, ast), grid, arith, where,
              *site.mutable_grid_dim());
  addDimFacts(context, "blockDim", foldDim3(launch.block, ast), block, arith, where,
              *site.mutable_block_dim());

  std::map<const clang::VarDecl *, int> pointer_roots;
  for (unsigned i = 0; i < launch.arguments.size() && i < kernel.getNumParams(); ++i) {
    const clang::ParmVarDecl *param = kernel.getParamDecl(i);
    const clang::Expr *arg = launch.arguments[i];
    if (param->getType()->isPointerType()) {
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
    if (auto value = foldInt(arg, ast)) {
      std::string name = param->getNameAsString();
      IntType type{static_cast<unsigned>(ast.getTypeSize(param->getType())),
                   param->getType()->isSignedIntegerOrEnumerationType()};
      if (type.width != 8 && type.width != 16 && type.width != 32)
        type.width = 64;
      context.facts.push_back(
          {symbols.shared(parameterSymbolName(name), type) ==
               arith.constant(*value, type),
           assumption(v1::HOST_FACT_KIND_ARGUMENT_RELATION,
                      name + " == " + std::to_string(*value), where)});
    }
  }
  context.site = site;
  return context;
}

} // namespace gpurace::analyzer
