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
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
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
  // own, like a local's. A global struct (or array of structs) may where
  // some code uses it whole in a way that can set its fields (`g = other`,
  // `&g`, a non-const method or reference); its fields set from other
  // pointers one by one are listed by copiesInto.
  bool mayCopyAPointer(const clang::VarDecl &var) const;

  // The pointers assigned to a pointer field of a global struct, in any
  // function (`g.z = g.x`, `g[i].next = p`): the field may hold any of
  // them, or an allocation of its own.
  const std::vector<const clang::Expr *> &copiesInto(const clang::VarDecl &var,
                                                     const clang::FieldDecl &field) const;

  using Field = std::pair<const clang::VarDecl *, const clang::FieldDecl *>;
  using FieldCopies = std::map<Field, std::vector<const clang::Expr *>>;

private:
  std::map<const clang::VarDecl *, std::set<const clang::FunctionDecl *>> writers_;
  std::set<const clang::VarDecl *> copied_;
  FieldCopies field_copies_;
};

} // namespace gpurace::analyzer

#endif
