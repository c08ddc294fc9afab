#include "analyzer/frontend/PtxRegisterNames.h"

#include "analyzer/frontend/SourceText.h"

#include <cctype>

namespace gpurace::analyzer {

namespace {

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether an `asm` keyword (any of its spellings) starts at `at`; if so,
// where it ends.
size_t asmKeyword(const std::string &text, size_t at) {
  if (at > 0 && identifierChar(text[at - 1]))
    return 0;
  for (const char *keyword : {"__asm__", "__asm", "asm"}) {
    std::string word(keyword);
    if (text.compare(at, word.size(), word) == 0 &&
        (at + word.size() == text.size() || !identifierChar(text[at + word.size()])))
      return at + word.size();
  }
  return 0;
}

// The string literal `literal` (quotes included) with each `%` that Clang
// would read as a modifier without an operand doubled.
std::string escaped(const std::string &literal) {
  std::string out;
  for (size_t i = 0; i < literal.size(); ++i) {
    out += literal[i];
    if (literal[i] == '\\' && i + 1 < literal.size()) {
      out += literal[++i];
      continue;
    }
    if (literal[i] != '%' || i + 1 >= literal.size())
      continue;
    char next = literal[i + 1];
    if (next == '%') {
      out += literal[++i];
      continue;
    }
    char after = i + 2 < literal.size() ? literal[i + 2] : '\0';
    if (std::isalpha(static_cast<unsigned char>(next)) &&
        !std::isdigit(static_cast<unsigned char>(after)) && after != '[')
      out += '%';
  }
  return out;
}

} // namespace

std::optional<std::string> escapePtxRegisterNames(const std::string &text) {
  if (text.find("asm") == std::string::npos)
    return std::nullopt;
  std::string out;
  bool changed = false;
  // Parenthesis depth inside an asm statement's operand list; -1 outside.
  int depth = -1;
  bool after_keyword = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (size_t end = skipCommentOrLiteral(text, i); end != i) {
      std::string piece = text.substr(i, end - i);
      if (depth > 0 && piece[0] == '"') {
        std::string rewritten = escaped(piece);
        changed |= rewritten != piece;
        piece = std::move(rewritten);
      }
      out += piece;
      i = end - 1;
      continue;
    }
    char c = text[i];
    if (depth < 0) {
      if (size_t end = asmKeyword(text, i)) {
        out.append(text, i, end - i);
        i = end - 1;
        after_keyword = true;
        continue;
      }
      if (after_keyword && c == '(')
        depth = 1;
      // Qualifiers (`volatile`, `goto`) and blanks may come between.
      else if (after_keyword && !identifierChar(c) && !std::isspace(static_cast<unsigned char>(c)))
        after_keyword = false;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      depth = -1;
      after_keyword = false;
    }
    out += c;
  }
  if (!changed)
    return std::nullopt;
  return out;
}

} // namespace gpurace::analyzer
