//===- VariableWrites.h - how statements change a variable ------*- C++ -*-===//
//
// The writes of one integer variable inside a statement, and what each
// does to it: add a constant (`i += 4`, `++i`, `i = i - 2`), scale it by a
// constant (`i *= 2`, `s >>= 1`), or something else. Host loops (their
// induction variables' direction and stride) and kernel loops (bounds of
// over-approximated variables) read the same writes the same way.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_VARIABLEWRITES_H
#define GPURACE_ANALYZER_MODEL_VARIABLEWRITES_H

#include <cstdint>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

struct VariableStep {
  enum class Kind { Add, Scale, Other };
  Kind kind = Kind::Other;
  // Add: the constant added (negative for a subtraction). Scale: +1 when
  // it grows a nonnegative value (`*`, `<<`), -1 when it shrinks it (`/`,
  // `>>`).
  int64_t amount = 0;
  // Scale: by a power of two (`*= 2`, `<<= 1`, `/= 4`, `>>= k`), which keeps
  // a power of two a power of two (or zero).
  bool by_power_of_two = false;
  // Scale: the factor multiplied or divided by (2^k for a shift by k), when
  // it fits in 62 bits.
  std::optional<int64_t> factor;
};

// Whether `e` names `var` (through parentheses and implicit casts).
bool isVar(const clang::Expr *e, const clang::VarDecl &var);

VariableStep stepOf(const clang::Stmt &write, const clang::VarDecl &var,
                    const clang::ASTContext &ast);

// What writes do to `var` together: the direction of their nonzero steps
// (0 when there are none), the gcd of the constants they add, and whether
// any scales. Nothing when a write is not a step or they move `var` both
// ways.
struct StepSummary {
  int direction = 0;
  int64_t stride = 0;
  bool scales = false;
};
std::optional<StepSummary> summarizeSteps(const std::vector<const clang::Stmt *> &writes,
                                          const clang::VarDecl &var,
                                          const clang::ASTContext &ast);

// Whether every write scales `var` by a power of two: a power of two (or
// zero) before them stays one.
bool scalesByPowersOfTwo(const std::vector<const clang::Stmt *> &writes,
                         const clang::VarDecl &var, const clang::ASTContext &ast);

// Assignments to `var`, its increments and decrements, and taking its
// address, within `scope`.
std::vector<const clang::Stmt *> writesOf(const clang::Stmt &scope, const clang::VarDecl &var);

} // namespace gpurace::analyzer

#endif
