//===- StatementEdits.h - finding statements and editing around them -*- C++ -*-===//
//
// What every kind of repair candidate needs from the device-side AST: the
// statement the kernel model names by its source range, the statements
// around it, and insertions placed and indented as a person would write
// them.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_STATEMENTEDITS_H
#define GPURACE_ANALYZER_REPAIR_STATEMENTEDITS_H

#include "analyzer/repair/SourceEdits.h"

#include "gpurace/v1/common.pb.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpurace::analyzer {

bool sameRange(const v1::SourceLocation &a, const v1::SourceLocation &b);

// The statement of the AST at exactly `where` (as the kernel model names
// accesses and call sites).
const clang::Stmt *stmtAt(const v1::SourceLocation &where, clang::ASTContext &ast);

const clang::Stmt *parentStmt(const clang::Stmt &stmt, clang::ASTContext &ast);

// The function whose body holds `stmt`.
const clang::FunctionDecl *functionOf(const clang::Stmt &stmt, clang::ASTContext &ast);

std::string textOf(const clang::Stmt &stmt, clang::ASTContext &ast);

// The line `stmt` starts on, as the user wrote it.
unsigned lineOf(const clang::Stmt &stmt, clang::ASTContext &ast);

// Byte offsets of a statement's written range in the main file.
std::optional<std::pair<size_t, size_t>> offsetsOf(const clang::Stmt &stmt,
                                                   clang::ASTContext &ast);

// The blocks of statements around `stmt`, innermost first, each with the
// child that holds `stmt`.
std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>>
enclosingBlocks(const clang::Stmt &stmt, clang::ASTContext &ast);

// An insertion of `call` on a line of its own before (or after) `stmt`,
// indented as `stmt` is.
std::optional<TextEdit> insertionAt(const clang::Stmt &stmt, bool after, const std::string &call,
                                    const std::string &text, clang::ASTContext &ast);

// The deletion of `stmt` with its ';', and of its whole line when nothing
// else is written on it.
std::optional<TextEdit> deletionOf(const clang::Stmt &stmt, const std::string &text,
                                   clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
