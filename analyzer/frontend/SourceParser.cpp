#include "analyzer/frontend/SourceParser.h"

#include "analyzer/frontend/FixedArgumentsTool.h"
#include "analyzer/frontend/LaunchChevrons.h"
#include "analyzer/frontend/PrecompiledHeaders.h"
#include "analyzer/frontend/PtxRegisterNames.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <set>

namespace gpurace::analyzer {

namespace {

class ErrorCollector : public clang::DiagnosticConsumer {
public:
  explicit ErrorCollector(ParsedSource &out) : out_(out) {}

  // An error of Clang's front end or of reading an AST file: a precompiled
  // header that does not fit (a header changed since it was built).
  bool frontEndFailed() const { return front_end_failed_; }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error)
      return;
    front_end_failed_ |= info.getID() >= clang::diag::DIAG_START_FRONTEND &&
                         info.getID() < clang::diag::DIAG_START_LEX;
    out_.error_locations.push_back(info.getLocation());
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    v1::FileError error;
    error.set_message(message.str().str());
    error.set_phase(sideName(out_.side));
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      clang::PresumedLoc where =
          info.getSourceManager().getPresumedLoc(info.getLocation());
      if (where.isValid()) {
        error.set_file(where.getFilename());
        error.set_line(where.getLine());
        error.set_column(where.getColumn());
      }
    }
    if (error.file().empty())
      error.set_file(out_.file);
    out_.errors.push_back(std::move(error));
  }

private:
  ParsedSource &out_;
  bool front_end_failed_ = false;
};

// Builds the AST as ClangTool::buildASTs does, except that a fatal error (a
// missing header) counts as an ordinary error: Clang then keeps parsing and
// reporting, so the errors it causes are seen and only the kernels they
// touch are left out.
class TolerantAstBuilder : public clang::tooling::ToolAction {
public:
  std::unique_ptr<clang::ASTUnit> unit;

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *consumer) override {
    auto options = std::make_shared<clang::DiagnosticOptions>(invocation->getDiagnosticOpts());
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diagnostics =
        clang::CompilerInstance::createDiagnostics(files->getVirtualFileSystem(), *options,
                                                   consumer, /*ShouldOwnClient=*/false);
    diagnostics->setFatalsAsError(true);
    unit = clang::ASTUnit::LoadFromCompilerInvocation(
        std::move(invocation), std::move(pch), options, diagnostics,
        llvm::IntrusiveRefCntPtr<clang::FileManager>(files));
    return unit != nullptr;
  }
};

// Finds expressions Clang could only recover from an error, and invalid
// declarations, in a function and the functions it calls.
class RecoveryFinder : public clang::DynamicRecursiveASTVisitor {
public:
  std::string found;

  void visitFunction(const clang::FunctionDecl &function) {
    const clang::FunctionDecl *definition = function.getDefinition();
    if (!definition || !visited_.insert(definition).second || !found.empty())
      return;
    if (definition->isInvalidDecl()) {
      found = "'" + definition->getNameAsString() + "' is invalid";
      return;
    }
    TraverseStmt(definition->getBody());
  }

  bool VisitExpr(clang::Expr *e) override {
    if (e->containsErrors()) {
      found = "an expression Clang could not check";
      return false;
    }
    if (auto *call = llvm::dyn_cast<clang::CallExpr>(e))
      if (const clang::FunctionDecl *callee = call->getDirectCallee())
        visitFunction(*callee);
    return found.empty();
  }

  bool VisitVarDecl(clang::VarDecl *var) override {
    if (var->isInvalidDecl()) {
      found = "the declaration of '" + var->getNameAsString() + "'";
      return false;
    }
    return true;
  }

private:
  std::set<const clang::FunctionDecl *> visited_;
};

// `text` as nvcc reads it, where Clang would read it otherwise; nullopt
// when the two agree.
std::optional<std::string> nvccReading(const std::string &text) {
  std::optional<std::string> joined = joinSpacedLaunchChevrons(text);
  std::optional<std::string> escaped = escapePtxRegisterNames(joined ? *joined : text);
  return escaped ? escaped : joined;
}

} // namespace

const char *sideName(ParseSide side) {
  return side == ParseSide::Host ? "host" : "device";
}

namespace {

// One parse of `absolute` with `argv`, into `out` (whose text, if any, is
// read in place of the file's). Whether Clang's front end failed.
bool parseInto(ParsedSource &out, const std::string &absolute,
               const std::vector<std::string> &argv) {
  FixedArgumentsTool parse(argv, out.file);
  clang::tooling::ClangTool &tool = parse.tool();
  // The tool keeps the path and the text by reference until it has run.
  if (out.contents)
    tool.mapVirtualFile(absolute, *out.contents);
  ErrorCollector collector(out);
  tool.setDiagnosticConsumer(&collector);
  TolerantAstBuilder builder;
  tool.run(&builder);
  out.ast = std::move(builder.unit);
  return collector.frontEndFailed();
}

} // namespace

ParsedSource parseSource(const std::string &file, const std::vector<std::string> &argv,
                         ParseSide side, const std::optional<std::string> &contents,
                         PrecompiledHeaders *precompiled) {
  ParsedSource out;
  out.file = file;
  out.side = side;
  // The tool looks the file up by its absolute path.
  llvm::SmallString<256> absolute(file);
  llvm::sys::fs::make_absolute(absolute);
  // What Clang reads: the caller's text or the file's, with spaced launch
  // chevrons joined and inline PTX's register names escaped (nvcc's
  // readings).
  std::optional<std::string> text = contents;
  if (!text)
    if (auto buffer = llvm::MemoryBuffer::getFile(absolute))
      text = (*buffer)->getBuffer().str();
  std::optional<std::string> read = text ? nvccReading(*text) : std::nullopt;
  if (contents || read)
    out.contents = std::make_unique<const std::string>(read ? *read : *contents);
  std::optional<std::string> header =
      precompiled && isCudaFile(file) ? precompiled->forParse(argv) : std::nullopt;
  if (header) {
    std::vector<std::string> with_header(argv.begin(), argv.end() - 1);
    with_header.insert(with_header.end(), {"-include-pch", *header, argv.back()});
    if (!parseInto(out, absolute.str().str(), with_header)) {
      if (out.ast)
        scopeToFile(out.ast->getASTContext());
      return out;
    }
    // The header does not fit this parse: parse as if there were none.
    precompiled->discard(*header);
    out.ast.reset();
    out.errors.clear();
    out.error_locations.clear();
  }
  parseInto(out, absolute.str().str(), argv);
  if (!out.ast && out.errors.empty()) {
    v1::FileError error;
    error.set_file(file);
    error.set_phase(sideName(side));
    error.set_message("cannot be parsed (is the file readable C++/CUDA?)");
    out.errors.push_back(error);
  }
  return out;
}

std::vector<size_t> errorsWithin(const ParsedSource &parsed,
                                 const clang::FunctionDecl &function) {
  std::vector<size_t> inside;
  const clang::FunctionDecl *definition = function.getDefinition();
  if (!definition || !parsed.ast)
    return inside;
  const clang::SourceManager &sources = parsed.ast->getSourceManager();
  clang::SourceRange range = definition->getSourceRange();
  clang::SourceLocation begin = sources.getExpansionLoc(range.getBegin());
  clang::SourceLocation end = sources.getExpansionLoc(range.getEnd());
  for (size_t i = 0; i < parsed.error_locations.size(); ++i) {
    clang::SourceLocation at = parsed.error_locations[i];
    if (at.isInvalid())
      continue;
    clang::SourceLocation where = sources.getExpansionLoc(at);
    if (sources.isWrittenInSameFile(where, begin) &&
        !sources.isBeforeInTranslationUnit(where, begin) &&
        !sources.isBeforeInTranslationUnit(end, where))
      inside.push_back(i);
  }
  return inside;
}

std::string errorInside(const ParsedSource &parsed, const clang::FunctionDecl &function) {
  std::vector<size_t> inside = errorsWithin(parsed, function);
  if (!inside.empty())
    return "a Clang error at line " + std::to_string(parsed.errors[inside.front()].line()) +
           ": " + parsed.errors[inside.front()].message();
  const clang::FunctionDecl *definition = function.getDefinition();
  if (!definition)
    return "";
  RecoveryFinder finder;
  finder.visitFunction(*definition);
  return finder.found;
}

} // namespace gpurace::analyzer
