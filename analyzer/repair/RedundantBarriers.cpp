#include "analyzer/repair/RedundantBarriers.h"

#include "analyzer/Analyzer.h"
#include "analyzer/model/SourceLocations.h"
#include "analyzer/repair/ProgramUnderRepair.h"
#include "analyzer/repair/StatementEdits.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

#include <set>

namespace gpurace::analyzer {

namespace {

struct BarrierStatement {
  v1::SourceLocation location;
  std::string expression;
  TextEdit removal;
};

bool isBarrierCall(const clang::CallExpr &call) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || !callee->getIdentifier())
    return false;
  llvm::StringRef name = callee->getName();
  if (name == "__syncthreads" || name == "__syncwarp")
    return true;
  // A group's sync(), member or free: block and tile barriers.
  if (name != "sync")
    return false;
  for (const clang::DeclContext *scope = callee->getDeclContext(); scope;
       scope = scope->getParent())
    if (auto *space = llvm::dyn_cast<clang::NamespaceDecl>(scope);
        space && space->getName() == "cooperative_groups")
      return true;
  return false;
}

// Barrier calls written as statements of their own in the main file.
class BarrierFinder : public clang::DynamicRecursiveASTVisitor {
public:
  BarrierFinder(clang::ASTContext &ast, const std::string &text) : ast_(ast), text_(text) {}

  std::vector<BarrierStatement> found;

  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::SourceManager &sources = ast_.getSourceManager();
    clang::SourceLocation begin = call->getBeginLoc(), end = call->getEndLoc();
    if (!isBarrierCall(*call) || begin.isMacroID() || end.isMacroID() ||
        !sources.isInMainFile(begin))
      return true;
    auto parents = ast_.getParents(*call);
    if (parents.empty() || !parents[0].get<clang::CompoundStmt>())
      return true;
    std::optional<TextEdit> removal = deletionOf(*call, text_, ast_);
    if (!removal)
      return true;
    BarrierStatement barrier;
    barrier.location = toLocation(call->getSourceRange(), sources, "");
    barrier.expression = textOf(*call, ast_);
    barrier.removal = *removal;
    found.push_back(std::move(barrier));
    return true;
  }

private:
  clang::ASTContext &ast_;
  const std::string &text_;
};

std::set<std::string> candidatesOf(const v1::AnalysisResult &result) {
  std::set<std::string> out;
  for (const v1::RaceCandidate &candidate : result.candidates())
    out.insert(candidate.fingerprint());
  return out;
}

} // namespace

bool findRedundantBarriers(const AnalyzeOptions &options, BarrierSearch &search,
                           std::string &error) {
  ProgramUnderRepair program;
  if (!loadProgram(options, program, error))
    return false;
  const v1::AnalysisResult &before = program.analysis;
  std::set<std::string> known = candidatesOf(before);
  for (const ProgramUnit &unit : program.units) {
    std::string text;
    if (!isCudaFile(unit.file) || !readSourceText(unit.file, text))
      continue;
    ParsedSource parsed = parseDeviceSide(unit, program.headers, text);
    if (!parsed.context())
      continue;
    BarrierFinder finder(*parsed.context(), text);
    finder.TraverseDecl(parsed.context()->getTranslationUnitDecl());
    for (const BarrierStatement &barrier : finder.found) {
      ++search.checked;
      AnalyzeOptions without = options;
      std::string edited;
      if (!applyEdits(text, {barrier.removal}, edited))
        continue;
      without.replaced_contents[unit.file] = edited;
      v1::AnalysisResult after;
      std::string ignored;
      if (!analyze(without, after, ignored) || after.errors_size() > before.errors_size())
        continue;
      bool nothing_new = true;
      for (const std::string &fingerprint : candidatesOf(after))
        nothing_new &= known.count(fingerprint) > 0;
      if (!nothing_new)
        continue;
      v1::RedundantBarrier &redundant = search.redundant.emplace_back();
      *redundant.mutable_location() = barrier.location;
      redundant.set_expression(barrier.expression);
    }
  }
  return true;
}

} // namespace gpurace::analyzer
