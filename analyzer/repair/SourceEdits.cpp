#include "analyzer/repair/SourceEdits.h"

#include <algorithm>
#include <sstream>

namespace gpurace::analyzer {

bool applyEdits(const std::string &text, std::vector<TextEdit> edits, std::string &out) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit &a, const TextEdit &b) { return a.offset < b.offset; });
  std::string result;
  size_t at = 0;
  for (const TextEdit &edit : edits) {
    if (edit.offset < at || edit.offset + edit.length > text.size())
      return false;
    result.append(text, at, edit.offset - at);
    result += edit.text;
    at = edit.offset + edit.length;
  }
  result.append(text, at, std::string::npos);
  out = std::move(result);
  return true;
}

std::optional<TextEdit> editBefore(const TextEdit &edit, std::vector<TextEdit> applied) {
  std::stable_sort(applied.begin(), applied.end(),
                   [](const TextEdit &a, const TextEdit &b) { return a.offset < b.offset; });
  // How far the applied edits wholly before `edit` moved it.
  long long shift = 0;
  size_t begin = edit.offset, end = edit.offset + edit.length;
  for (const TextEdit &earlier : applied) {
    size_t new_begin = earlier.offset + shift, new_end = new_begin + earlier.text.size();
    // An insertion just before an earlier edit's text would have to be
    // ordered before that edit among edits at one offset: not expressible.
    if (edit.length == 0 && begin == new_begin && !earlier.text.empty())
      return std::nullopt;
    if (end <= new_begin)
      break;
    if (begin < new_end)
      return std::nullopt;
    shift += (long long)earlier.text.size() - (long long)earlier.length;
  }
  TextEdit before = edit;
  before.offset = size_t((long long)edit.offset - shift);
  return before;
}

std::optional<std::vector<TextEdit>>
editsBefore(const std::vector<TextEdit> &edits,
            const std::vector<std::vector<TextEdit>> &history) {
  std::vector<TextEdit> out;
  for (const TextEdit &edit : edits) {
    std::optional<TextEdit> original = edit;
    for (auto earlier = history.rbegin(); original && earlier != history.rend(); ++earlier)
      original = editBefore(*original, *earlier);
    if (!original)
      return std::nullopt;
    out.push_back(*original);
  }
  return out;
}

size_t lineStart(const std::string &text, size_t offset) {
  size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  return newline == std::string::npos ? 0 : newline + 1;
}

void lineAndColumn(const std::string &text, size_t offset, unsigned &line, unsigned &column) {
  line = 1;
  column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

namespace {

// Lines with their terminators, so that a missing final newline survives.
std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class Op { Keep, Remove, Add };

// Myers' O(ND) shortest edit script: repairs change few lines of long files.
std::vector<Op> editScript(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  const int n = int(a.size()), m = int(b.size()), max = n + m;
  std::vector<int> v(2 * max + 2, 0);
  std::vector<std::vector<int>> trace;
  int found_d = 0;
  for (int d = 0; d <= max; ++d) {
    trace.push_back(v);
    bool done = false;
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? v[max + k + 1]
                                                                       : v[max + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y])
        ++x, ++y;
      v[max + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
    if (done) {
      found_d = d;
      break;
    }
  }
  std::vector<Op> ops;
  int x = n, y = m;
  for (int d = found_d; d > 0; --d) {
    const std::vector<int> &before = trace[d];
    int k = x - y;
    bool down = k == -d || (k != d && before[max + k - 1] < before[max + k + 1]);
    int prev_k = down ? k + 1 : k - 1;
    int prev_x = before[max + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y)
      ops.push_back(Op::Keep), --x, --y;
    ops.push_back(down ? Op::Add : Op::Remove);
    x = prev_x;
    y = prev_y;
  }
  while (x > 0 && y > 0)
    ops.push_back(Op::Keep), --x, --y;
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void writeLine(std::ostringstream &out, char mark, const std::string &line) {
  out << mark << line;
  if (line.empty() || line.back() != '\n')
    out << "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after) {
  if (before == after)
    return "";
  std::vector<std::string> a = splitLines(before), b = splitLines(after);
  std::vector<Op> ops = editScript(a, b);
  constexpr size_t kContext = 3;
  std::ostringstream out;
  out << "--- " << path << "\n+++ " << path << "\n";
  size_t i = 0;
  while (i < ops.size()) {
    if (ops[i] == Op::Keep) {
      ++i;
      continue;
    }
    // A hunk: from kContext kept lines before this change to kContext
    // after the last change that is at most 2 * kContext lines further.
    size_t start = i >= kContext ? i - kContext : 0;
    while (start < i && ops[start] != Op::Keep)
      ++start;
    size_t end = i;
    size_t kept_run = 0;
    for (size_t j = i; j < ops.size(); ++j) {
      kept_run = ops[j] == Op::Keep ? kept_run + 1 : 0;
      if (kept_run > 2 * kContext)
        break;
      if (ops[j] != Op::Keep)
        end = j + 1;
    }
    end = std::min(ops.size(), end + kContext);
    size_t line_a = 0, line_b = 0;
    for (size_t j = 0; j < start; ++j) {
      line_a += ops[j] != Op::Add;
      line_b += ops[j] != Op::Remove;
    }
    size_t count_a = 0, count_b = 0;
    for (size_t j = start; j < end; ++j) {
      count_a += ops[j] != Op::Add;
      count_b += ops[j] != Op::Remove;
    }
    out << "@@ -" << (count_a ? line_a + 1 : line_a) << "," << count_a << " +"
        << (count_b ? line_b + 1 : line_b) << "," << count_b << " @@\n";
    size_t ia = line_a, ib = line_b;
    for (size_t j = start; j < end; ++j) {
      if (ops[j] == Op::Keep)
        writeLine(out, ' ', a[ia++]), ++ib;
      else if (ops[j] == Op::Remove)
        writeLine(out, '-', a[ia++]);
      else
        writeLine(out, '+', b[ib++]);
    }
    i = end;
  }
  return out.str();
}

} // namespace gpurace::analyzer
