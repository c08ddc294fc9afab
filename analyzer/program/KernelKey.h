//===- KernelKey.h - one name for a kernel across parses --------*- C++ -*-===//
//
// A kernel is parsed more than once: on the host side, where its launches
// are, and on the device side, where its body is modelled, and in every
// translation unit that declares it. Its key is the same in all of them:
// qualified name with template arguments and the canonical function type,
// plus the defining file for a kernel with internal linkage (a `static`
// kernel in two files is two kernels).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_PROGRAM_KERNELKEY_H
#define GPURACE_ANALYZER_PROGRAM_KERNELKEY_H

#include <string>

namespace clang {
class FunctionDecl;
}

namespace gpurace::analyzer {

std::string kernelKey(const clang::FunctionDecl &kernel);

// Whether a call of `callee` reaches a function another translation unit
// defines: user code declared here with external linkage and no body. The
// key above names it alike in both units.
bool definedInAnotherUnit(const clang::FunctionDecl &callee);

} // namespace gpurace::analyzer

#endif
