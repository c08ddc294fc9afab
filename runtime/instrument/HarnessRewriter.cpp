#include "runtime/instrument/HarnessRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Support/raw_ostream.h"

namespace gpurace::rt {

namespace {

class HarnessVisitor : public clang::DynamicRecursiveASTVisitor {
public:
  HarnessVisitor(clang::ASTContext &context, clang::Rewriter &rewriter)
      : context_(context), sm_(context.getSourceManager()), rewriter_(rewriter) {}

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *launch) override {
    const clang::CallExpr *config = launch->getConfig();
    const clang::Expr *callee = launch->getCallee()->IgnoreImplicit();
    if (!config || !editable(launch->getBeginLoc()) ||
        !editable(config->getBeginLoc()) || !editable(config->getRParenLoc()))
      return true;
    rewriter_.InsertText(callee->getBeginLoc(), "gpurace_cpu::launcher(", true);
    rewriter_.InsertText(after(callee->getEndLoc()), deducedArguments(callee, launch), true);
    rewriter_.ReplaceText(config->getBeginLoc(), 3, ", \"" + kernelName(callee) + "\", ");
    rewriter_.ReplaceText(config->getRParenLoc(), 3, ")");
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::FunctionDecl *f = call->getDirectCallee();
    if (!f || call->getNumArgs() == 0 || !editable(call->getBeginLoc()))
      return true;
    std::string name = f->getNameAsString();
    if (name != "cudaLaunchCooperativeKernel" && name != "cudaLaunchKernel")
      return true;
    const clang::Expr *kernel = call->getArg(0)->IgnoreParenCasts();
    if (const auto *address = llvm::dyn_cast<clang::UnaryOperator>(kernel))
      kernel = address->getSubExpr()->IgnoreParenCasts();
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(kernel);
    if (!ref || !editable(call->getArg(0)->getBeginLoc()))
      return true;
    std::string cooperative = name == "cudaLaunchCooperativeKernel" ? "true" : "false";
    rewriter_.ReplaceText(call->getCallee()->getSourceRange(),
                          "gpurace_cpu::launchPacked");
    rewriter_.ReplaceText(call->getArg(0)->getSourceRange(),
                          cooperative + ", " + spelled(ref) + ", \"" +
                              ref->getDecl()->getNameAsString() + "\"");
    return true;
  }

  bool VisitVarDecl(clang::VarDecl *var) override {
    if (!var->hasAttr<clang::CUDASharedAttr>() ||
        var->getStorageClass() != clang::SC_Extern || !editable(var->getBeginLoc()))
      return true;
    const clang::ArrayType *array = context_.getAsArrayType(var->getType());
    if (!array)
      return true;
    std::string element = array->getElementType().getAsString(context_.getPrintingPolicy());
    rewriter_.ReplaceText(var->getSourceRange(),
                          element + " *const " + var->getNameAsString() +
                              " = gpurace_cpu::dynamicShared<" + element + ">()");
    return true;
  }

private:
  bool editable(clang::SourceLocation loc) const {
    return loc.isValid() && !loc.isMacroID() && sm_.isInMainFile(loc);
  }

  clang::SourceLocation after(clang::SourceLocation loc) const {
    return clang::Lexer::getLocForEndOfToken(loc, 0, sm_, context_.getLangOpts());
  }

  static std::string kernelName(const clang::Expr *callee) {
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(callee))
      return ref->getDecl()->getNameAsString();
    if (const auto *overloads = llvm::dyn_cast<clang::OverloadExpr>(callee))
      return overloads->getName().getAsString();
    return "kernel";
  }

  // `<float>` for `k<<<g, b>>>(floats)` where k is a template whose
  // arguments were deduced: the launcher needs one function.
  std::string deducedArguments(const clang::Expr *callee,
                               const clang::CallExpr *launch) const {
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(callee);
    const clang::FunctionDecl *f = launch->getDirectCallee();
    if (!ref || !f || ref->hasExplicitTemplateArgs() || !f->getTemplateSpecializationArgs())
      return "";
    std::string text;
    llvm::raw_string_ostream out(text);
    clang::printTemplateArgumentList(out, f->getTemplateSpecializationArgs()->asArray(),
                                     context_.getPrintingPolicy());
    return out.str();
  }

  // The kernel as written, with the template arguments of a specialization.
  std::string spelled(const clang::DeclRefExpr *ref) const {
    std::string text = clang::Lexer::getSourceText(
                           clang::CharSourceRange::getTokenRange(ref->getSourceRange()),
                           sm_, context_.getLangOpts())
                           .str();
    const auto *f = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (f && f->getTemplateSpecializationArgs() && !ref->hasExplicitTemplateArgs()) {
      llvm::raw_string_ostream out(text);
      clang::printTemplateArgumentList(out, f->getTemplateSpecializationArgs()->asArray(),
                                       context_.getPrintingPolicy());
      out.flush();
    }
    return text;
  }

  clang::ASTContext &context_;
  clang::SourceManager &sm_;
  clang::Rewriter &rewriter_;
};

} // namespace

void rewriteForHarness(clang::ASTContext &context, clang::Rewriter &rewriter) {
  HarnessVisitor(context, rewriter).TraverseDecl(context.getTranslationUnitDecl());
}

} // namespace gpurace::rt
