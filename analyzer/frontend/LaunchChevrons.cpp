#include "analyzer/frontend/LaunchChevrons.h"
#include "analyzer/frontend/SourceText.h"

#include <cctype>
#include <cstring>

namespace gpurace::analyzer {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// `c` + `c` + blanks + `c` at `at`, with no third `c` joined to the first
// two and nothing after the last that would make it `<<=`-like; returns the
// index of the last `c`, or 0.
size_t spacedTriple(const std::string &text, size_t at, char c) {
  if (at + 3 >= text.size() || text[at] != c || text[at + 1] != c || !blank(text[at + 2]))
    return 0;
  if (at > 0 && text[at - 1] == c)
    return 0;
  size_t last = at + 2;
  while (last < text.size() && blank(text[last]))
    ++last;
  if (last >= text.size() || text[last] != c)
    return 0;
  if (last + 1 < text.size() && (text[last + 1] == c || text[last + 1] == '='))
    return 0;
  return last;
}

// Moves the chevron at `last` next to the two at `at`: the blanks follow.
void join(std::string &text, size_t at, size_t last) {
  char c = text[last];
  for (size_t i = last; i > at + 2; --i)
    text[i] = text[i - 1];
  text[at + 2] = c;
}

// The `>> >` that closes the configuration opened before `from`, at
// bracket depth 0; joined when found. Stops at a `>>>` or a `;`.
size_t closeConfiguration(std::string &text, size_t from) {
  int depth = 0;
  for (size_t i = from; i < text.size(); ++i) {
    if (size_t end = skipCommentOrLiteral(text, i); end != i) {
      i = end - 1;
      continue;
    }
    char c = text[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (c == ';' || depth < 0)
      return i;
    else if (depth == 0 && text.compare(i, 3, ">>>") == 0)
      return i + 3;
    else if (size_t last = depth == 0 ? spacedTriple(text, i, '>') : 0) {
      join(text, i, last);
      return last + 1;
    }
  }
  return text.size();
}

} // namespace

std::optional<std::string> joinSpacedLaunchChevrons(const std::string &text) {
  if (text.find("<<") == std::string::npos)
    return std::nullopt;
  std::string out = text;
  bool changed = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (size_t end = skipCommentOrLiteral(out, i); end != i) {
      i = end - 1;
      continue;
    }
    if (size_t last = spacedTriple(out, i, '<')) {
      join(out, i, last);
      changed = true;
      i = closeConfiguration(out, last + 1) - 1;
    }
  }
  if (!changed)
    return std::nullopt;
  return out;
}

} // namespace gpurace::analyzer
