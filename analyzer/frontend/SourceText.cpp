#include "analyzer/frontend/SourceText.h"

#include <cctype>
#include <cstring>

namespace gpurace::analyzer {

size_t skipCommentOrLiteral(const std::string &text, size_t at) {
  auto starts = [&](const char *s) { return text.compare(at, std::strlen(s), s) == 0; };
  if (starts("//")) {
    size_t end = text.find('\n', at);
    return end == std::string::npos ? text.size() : end;
  }
  if (starts("/*")) {
    size_t end = text.find("*/", at + 2);
    return end == std::string::npos ? text.size() : end + 2;
  }
  if (text[at] == '"' || text[at] == '\'') {
    // A quote right after a digit is a digit separator (1'000'000).
    if (text[at] == '\'' && at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1])))
      return at;
    char quote = text[at];
    for (size_t i = at + 1; i < text.size(); ++i) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == quote || text[i] == '\n')
        return i + 1;
    }
    return text.size();
  }
  return at;
}

} // namespace gpurace::analyzer
