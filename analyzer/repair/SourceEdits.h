//===- SourceEdits.h - text replacements and their unified diff -*- C++ -*-===//
//
// A repair is a set of replacements in one file's text. They are applied
// to the text in memory (to be verified before anything is written), and
// shown as the unified diff `patch -p0` and code review tools read.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_SOURCEEDITS_H
#define GPURACE_ANALYZER_REPAIR_SOURCEEDITS_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

// Replaces `length` bytes at `offset` with `text` (an insertion when
// `length` is 0).
struct TextEdit {
  size_t offset = 0;
  size_t length = 0;
  std::string text;
};

// `text` with `edits` applied. Edits may come in any order but must not
// overlap; false (and `text` unchanged in `out`) when they do or one falls
// outside the text.
bool applyEdits(const std::string &text, std::vector<TextEdit> edits, std::string &out);

// `edit`, made to the text that `applied` (edits made together) produced,
// as an edit of the text before them; none when it changes text that
// `applied` inserted.
std::optional<TextEdit> editBefore(const TextEdit &edit, std::vector<TextEdit> applied);

// `edits`, made after each of `history` in turn (edits made together, the
// earliest first), as edits of the text before all of them; none when one
// changes text that `history` inserted.
std::optional<std::vector<TextEdit>>
editsBefore(const std::vector<TextEdit> &edits,
            const std::vector<std::vector<TextEdit>> &history);

// The unified diff (3 lines of context) that turns `before` into `after`,
// both named `path`; empty when they are equal.
std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after);

// The offset where the line holding `offset` starts.
size_t lineStart(const std::string &text, size_t offset);

// 1-based line and column of a byte offset.
void lineAndColumn(const std::string &text, size_t offset, unsigned &line, unsigned &column);

} // namespace gpurace::analyzer

#endif
