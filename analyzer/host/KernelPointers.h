//===- KernelPointers.h - the kernels a launch names ------------*- C++ -*-===//
//
// A launch names its kernel directly (`k<<<g, b>>>()`, `cudaLaunchKernel(
// (void *)k, ...)`) or through a local function pointer that the host code
// sets to one kernel or another before launching (`kernel = &transpose;`
// in the cases of a switch, then `kernel<<<g, b>>>(...)`). Each kernel the
// pointer is ever set to in its function gets the launch: a context more
// than the program runs is checked, never one less for the kernels seen.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_KERNELPOINTERS_H
#define GPURACE_ANALYZER_HOST_KERNELPOINTERS_H

#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

// The kernel `e` names: `k`, `&k` or a cast of either; null otherwise.
const clang::FunctionDecl *namedKernel(const clang::Expr *e);

// The kernels a launch's callee may be: the one it names, or those a local
// function pointer it reads is initialized or assigned with (both arms of a
// conditional). Empty when neither shows any.
std::vector<const clang::FunctionDecl *> launchedKernels(const clang::Expr *callee);

} // namespace gpurace::analyzer

#endif
