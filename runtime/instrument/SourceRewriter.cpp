#include "runtime/instrument/SourceRewriter.h"

#include "runtime/instrument/HarnessRewriter.h"

#include "analyzer/frontend/CompileFlags.h"
#include "analyzer/frontend/LaunchChevrons.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <tuple>

namespace gpurace::rt {

namespace {

using Range = std::tuple<unsigned, unsigned, unsigned, unsigned>;

// The same parse as `gpurace analyze`'s host side: the CUDA toolkit's own
// headers when one is installed, gpurace's declarations otherwise, so that
// every file that analyzes also instruments.
std::vector<std::string> parseArguments(const std::string &file,
                                        const std::vector<std::string> &flags) {
  gpurace::analyzer::HeaderSetup headers;
  std::string ignored;
  headers.toolkit = gpurace::analyzer::findCudaToolkit("", ignored);
  std::vector<std::string> args = gpurace::analyzer::clangArguments(
      file, gpurace::analyzer::commandLineFlags(flags), headers,
      gpurace::analyzer::ParseSide::Host);
  // buildASTFromCodeWithArgs adds the program name, -fsyntax-only and the file.
  args.erase(args.begin());
  args.pop_back();
  return args;
}

// The scope an atomic or fence has by its name (atomicAdd_block,
// __threadfence_system ...), numbered as RecordScope.
uint8_t scopeFromName(llvm::StringRef name) {
  if (name.ends_with("_block"))
    return 2;
  if (name.ends_with("_system"))
    return 4;
  return 3;
}

class SiteVisitor : public clang::DynamicRecursiveASTVisitor {
public:
  SiteVisitor(clang::ASTContext &context, clang::Rewriter &rewriter,
              const std::vector<PlannedSite> &sites)
      : context_(context), sm_(context.getSourceManager()),
        rewriter_(rewriter) {
    for (const PlannedSite &s : sites)
      by_range_[{s.line, s.column, s.end_line, s.end_column}].push_back(&s);
  }

  bool VisitExpr(clang::Expr *e) override {
    if (llvm::isa<clang::ImplicitCastExpr>(e) || llvm::isa<clang::ParenExpr>(e))
      return true;
    auto it = by_range_.find(rangeOf(e));
    if (it == by_range_.end())
      return true;
    for (const PlannedSite *site : it->second)
      if (!done_.count(site) && rewrite(e, *site))
        done_.insert(site);
    return true;
  }

  std::vector<std::string> unmatched() const {
    std::vector<std::string> out;
    for (const auto &[range, sites] : by_range_)
      for (const PlannedSite *s : sites)
        if (!done_.count(s))
          out.push_back(s->id);
    return out;
  }

private:
  // 1-based first and last character of `e` in the main file; zeros for
  // expressions in macros or other files.
  Range rangeOf(const clang::Expr *e) const {
    clang::SourceLocation begin = e->getBeginLoc(), end = e->getEndLoc();
    if (begin.isInvalid() || end.isInvalid() || begin.isMacroID() ||
        end.isMacroID() || !sm_.isInMainFile(begin))
      return {0, 0, 0, 0};
    unsigned token = clang::Lexer::MeasureTokenLength(end, sm_, context_.getLangOpts());
    return {sm_.getSpellingLineNumber(begin), sm_.getSpellingColumnNumber(begin),
            sm_.getSpellingLineNumber(end),
            sm_.getSpellingColumnNumber(end) + (token ? token - 1 : 0)};
  }

  clang::SourceLocation after(const clang::Expr *e) const {
    return clang::Lexer::getLocForEndOfToken(e->getEndLoc(), 0, sm_,
                                             context_.getLangOpts());
  }

  void wrap(const clang::Expr *e, const std::string &open,
            const std::string &close) {
    rewriter_.InsertText(e->getBeginLoc(), open, /*InsertAfter=*/true);
    rewriter_.InsertText(after(e), close, /*InsertAfter=*/false);
  }

  const clang::Stmt *parentOf(const clang::Expr *e) const {
    auto parents = context_.getParents(*e);
    while (!parents.empty()) {
      const clang::Stmt *p = parents[0].get<clang::Stmt>();
      if (!p || !(llvm::isa<clang::ParenExpr>(p) || llvm::isa<clang::ImplicitCastExpr>(p)))
        return p;
      parents = context_.getParents(*p);
    }
    return nullptr;
  }

  static const clang::CallExpr *asCall(const clang::Expr *e) {
    return llvm::dyn_cast<clang::CallExpr>(e);
  }

  static std::string calleeName(const clang::CallExpr *call) {
    if (const clang::FunctionDecl *f = call->getDirectCallee())
      return f->getNameAsString();
    return "";
  }

  bool rewrite(const clang::Expr *e, const PlannedSite &site) {
    std::string n = std::to_string(site.index);
    switch (site.kind) {
    case PlannedSite::Read:
    case PlannedSite::Write:
      return rewriteAccess(e, site, n);
    case PlannedSite::Atomic:
      return rewriteAtomic(e, site, n);
    case PlannedSite::Barrier:
    case PlannedSite::Fence:
    case PlannedSite::GridSync:
      return rewriteSync(e, site, n);
    case PlannedSite::SyncWarp:
      return rewriteSyncWarp(e, n);
    }
    return false;
  }

  bool rewriteAccess(const clang::Expr *e, const PlannedSite &site,
                     const std::string &n) {
    if (!e->isGLValue())
      return false;
    if (site.kind == PlannedSite::Read) {
      wrap(e, "(*__gpurace_rec_r(&(", "), " + n + "))");
      return true;
    }
    const clang::Stmt *parent = parentOf(e);
    if (const auto *assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(parent);
        assign && assign->getOpcode() == clang::BO_Assign &&
        assign->getLHS()->IgnoreParenImpCasts() == e &&
        e->getType()->isScalarType()) {
      // `E = V`: the store form also records V for the same-value filter.
      rewriter_.InsertText(e->getBeginLoc(), "__gpurace_store(&(", true);
      rewriter_.ReplaceText(assign->getOperatorLoc(), 1, "), (");
      rewriter_.InsertText(after(assign->getRHS()), "), " + n + ")", false);
      return true;
    }
    bool read_too = parent && (llvm::isa<clang::CompoundAssignOperator>(parent) ||
                               llvm::isa<clang::UnaryOperator>(parent));
    wrap(e, read_too ? "(*__gpurace_rec_rw(&(" : "(*__gpurace_rec_w(&(",
         "), " + n + "))");
    return true;
  }

  bool rewriteAtomic(const clang::Expr *e, const PlannedSite &site,
                     const std::string &n) {
    if (const clang::CallExpr *call = asCall(e)) {
      // `ref.fetch_max(v)` of a cuda::atomic_ref: its location is inside the
      // object, which has no portable accessor; the site stays unrecorded
      // (and is reported as unmatched) rather than recording `v`.
      if (call->getNumArgs() == 0 || llvm::isa<clang::CXXMemberCallExpr>(call))
        return false;
      uint8_t scope = site.scope ? site.scope : scopeFromName(calleeName(call));
      wrap(call->getArg(0), "__gpurace_rec_a(",
           ", " + n + ", " + std::to_string(scope) + ")");
      return true;
    }
    if (!e->isGLValue())
      return false;
    uint8_t scope = site.scope ? site.scope : 3;
    wrap(e, "(*__gpurace_rec_a(&(", "), " + n + ", " + std::to_string(scope) + "))");
    return true;
  }

  bool rewriteSync(const clang::Expr *e, const PlannedSite &site,
                   const std::string &n) {
    if (!asCall(e))
      return false;
    int op = site.kind == PlannedSite::Barrier ? 4
             : site.kind == PlannedSite::Fence ? 6
                                                : 7;
    uint8_t scope = site.kind == PlannedSite::Fence
                        ? (site.scope ? site.scope : scopeFromName(calleeName(asCall(e))))
                        : 0;
    wrap(e, "(__gpurace_sync(" + n + ", " + std::to_string(op) + ", " +
                std::to_string(scope) + "), ",
         ")");
    return true;
  }

  bool rewriteSyncWarp(const clang::Expr *e, const std::string &n) {
    const clang::CallExpr *call = asCall(e);
    if (!call || calleeName(call) != "__syncwarp")
      return false;
    bool no_mask = call->getNumArgs() == 0 ||
                   llvm::isa<clang::CXXDefaultArgExpr>(call->getArg(0));
    rewriter_.ReplaceText(call->getCallee()->getBeginLoc(),
                          std::string("__syncwarp").size(), "__gpurace_syncwarp");
    if (no_mask)
      rewriter_.InsertText(call->getRParenLoc(), n, false);
    else
      rewriter_.InsertText(call->getArg(0)->getBeginLoc(), n + ", ", true);
    return true;
  }

  clang::ASTContext &context_;
  clang::SourceManager &sm_;
  clang::Rewriter &rewriter_;
  std::map<Range, std::vector<const PlannedSite *>> by_range_;
  std::set<const PlannedSite *> done_;
};

} // namespace

RewriteResult rewriteSource(const RewriteRequest &request) {
  RewriteResult result;
  std::string diagnostics;
  llvm::raw_string_ostream diag_stream(diagnostics);
  clang::DiagnosticOptions diag_options;
  clang::TextDiagnosticPrinter printer(diag_stream, diag_options);
  // Spaced launch chevrons are joined first, as the analyzer reads them;
  // the output keeps them joined, which nvcc reads alike.
  std::string code = gpurace::analyzer::joinSpacedLaunchChevrons(request.code)
                         .value_or(request.code);
  std::unique_ptr<clang::ASTUnit> ast = clang::tooling::buildASTFromCodeWithArgs(
      code, parseArguments(request.file, request.flags), request.file,
      "gpurace-instrument",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {}, &printer);
  diag_stream.flush();
  if (!ast || ast->getDiagnostics().hasErrorOccurred()) {
    result.error = diagnostics.empty() ? request.file + ": cannot parse" : diagnostics;
    return result;
  }
  clang::Rewriter rewriter(ast->getSourceManager(), ast->getLangOpts());
  SiteVisitor visitor(ast->getASTContext(), rewriter, request.sites);
  visitor.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  result.unmatched = visitor.unmatched();
  if (request.cpu_harness)
    rewriteForHarness(ast->getASTContext(), rewriter);

  clang::SourceManager &sm = ast->getSourceManager();
  const llvm::RewriteBuffer *buffer = rewriter.getRewriteBufferFor(sm.getMainFileID());
  std::string body = buffer ? std::string(buffer->begin(), buffer->end()) : code;
  result.output = "#include \"" + request.runtime_header + "\"\n#line 1 \"" +
                  request.file + "\"\n" + body;
  result.ok = true;
  return result;
}

} // namespace gpurace::rt
