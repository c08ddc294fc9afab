//===- SourceParser.h - one Clang parse of one source file ------*- C++ -*-===//
//
// Parses a file on one side (host or device) into an AST and keeps Clang's
// errors with their locations. A parse with errors still yields its AST:
// the kernels the errors do not touch can be analyzed (the file is then
// partial), so diagnostics after a fatal error are kept too.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_SOURCEPARSER_H
#define GPURACE_ANALYZER_FRONTEND_SOURCEPARSER_H

#include "analyzer/frontend/CompileFlags.h"

#include "gpurace/v1/analysis.pb.h"

#include <clang/Basic/SourceLocation.h>
#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace gpurace::analyzer {

class PrecompiledHeaders;

struct ParsedSource {
  std::string file;
  ParseSide side = ParseSide::Host;
  // The text parsed in place of the file's: the AST's buffers point into
  // it, so it is declared before `ast` to outlive it.
  std::unique_ptr<const std::string> contents;
  // Null when Clang could not even start (a driver error).
  std::unique_ptr<clang::ASTUnit> ast;
  std::vector<v1::FileError> errors;
  // Where each of `errors` was reported, to tell which kernels it touches.
  std::vector<clang::SourceLocation> error_locations;

  clang::ASTContext *context() const {
    return ast ? &ast->getASTContext() : nullptr;
  }
};

// `contents`, when given, is parsed in place of the file's text; the
// file's path still names it (for includes, locations and fingerprints).
// With `precompiled`, a CUDA file's forced includes are loaded precompiled.
ParsedSource parseSource(const std::string &file, const std::vector<std::string> &argv,
                         ParseSide side, const std::optional<std::string> &contents = {},
                         PrecompiledHeaders *precompiled = nullptr);

// The indexes of the errors reported inside `function`'s definition.
std::vector<size_t> errorsWithin(const ParsedSource &parsed,
                                 const clang::FunctionDecl &function);

// Why `function` (or a function it calls) cannot be modelled from this
// parse: an error reported inside it, or an expression Clang could only
// recover. Empty when it is sound to analyze.
std::string errorInside(const ParsedSource &parsed, const clang::FunctionDecl &function);

const char *sideName(ParseSide side);

} // namespace gpurace::analyzer

#endif
