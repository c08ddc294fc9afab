//===- HostGlobals.cpp - host values of global variables -----------------===//
//
// A global that no function of the file but `main` sets is followed like a
// local of `main`: its initializer on entry to `main`, what `main` left in
// it at each call on the way to the launch. Others are unknown, with the
// function that may set them named.
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/host/GlobalWriters.h"
#include "analyzer/host/HostExpressions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace gpurace::analyzer {

using clang::dyn_cast;

const GlobalWriters &HostValues::globalWriters() {
  if (global_writers_)
    return *global_writers_;
  if (caller_ && &caller_->ast_ == &ast_) {
    caller_->globalWriters();
    global_writers_ = caller_->global_writers_;
  } else {
    global_writers_ = std::make_shared<const GlobalWriters>(ast_);
  }
  return *global_writers_;
}

bool HostValues::ownGlobalBuffer(const clang::VarDecl &var) {
  return isGlobalVariable(var) && !var.isStaticLocal() && var.getDefinition() &&
         !globalWriters().mayCopyAPointer(var);
}

std::optional<std::string> HostValues::unfollowedGlobal(const clang::VarDecl &var) {
  if (var.isStaticLocal())
    return "is a static local, which keeps its value from earlier calls";
  if (!var.getDefinition())
    return "is a global defined in another file";
  // Writers by name, so that the one named is the same on every run.
  std::set<std::string> others;
  for (const clang::FunctionDecl *writer : globalWriters().of(var))
    if (!writer)
      others.insert("a file-scope initializer, which takes its address");
    else if (!writer->isMain())
      others.insert("'" + writer->getQualifiedNameAsString() + "'");
  if (others.empty())
    return std::nullopt;
  return "is a global variable that " + *others.begin() + " may set";
}

z3::expr HostValues::globalOnEntry(const clang::VarDecl &var, const std::string &field) {
  // Only `main` writes it: on entry to a function `main` calls, what `main`
  // left in it at the call.
  auto *call = caller_ ? dyn_cast<clang::CallExpr>(caller_->launch_) : nullptr;
  if (call && &caller_->ast_ == &ast_)
    if (std::optional<z3::expr> passed = caller_->valueAt(var, field, *call))
      return *passed;
  bool written = !globalWriters().of(var).empty();
  if (written && !(host_ && host_->isMain()))
    return unknownSymbolOf(var, field,
                           "is a global variable that 'main' sets, and no visible call from "
                           "'main' reaches '" +
                               (host_ ? host_->getNameAsString() : std::string("?")) + "'",
                           nullptr);
  return initialValue(var, field);
}

z3::expr HostValues::initialValue(const clang::VarDecl &var, const std::string &field) {
  const clang::VarDecl *definition = var.getDefinition();
  const clang::Expr *init = definition ? definition->getInit() : nullptr;
  std::string name = var.getNameAsString() + (field.empty() ? std::string() : "." + field);
  // Static storage without an initializer starts as zero.
  std::optional<z3::expr> out;
  if (!init)
    out = arith_.constant(0, kInt64);
  else if (!field.empty())
    out = fieldOfStruct(*init, var, field);
  else if (!(out = value(init)))
    out = symbolOf(var, field);
  std::string text = init ? shortSourceText(*init, ast_.getSourceManager()) : std::string("0");
  return stated("host:initial:" + var.getQualifiedNameAsString() +
                    (field.empty() ? "" : "." + field) + "@" +
                    placeKey(var.getLocation()),
                *out,
                "host '" + name + "' is a global variable that no function but 'main' sets: " +
                    "it starts as '" + text + "'" +
                    (var.isExternallyVisible() ? " (assumes no other file of the program sets it)"
                                               : ""),
                nullptr);
}

} // namespace gpurace::analyzer
