//===- PossibleBits.h - which bits an integer expression may set -*- C++ -*-===//
//
// A syntactic over-approximation of the two's-complement bits an integer
// expression may have set: `t & 15` sets at most the low four bits,
// `(t & 15) << 2` bits 2 to 5, `t & ~63` only bits from 6 up. Where two
// operands of `|` or `^` can share no bit, the operation is their sum,
// which arithmetic over mathematical integers states exactly; without it,
// `(t & ~63) | ((t & 15) << 2) | ((t & 48) >> 4)`, a bank-conflict-free
// permutation of the thread index, would be an opaque value.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_POSSIBLEBITS_H
#define GPURACE_ANALYZER_MODEL_POSSIBLEBITS_H

#include <cstdint>

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace gpurace::analyzer {

// The bits `e` may set, as a 64-bit two's-complement mask (all ones when
// nothing is known). Reads through local constants (`const int lane = t &
// 31;`) but no further.
uint64_t possibleBits(const clang::Expr &e, clang::ASTContext &ast);

// Whether `a | b` (and `a ^ b`) equals `a + b` for every value.
bool shareNoBits(const clang::Expr &a, const clang::Expr &b, clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
