#include "analyzer/repair/StatementEdits.h"

#include "analyzer/model/SourceLocations.h"

#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace gpurace::analyzer {

bool sameRange(const v1::SourceLocation &a, const v1::SourceLocation &b) {
  return a.file() == b.file() && a.line() == b.line() && a.column() == b.column() &&
         a.end_line() == b.end_line() && a.end_column() == b.end_column();
}

namespace {

// The statement of the device-side AST at exactly `where` (as the kernel
// model names accesses and call sites).
class StmtAtLocation : public clang::DynamicRecursiveASTVisitor {
public:
  StmtAtLocation(const v1::SourceLocation &where, const clang::SourceManager &sources)
      : where_(where), sources_(sources) {}

  const clang::Stmt *found = nullptr;

  bool VisitStmt(clang::Stmt *stmt) override {
    if (found)
      return false;
    clang::SourceLocation begin = sources_.getFileLoc(stmt->getBeginLoc());
    if (begin.isInvalid() || sources_.getPresumedLineNumber(begin) != where_.line())
      return true;
    if (sameRange(toLocation(stmt->getSourceRange(), sources_, ""), where_))
      found = stmt;
    return !found;
  }

private:
  const v1::SourceLocation &where_;
  const clang::SourceManager &sources_;
};

} // namespace

const clang::Stmt *stmtAt(const v1::SourceLocation &where, clang::ASTContext &ast) {
  StmtAtLocation finder(where, ast.getSourceManager());
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  return finder.found;
}

const clang::Stmt *parentStmt(const clang::Stmt &stmt, clang::ASTContext &ast) {
  auto parents = ast.getParents(stmt);
  return parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
}

std::string textOf(const clang::Stmt &stmt, clang::ASTContext &ast) {
  return sourceText(stmt.getSourceRange(), ast.getSourceManager());
}

unsigned lineOf(const clang::Stmt &stmt, clang::ASTContext &ast) {
  const clang::SourceManager &sources = ast.getSourceManager();
  return sources.getPresumedLineNumber(sources.getFileLoc(stmt.getBeginLoc()));
}

// Byte offsets of a statement's written range in the main file.
std::optional<std::pair<size_t, size_t>> offsetsOf(const clang::Stmt &stmt,
                                                   clang::ASTContext &ast) {
  const clang::SourceManager &sources = ast.getSourceManager();
  clang::SourceLocation begin = sources.getFileLoc(stmt.getBeginLoc());
  clang::SourceLocation end = sources.getFileLoc(stmt.getEndLoc());
  if (begin.isInvalid() || end.isInvalid() || !sources.isInMainFile(begin) ||
      !sources.isInMainFile(end))
    return std::nullopt;
  end = clang::Lexer::getLocForEndOfToken(end, 0, sources, ast.getLangOpts());
  return std::pair{size_t(sources.getFileOffset(begin)), size_t(sources.getFileOffset(end))};
}

// The function whose body holds `stmt`.
const clang::FunctionDecl *functionOf(const clang::Stmt &stmt, clang::ASTContext &ast) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  while (!parents.empty()) {
    if (auto *function = parents[0].get<clang::FunctionDecl>())
      return function;
    if (auto *up = parents[0].get<clang::Stmt>())
      parents = ast.getParents(*up);
    else if (auto *decl = parents[0].get<clang::Decl>())
      parents = ast.getParents(*decl);
    else
      break;
  }
  return nullptr;
}

// The blocks of statements around `stmt`, innermost first, each with the
// child that holds `stmt`.
std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>>
enclosingBlocks(const clang::Stmt &stmt, clang::ASTContext &ast) {
  std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>> out;
  const clang::Stmt *child = &stmt;
  for (const clang::Stmt *up = parentStmt(stmt, ast); up; child = up, up = parentStmt(*up, ast))
    if (auto *block = llvm::dyn_cast<clang::CompoundStmt>(up))
      out.push_back({block, child});
  return out;
}

// An insertion of `call` on a line of its own before (or after) `stmt`,
// indented as `stmt` is.
std::optional<TextEdit> insertionAt(const clang::Stmt &stmt, bool after, const std::string &call,
                                    const std::string &text, clang::ASTContext &ast) {
  auto range = offsetsOf(stmt, ast);
  if (!range)
    return std::nullopt;
  size_t line_start = lineStart(text, range->first);
  std::string indent = text.substr(line_start, range->first - line_start);
  if (indent.find_first_not_of(" \t") != std::string::npos)
    return TextEdit{after ? range->second : range->first, 0,
                    after ? " " + call + ";" : call + "; "};
  if (!after)
    return TextEdit{line_start, 0, indent + call + ";\n"};
  size_t end = range->second;
  if (end < text.size() && text[end] == ';')
    ++end;
  size_t line_end = text.find('\n', end);
  if (line_end == std::string::npos || text.find_first_not_of(" \t\r", end) < line_end)
    return TextEdit{end, 0, " " + call + ";"};
  return TextEdit{line_end + 1, 0, indent + call + ";\n"};
}

std::optional<TextEdit> deletionOf(const clang::Stmt &stmt, const std::string &text,
                                   clang::ASTContext &ast) {
  auto range = offsetsOf(stmt, ast);
  if (!range)
    return std::nullopt;
  size_t begin = range->first, end = range->second;
  if (end < text.size() && text[end] == ';')
    ++end;
  size_t line_start = lineStart(text, begin);
  size_t line_end = text.find('\n', end);
  bool alone = text.find_first_not_of(" \t", line_start) == begin &&
               (line_end == std::string::npos || text.find_first_not_of(" \t\r", end) >= line_end);
  if (alone)
    return TextEdit{line_start, (line_end == std::string::npos ? text.size() : line_end + 1) -
                                    line_start, ""};
  return TextEdit{begin, end - begin, ""};
}

} // namespace gpurace::analyzer
