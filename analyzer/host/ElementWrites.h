//===- ElementWrites.h - how a host function fills its arrays ---*- C++ -*-===//
//
// Host code often keeps one size per level or per device in local arrays
// filled side by side (`w[l - 1] = nw; s[l - 1] = alignUp(nw);`) and
// launches with elements of them (`k<<<g, b>>>(w[l], s[l])`). An element
// read at an index the host code does not pin down is one of the values
// the function stores into that array, and, for arrays always filled
// together, the values of one group of stores: whichever group last set
// element j of one of them set it of all of them.
//
// ElementWrites finds, in one function, the local integer arrays whose
// elements are set only by plain assignments and whose array variable
// never escapes (no pointer to it is taken or handed on), groups their
// stores (consecutive assignments at one index), and joins the arrays
// that the same groups fill into families.
//
// An array's initializer list (`size_t local[] = {256, 1, 1};`, launch
// shapes in code ported from OpenCL) sets its elements first: each entry is
// a group of its own, at its constant index.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_ELEMENTWRITES_H
#define GPURACE_ANALYZER_HOST_ELEMENTWRITES_H

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace clang {
class ArraySubscriptExpr;
class ASTContext;
class DeclStmt;
class BinaryOperator;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

class ElementWrites {
public:
  ElementWrites(clang::ASTContext &ast, const clang::FunctionDecl *function);

  // Consecutive statements that store one element of each of several
  // arrays at one index, the index's variables unchanged between them.
  // One element's store: `a[i] = v`, or an entry of the initializer.
  struct Store {
    const clang::Expr *value = nullptr;
    // The index, where it is an integer constant.
    std::optional<int64_t> constant_index;
    // The assignment; null for an initializer's entry.
    const clang::BinaryOperator *assignment = nullptr;
  };

  struct Group {
    // The store into each array of the group.
    std::map<const clang::VarDecl *, Store> stores;
    // Inside a loop of the function: the values stored differ from one
    // run of the group to the next.
    bool in_loop = false;
  };

  // The local array of integers that `subscript` reads or writes an
  // element of; null for any other subscript.
  static const clang::VarDecl *arrayOf(const clang::ArraySubscriptExpr &subscript);

  // The groups that set the elements of `array`, in source order; null
  // when `array` is not an array of this kind (an element set another
  // way, the array handed to a call or copied into a pointer).
  const std::vector<const Group *> *groupsOf(const clang::VarDecl &array) const;

  // The arrays that exactly the same groups fill, `array` among them: a
  // read of one index of several of them sees one group's stores. Keyed
  // by the first array of the family in source order.
  const clang::VarDecl *familyOf(const clang::VarDecl &array) const;

private:
  void collectGroups(const clang::Stmt &stmt, bool in_loop);
  void collectInitializers(const clang::DeclStmt &decl, bool in_loop);
  void closeGroup(Group &open);
  // Leaves out the arrays used other than by reading an element, by the
  // grouped stores, or by freeing them.
  void dropEscapingArrays(const clang::Stmt &stmt, std::vector<const clang::Stmt *> &ancestors);
  void joinFamilies();

  clang::ASTContext &ast_;
  std::deque<Group> groups_;
  std::set<const clang::BinaryOperator *> grouped_;
  std::set<const clang::VarDecl *> escaping_;
  // Arrays in the order their first store appears.
  std::vector<const clang::VarDecl *> arrays_;
  std::map<const clang::VarDecl *, std::vector<const Group *>> by_array_;
  std::map<const clang::VarDecl *, const clang::VarDecl *> family_;
};

} // namespace gpurace::analyzer

#endif
