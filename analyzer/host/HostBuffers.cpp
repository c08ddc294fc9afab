// The allocation behind each pointer argument of a launch, and its size:
// accesses through the argument stay inside it.
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"
#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace gpurace::analyzer {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// Where a host pointer gets its memory: a cudaMalloc-style call that
// writes it, or an initializer or assignment from malloc, calloc or new[].
struct AllocationFinder : clang::DynamicRecursiveASTVisitor {
  const clang::VarDecl *pointer = nullptr;
  std::vector<const clang::Expr *> allocations;

  static bool allocates(const clang::Expr *e) {
    e = e->IgnoreParenCasts();
    if (isa<clang::CXXNewExpr>(e))
      return true;
    auto *call = dyn_cast<clang::CallExpr>(e);
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    return callee && (callee->getName() == "malloc" || callee->getName() == "calloc");
  }
  bool VisitCallExpr(clang::CallExpr *call) override {
    if (allocatesInto(*call, *pointer))
      allocations.push_back(call);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->getOpcode() == clang::BO_Assign && referencedVar(op->getLHS()) == pointer &&
        allocates(op->getRHS()))
      allocations.push_back(op->getRHS()->IgnoreParenCasts());
    return true;
  }
};

// Calls that change a std::vector's size after it was constructed.
bool resized(const clang::Stmt *body, const clang::VarDecl &vector) {
  struct Finder : clang::DynamicRecursiveASTVisitor {
    const clang::VarDecl *vector;
    bool found = false;
    bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *call) override {
      llvm::StringRef name = call->getMethodDecl() ? call->getMethodDecl()->getName() : "";
      if (referencedVar(call->getImplicitObjectArgument()) == vector &&
          (name == "resize" || name == "push_back" || name == "emplace_back" ||
           name == "assign" || name == "insert" || name == "erase" ||
           name == "clear" || name == "swap" || name == "pop_back"))
        found = true;
      return true;
    }
  } finder;
  finder.vector = &vector;
  finder.TraverseStmt(const_cast<clang::Stmt *>(body));
  return finder.found;
}

} // namespace

std::optional<z3::expr> HostValues::vectorBytes(const clang::Expr *pointer_arg,
                                                std::string &name) {
  auto *call = dyn_cast<clang::CXXMemberCallExpr>(pointer_arg->IgnoreParenCasts());
  if (!call || !call->getMethodDecl() || call->getMethodDecl()->getName() != "data")
    return std::nullopt;
  const clang::VarDecl *vector = referencedVar(call->getImplicitObjectArgument());
  const clang::CXXRecordDecl *record =
      vector ? vector->getType()->getAsCXXRecordDecl() : nullptr;
  auto *construct = vector ? dyn_cast_or_null<clang::CXXConstructExpr>(
                                 vector->getInit() ? vector->getInit()->IgnoreImplicit()
                                                   : nullptr)
                           : nullptr;
  if (!record || record->getQualifiedNameAsString() != "std::vector" || !construct ||
      construct->getNumArgs() == 0 ||
      !construct->getArg(0)->getType()->isIntegerType() ||
      assignedOutsideInit(*vector) || resized(host_->getBody(), *vector))
    return std::nullopt;
  clang::QualType element = call->getType()->getPointeeType();
  auto count = value(construct->getArg(0));
  if (!count || element.isNull() || element->isIncompleteType())
    return std::nullopt;
  name = vector->getNameAsString();
  return arith_.mul(*count, arith_.constant(ast_.getTypeSizeInChars(element).getQuantity(),
                                            kInt64));
}

std::optional<z3::expr> HostValues::volumeBytes(const clang::Expr *pointer_arg,
                                                std::string &name,
                                                std::vector<Fact> &facts) {
  auto *member = dyn_cast<clang::MemberExpr>(pointer_arg->IgnoreParenCasts());
  auto *ref = member ? dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts())
                     : nullptr;
  auto *volume = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!volume || member->getMemberDecl()->getName() != "ptr")
    return std::nullopt;
  // cudaMalloc3D(&volume, extent), the extent from make_cudaExtent(w, h, d).
  struct Finder : clang::DynamicRecursiveASTVisitor {
    const clang::VarDecl *volume;
    std::vector<const clang::CallExpr *> calls;
    bool VisitCallExpr(clang::CallExpr *call) override {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getName() == "cudaMalloc3D" && call->getNumArgs() == 2 &&
          referencedVar(call->getArg(0)) == volume)
        calls.push_back(call);
      return true;
    }
  } finder;
  finder.volume = volume;
  finder.TraverseStmt(host_->getBody());
  if (finder.calls.size() != 1)
    return std::nullopt;
  const clang::Expr &extent = *finder.calls.front()->getArg(1);
  auto width = extentField(extent, "width"), height = extentField(extent, "height"),
       depth = extentField(extent, "depth");
  if (!width || !height || !depth)
    return std::nullopt;
  z3::expr pitch = fieldSymbolFor(*volume, "pitch");
  facts.push_back(fact(arith_.lessEq(*width, pitch, true), v1::HOST_FACT_KIND_ALLOCATION,
                       "pitch of '" + volume->getNameAsString() + "' >= its width",
                       *finder.calls.front()));
  name = volume->getNameAsString() + ".ptr";
  return arith_.mul(arith_.mul(pitch, *height), *depth);
}

std::optional<z3::expr> HostValues::bytesOf(const clang::Expr &allocation,
                                            const clang::VarDecl &pointer,
                                            std::string &text, std::vector<Fact> &facts) {
  const clang::SourceManager &sources = ast_.getSourceManager();
  if (auto *array = dyn_cast<clang::CXXNewExpr>(&allocation)) {
    clang::QualType element = array->getAllocatedType();
    if (element->isIncompleteType() || element->isDependentType())
      return std::nullopt;
    z3::expr size = arith_.constant(ast_.getTypeSizeInChars(element).getQuantity(), kInt64);
    if (!array->isArray()) {
      text = "sizeof(" + element.getAsString() + ")";
      return size;
    }
    auto count = array->getArraySize() ? value(*array->getArraySize()) : std::nullopt;
    if (!count)
      return std::nullopt;
    text = sourceText((*array->getArraySize())->getSourceRange(), sources) + " elements";
    return arith_.mul(*count, size);
  }
  auto *call = dyn_cast<clang::CallExpr>(&allocation);
  std::string name = call->getDirectCallee()->getNameAsString();
  if (name == "calloc") {
    auto count = value(call->getArg(0)), size = value(call->getArg(1));
    if (!count || !size)
      return std::nullopt;
    text = sourceText(call->getSourceRange(), sources);
    return arith_.mul(*count, *size);
  }
  if (name == "cudaMallocPitch" && call->getNumArgs() >= 4) {
    const clang::VarDecl *pitch_var = referencedVar(call->getArg(1));
    auto width = value(call->getArg(2)), height = value(call->getArg(3));
    if (!pitch_var || !width || !height)
      return std::nullopt;
    z3::expr pitch = symbolFor(*pitch_var);
    facts.push_back(fact(arith_.lessEq(*width, pitch, true), v1::HOST_FACT_KIND_ALLOCATION,
                         "pitch of '" + pointer.getNameAsString() + "' >= its width",
                         *call));
    text = "pitch * height";
    return arith_.mul(pitch, *height);
  }
  // malloc(bytes), cudaMalloc(&p, bytes) and the like: the bytes argument.
  const clang::Expr *bytes = call->getArg(name == "malloc" ? 0 : 1);
  text = sourceText(bytes->getSourceRange(), sources) + " bytes";
  return value(bytes);
}

std::optional<z3::expr> HostValues::allocationBytes(const clang::Expr *pointer_arg,
                                                    std::vector<Fact> &facts) {
  const clang::VarDecl *pointer = referencedVar(pointer_arg);
  if (const clang::Expr *arg = pointer ? argumentFor(*pointer) : nullptr)
    return caller_->allocationBytes(arg, facts);
  if (pointer && lambdaCall(*pointer))
    return caller_->allocationBytes(pointer_arg, facts);
  if (!host_ || !host_->hasBody())
    return std::nullopt;
  std::string name, text;
  const clang::Stmt *at = pointer_arg;
  std::optional<z3::expr> bytes = vectorBytes(pointer_arg, name);
  if (bytes) {
    text = "its elements";
  } else if ((bytes = volumeBytes(pointer_arg, name, facts))) {
    text = "pitch * height * depth bytes";
  } else {
    if (!pointer || !pointer_arg->IgnoreParenCasts()->getType()->isPointerType() ||
        !isa<clang::DeclRefExpr>(pointer_arg->IgnoreParenCasts()))
      return std::nullopt;
    AllocationFinder finder;
    finder.pointer = pointer;
    if (pointer->getInit() && AllocationFinder::allocates(pointer->getInit()))
      finder.allocations.push_back(pointer->getInit()->IgnoreParenCasts());
    finder.TraverseStmt(host_->getBody());
    if (finder.allocations.size() != 1)
      return std::nullopt; // none, or reallocated: the size is not one value
    at = finder.allocations.front();
    bytes = bytesOf(*finder.allocations.front(), *pointer, text, facts);
    name = pointer->getNameAsString();
  }
  if (!bytes)
    return std::nullopt;
  facts.push_back(fact(arith_.less(arith_.constant(0, kInt64), *bytes, true),
                       v1::HOST_FACT_KIND_ALLOCATION,
                       "'" + name + "' holds " + text +
                           " (> 0); accesses through it stay inside",
                       *at));
  return bytes;
}

} // namespace gpurace::analyzer
