//===- GlobalWriters.h - which host functions set each global ---*- C++ -*-===//
//
// The functions of one translation unit that may write each of its global
// variables: assignments, increments, taking the variable's address,
// binding it to a non-const reference. A global that only `main` writes
// holds its initializer on entry to `main`, and the values `main` gives it
// before each call on the way to a launch; a global that other functions
// write may hold anything they leave in it.
//
// Which global pointers may be set from other pointers rather than from
// allocations.
//
// System headers are not read: their code cannot name the program's
// globals.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_GLOBALWRITERS_H
#define GPURACE_ANALYZER_HOST_GLOBALWRITERS_H

#include <map>
#include <set>

namespace clang {
class ASTContext;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

class GlobalWriters {
public:
  explicit GlobalWriters(clang::ASTContext &ast);

  // The functions that may write `var` (any redeclaration of it). A null
  // entry stands for code outside every function: a file-scope initializer
  // that takes the variable's address (`int *p = &n;`).
  const std::set<const clang::FunctionDecl *> &of(const clang::VarDecl &var) const;

  // Whether a global pointer (or array of pointers) may point into a
  // buffer another pointer points to: some code assigns it another
  // pointer (`g = p`, `g[i] = base + n`) or takes its address outside
  // every function. Otherwise each of its values is an allocation of its
  // own, like a local's.
  bool mayCopyAPointer(const clang::VarDecl &var) const;

private:
  std::map<const clang::VarDecl *, std::set<const clang::FunctionDecl *>> writers_;
  std::set<const clang::VarDecl *> copied_;
};

} // namespace gpurace::analyzer

#endif
