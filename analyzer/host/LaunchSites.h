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
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

class FactSetVerdicts;

// A call on the way to a launch, in the parse it belongs to: a wrapper's
// caller may be in another translation unit of the program.
struct ChainCall {
  const clang::CallExpr *call = nullptr;
  clang::ASTContext *ast = nullptr;
};

struct Launch {
  const clang::FunctionDecl *kernel = nullptr;
  const clang::Expr *call = nullptr;
  const clang::Expr *grid = nullptr;
  const clang::Expr *block = nullptr;
  std::vector<const clang::Expr *> arguments;
  bool cooperative = false;
  // The function the launch is in, and the ways it is reached: each chain
  // lists call sites from the one calling that function outwards, up to
  // `main` or a function with no visible caller. One empty chain when the
  // function has no caller in the translation unit.
  const clang::FunctionDecl *host = nullptr;
  std::vector<std::vector<ChainCall>> call_chains;
};

// Every launch in `ast`, grouped by the launched kernel (its canonical
// declaration; template launches by specialization), with the call chains
// that reach it.
std::map<const clang::FunctionDecl *, std::vector<Launch>>
findLaunches(clang::ASTContext &ast);

// The calls between host functions with a body in one parse, by callee.
class HostCallGraph {
public:
  explicit HostCallGraph(clang::ASTContext &ast);
  ~HostCallGraph();
  clang::ASTContext &ast() const { return ast_; }
  // The calls of `function` in this parse: of its own declaration when it
  // is of this parse, else of the function with its key (kernelKey) that
  // this parse declares and another unit defines.
  std::vector<const clang::CallExpr *> callsOf(const clang::FunctionDecl &function) const;

private:
  using CallsByDecl = std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>>;
  using CallsByKey = std::map<std::string, std::vector<const clang::CallExpr *>>;
  // From what findLaunches has already read of the parse.
  HostCallGraph(clang::ASTContext &ast, CallsByDecl by_decl, CallsByKey by_key);
  friend std::map<const clang::FunctionDecl *, std::vector<Launch>>
  findLaunches(clang::ASTContext &ast);

  clang::ASTContext &ast_;
  CallsByDecl by_decl_;
  // Calls of functions this parse declares and another unit defines.
  CallsByKey by_key_;
};

// Continues the call chains of `launch` that end at a function no call of
// its own parse reaches (a launch wrapper defined in kernel.cu) into the
// calls of it in `others`, the host parses of the program's other units.
void continueAcrossUnits(Launch &launch, const std::vector<const HostCallGraph *> &others);

// The facts a launch establishes, over `symbols`' shared symbols: one
// context per call chain that reaches it. `ast` is the host parse the launch
// is in; the kernel's parameters are named as its definition names them
// (the model's symbols), which a declaration at the launch may not.
// `verdicts` is the unit's, shared by its kernels (RelatedFacts.h).
std::vector<LaunchContext> launchContexts(const Launch &launch,
                                          const std::vector<std::string> &parameter_names,
                                          clang::ASTContext &ast, SymbolSpace &symbols,
                                          FactSetVerdicts &verdicts);

} // namespace gpurace::analyzer

#endif
