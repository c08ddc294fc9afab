//===- LaunchSites.h - kernel launches in host code -------------*- C++ -*-===//
//
// Finds every launch of a kernel in a translation unit (`<<<...>>>`,
// cudaLaunchKernel, cudaLaunchCooperativeKernel) and turns what the host
// code says at the launch into a LaunchContext: the grid and block dims,
// argument values the compiler can fold, and which pointer arguments come
// from the same host variable.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_LAUNCHSITES_H
#define GPURACE_ANALYZER_HOST_LAUNCHSITES_H

#include "analyzer/check/LaunchContext.h"
#include "analyzer/model/SymbolSpace.h"

#include <map>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

struct Launch {
  const clang::FunctionDecl *kernel = nullptr;
  const clang::Expr *call = nullptr;
  const clang::Expr *grid = nullptr;
  const clang::Expr *block = nullptr;
  std::vector<const clang::Expr *> arguments;
  bool cooperative = false;
};

// Every launch in `ast`, grouped by the launched kernel (its canonical
// declaration; template launches by specialization).
std::map<const clang::FunctionDecl *, std::vector<Launch>>
findLaunches(clang::ASTContext &ast);

// The facts a launch establishes, over `symbols`' shared symbols.
LaunchContext launchContext(const Launch &launch, const clang::FunctionDecl &kernel,
                            clang::ASTContext &ast, SymbolSpace &symbols);

} // namespace gpurace::analyzer

#endif
