#include "analyzer/program/KernelKey.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/raw_ostream.h>

namespace gpurace::analyzer {

std::string kernelKey(const clang::FunctionDecl &kernel) {
  std::string key;
  llvm::raw_string_ostream out(key);
  const clang::ASTContext &ast = kernel.getASTContext();
  clang::PrintingPolicy policy(ast.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.FullyQualifiedName = true;
  kernel.getNameForDiagnostic(out, policy, /*Qualified=*/true);
  out << "|" << kernel.getType().getCanonicalType().getAsString(policy);
  if (!kernel.isExternallyVisible()) {
    const clang::FunctionDecl *definition = kernel.getDefinition();
    const clang::SourceManager &sources = ast.getSourceManager();
    clang::PresumedLoc where = sources.getPresumedLoc(
        sources.getExpansionLoc((definition ? definition : &kernel)->getLocation()));
    out << "|" << (where.isValid() ? where.getFilename() : "");
  }
  return out.str();
}

bool definedInAnotherUnit(const clang::FunctionDecl &callee) {
  return !callee.hasBody() && callee.isExternallyVisible() && !callee.getBuiltinID() &&
         !callee.getASTContext().getSourceManager().isInSystemHeader(callee.getLocation());
}

} // namespace gpurace::analyzer
