//===- SourceLocations.h - Clang locations as proto locations ---*- C++ -*-===//
#ifndef GPURACE_ANALYZER_MODEL_SOURCELOCATIONS_H
#define GPURACE_ANALYZER_MODEL_SOURCELOCATIONS_H

#include "gpurace/v1/common.pb.h"

#include <clang/Basic/SourceLocation.h>

#include <string>

namespace clang {
class ASTContext;
class Expr;
class SourceManager;
} // namespace clang

namespace gpurace::analyzer {

// The file range of `range` (macro expansions resolved to where the user
// wrote them), with 1-based inclusive end.
v1::SourceLocation toLocation(clang::SourceRange range,
                              const clang::SourceManager &sources,
                              const std::string &function);

// A name for `loc` that every parse of the same sources gives it, whether
// the headers it includes were read from text or loaded precompiled, and
// wherever the sources lie: a digest of the file's text and the offset,
// and for a token of a macro expansion the name of where it was expanded
// and its offset in that expansion. Raw encodings are not stable: loaded
// headers shift them.
std::string stableKey(clang::SourceLocation loc,
                      const clang::SourceManager &sources);

// The source text of `range` as written.
std::string sourceText(clang::SourceRange range,
                       const clang::SourceManager &sources);

// `expr` printed in Clang's canonical form: spacing and parentheses as the
// printer puts them, so that reformatting does not change it.
std::string normalizedText(const clang::Expr &expr,
                           const clang::ASTContext &ast);

// Lines [line - context, line + context] of `location`'s file.
v1::SourceExcerpt excerptAround(const v1::SourceLocation &location,
                                const clang::SourceManager &sources,
                                clang::SourceLocation loc, unsigned context);

} // namespace gpurace::analyzer

#endif
