//===- SourceText.h - scanning C++ source text ------------------*- C++ -*-===//
//
// The little lexing that rewrites of the text before parsing need (nvcc's
// readings of launch chevrons and of inline PTX): stepping over comments
// and string and character literals.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_SOURCETEXT_H
#define GPURACE_ANALYZER_FRONTEND_SOURCETEXT_H

#include <string>

namespace gpurace::analyzer {

// Where the comment or literal starting at `at` ends (one past it), or `at`
// when none starts there.
size_t skipCommentOrLiteral(const std::string &text, size_t at);

} // namespace gpurace::analyzer

#endif
