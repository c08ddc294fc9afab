#include "analyzer/model/SourceLocations.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace gpurace::analyzer {

v1::SourceLocation toLocation(clang::SourceRange range,
                              const clang::SourceManager &sources,
                              const std::string &function) {
  v1::SourceLocation out;
  clang::SourceLocation begin = sources.getFileLoc(range.getBegin());
  clang::SourceLocation end = sources.getFileLoc(range.getEnd());
  if (begin.isInvalid())
    return out;
  clang::PresumedLoc presumed = sources.getPresumedLoc(begin);
  if (presumed.isValid()) {
    out.set_file(presumed.getFilename());
    out.set_line(presumed.getLine());
    out.set_column(presumed.getColumn());
  }
  if (end.isValid()) {
    // The last token's last character, so the range is inclusive.
    unsigned length = clang::Lexer::MeasureTokenLength(
        end, sources, clang::LangOptions());
    clang::PresumedLoc last = sources.getPresumedLoc(end);
    if (last.isValid()) {
      out.set_end_line(last.getLine());
      out.set_end_column(last.getColumn() + (length ? length - 1 : 0));
    }
  }
  out.set_function(function);
  return out;
}

namespace {

// A file named by what it holds, not by where it lies: the solver's search
// follows the names of its symbols, and a project checked out in another
// directory must be analyzed the same way. Two files of the same text
// name the same entities.
std::string contentKey(llvm::StringRef text) {
  uint64_t hash = 14695981039346656037ull; // FNV-1a
  for (unsigned char c : text)
    hash = (hash ^ c) * 1099511628211ull;
  std::string key;
  llvm::raw_string_ostream(key) << "file-" << llvm::format_hex_no_prefix(hash, 16);
  return key;
}

} // namespace

std::string stableKey(clang::SourceLocation loc,
                      const clang::SourceManager &sources) {
  if (loc.isInvalid())
    return "?";
  auto [file, offset] = sources.getDecomposedLoc(loc);
  if (loc.isFileID())
    return contentKey(sources.getBufferData(file)) + ":" + std::to_string(offset);
  // Each expansion (a macro's body, an argument substituted into it) has
  // its own entry, expanded at a distinct place: the chain of places down
  // to the file and the offset in the last entry tell tokens apart.
  clang::SourceLocation expanded =
      sources.getImmediateExpansionRange(loc).getBegin();
  return stableKey(expanded, sources) + "+" + std::to_string(offset);
}

std::string sourceText(clang::SourceRange range,
                       const clang::SourceManager &sources) {
  clang::CharSourceRange chars = clang::CharSourceRange::getTokenRange(
      sources.getFileLoc(range.getBegin()), sources.getFileLoc(range.getEnd()));
  return clang::Lexer::getSourceText(chars, sources, clang::LangOptions())
      .str();
}

std::string normalizedText(const clang::Expr &expr,
                           const clang::ASTContext &ast) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  expr.printPretty(stream, nullptr, ast.getPrintingPolicy());
  return stream.str();
}

v1::SourceExcerpt excerptAround(const v1::SourceLocation &location,
                                const clang::SourceManager &sources,
                                clang::SourceLocation loc, unsigned context) {
  v1::SourceExcerpt excerpt;
  clang::SourceLocation file_loc = sources.getFileLoc(loc);
  if (file_loc.isInvalid() || location.line() == 0)
    return excerpt;
  clang::FileID file = sources.getFileID(file_loc);
  bool invalid = false;
  llvm::StringRef buffer = sources.getBufferData(file, &invalid);
  if (invalid)
    return excerpt;
  unsigned line = sources.getSpellingLineNumber(file_loc);
  unsigned first = line > context ? line - context : 1;
  excerpt.set_first_line(first + (location.line() - line));
  unsigned current = 1;
  size_t start = 0;
  while (start <= buffer.size() && current <= line + context) {
    size_t newline = buffer.find('\n', start);
    llvm::StringRef text = buffer.slice(start, newline == llvm::StringRef::npos
                                                   ? buffer.size()
                                                   : newline);
    if (current >= first)
      excerpt.add_lines(text.rtrim("\r").str());
    if (newline == llvm::StringRef::npos)
      break;
    start = newline + 1;
    ++current;
  }
  return excerpt;
}

} // namespace gpurace::analyzer
