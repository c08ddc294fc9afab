//===- PtxRegisterNames.h - inline PTX as nvcc reads it ---------*- C++ -*-===//
//
// nvcc passes an inline assembly string to ptxas as it is, apart from its
// operands (`%0`, `%[name]`) and `%%`: `asm("mov.u64 %0, %globaltimer;" :
// "=l"(t))` names PTX's special register. Clang reads the string by GCC's
// rules, where `%` and a letter is an operand modifier that must be
// followed by an operand, and rejects the statement. Such a `%` is written
// `%%` before parsing, as GCC's rules spell a literal percent; the rest of
// the text is left as it is (each insertion moves only what follows it on
// its line by one column).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_PTXREGISTERNAMES_H
#define GPURACE_ANALYZER_FRONTEND_PTXREGISTERNAMES_H

#include <optional>
#include <string>

namespace gpurace::analyzer {

// `text` with each `%` + letter that is no operand reference, inside the
// string literals of an `asm`/`__asm__` statement, doubled; nullopt when
// there is none.
std::optional<std::string> escapePtxRegisterNames(const std::string &text);

} // namespace gpurace::analyzer

#endif
