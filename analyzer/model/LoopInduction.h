//===- LoopInduction.h - variables a loop steps by a fixed amount -*- C++ -*-===//
//
// A loop's induction variables besides its for-header counter: integers
// and pointers that every iteration steps exactly once by an amount the
// loop does not change (`i += blockDim.x * gridDim.x` in a while loop,
// `offset += cols` next to a row counter, `a += aStep`). At the head of
// iteration k such a variable holds start + k * step. Integers that every
// iteration scales once by a constant factor f (`offset <<= 1`, `d >>= 1`)
// hold start * f^k or start / f^k.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_LOOPINDUCTION_H
#define GPURACE_ANALYZER_MODEL_LOOPINDUCTION_H

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

// An inner loop `for (c = start; c < bound; ++c)` with no break, whose
// start and bound the outer loop does not change: it runs max(0, bound -
// start) iterations in every iteration of the outer loop.
struct CountedLoop {
  const clang::ForStmt *loop = nullptr;
  const clang::Expr *start = nullptr;
  const clang::Expr *bound = nullptr;
};

struct InductionStep {
  const clang::VarDecl *var = nullptr;
  // The amount added per iteration, in elements for a pointer; null for
  // `++`/`--`, which step by one.
  const clang::Expr *amount = nullptr;
  bool negate = false;
  // A pointer stepped through a byte pointer (`c = (float *)((char *)c +
  // pitch)`): the amount is in bytes.
  bool in_bytes = false;
  // Where the step sits in inner loops rather than in the loop's own body
  // (`c += hw` in `for (j ...) for (k ...)`, a column pointer of im2col):
  // it is taken once per iteration of each of these, innermost last.
  std::vector<CountedLoop> repeats;
  // A condition the loop does not change, under which alone the step is
  // taken (`if (lane == 0) { out[idx] = v; idx += stride; }`): the variable
  // steps in every iteration of the threads where it holds, and in none of
  // the others.
  const clang::Expr *guard = nullptr;
  // The step is in the `else` branch: taken where the guard fails.
  bool guard_negated = false;
};

// The loop parts a step may sit in: the body, and the increment that runs
// after it on every path that reaches the next iteration (a for loop's
// third clause).
struct LoopShape {
  const clang::Stmt *body = nullptr;
  const clang::Expr *cond = nullptr;
  const clang::Stmt *inc = nullptr;
};

// The variables a loop steps exactly once on every path from one
// iteration's head to the next, by an amount built from constants and
// variables for which `invariant` holds. A step in the body counts only as
// a statement of its own at the body's top level, with no `continue` of
// this loop anywhere in the body that could skip it, or nested in such a
// statement where nothing can skip it (`out[n++] = v`). A step may also sit
// in the same way in the branches of a top-level `if` whose condition is
// invariant: it is then taken under that guard.
std::vector<InductionStep>
inductionSteps(const LoopShape &shape,
               const std::function<bool(const clang::VarDecl &)> &invariant);

// The same for steps inside counted inner loops at the body's top level
// (with nothing that could skip them): a variable that the inner loops
// alone step, exactly once per innermost iteration, advances by the step
// times each inner loop's trip count per iteration of this loop.
std::vector<InductionStep>
nestedInductionSteps(const LoopShape &shape,
                     const std::function<bool(const clang::VarDecl &)> &invariant);

// An integer a loop multiplies (`x <<= 1`, `x *= 4`, `x = x << 2`) or
// divides (`x >>= 1`, `x /= 2`) by a constant factor exactly once on every
// path from one iteration's head to the next, under the same rule as
// `inductionSteps`; each write is read by `stepOf` (VariableWrites.h).
struct ScalingStep {
  const clang::VarDecl *var = nullptr;
  int64_t factor = 2; // at least 2
  bool grows = false;  // multiplies rather than divides
};
std::vector<ScalingStep> scalingSteps(const LoopShape &shape, const clang::ASTContext &ast);

// An integer a loop both grows by a constant factor f and steps by a
// constant, each exactly once per iteration and under the same rule
// (`d += 1; ... d <<= 1`): d' = f * d + b. Where f - 1 divides b, d +
// offset (offset = b / (f - 1)) is scaled by f alone: d + 2 doubles in
// the loop above, from d's start + 2.
struct AffineScalingStep {
  const clang::VarDecl *var = nullptr;
  int64_t factor = 2;
  int64_t offset = 0;
};
std::vector<AffineScalingStep> affineScalingSteps(const LoopShape &shape,
                                                  const clang::ASTContext &ast);

// A variable that copies a scaled one just before each of its steps
// (`old_i = i, i /= 2`): in every iteration but the first it holds the
// value the scaled one had one iteration earlier. Both writes are the
// variables' only writes in the loop and run once per iteration, the copy
// first. `scaled` holds the loop's scaling steps (`scalingSteps`).
struct LaggingCopy {
  const clang::VarDecl *copy = nullptr;
  ScalingStep source;
};
std::vector<LaggingCopy> laggingCopies(const LoopShape &shape,
                                       const std::vector<ScalingStep> &scaled);

// A variable the body's last write of it sets back to an invariant value
// (`wtx = tx;` after an inner loop walked `wtx` on), at the body's top
// level with no `continue` of the loop in the body and no write of it
// after that statement, in the condition or in the increment. Where the
// variable enters the loop holding that value, every iteration's head
// sees it too.
struct LoopReset {
  const clang::VarDecl *var = nullptr;
  const clang::Expr *value = nullptr;
};
std::vector<LoopReset> resetsAtEnd(const LoopShape &shape,
                                   const std::function<bool(const clang::VarDecl &)> &invariant);

// A counter a loop only increments, by a positive constant, at one place
// outside any loop nested in it, with no `goto` in the loop (`if (keep)
// out[n++] = v;`, `n += 2`): each iteration adds the constant at most once,
// so after k iterations the counter is at most its entry value plus k
// times the constant. Every other mention of it in the loop reads it.
std::optional<int64_t> boundedIncrement(const clang::Stmt &loop, const clang::VarDecl &var,
                                        const clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
