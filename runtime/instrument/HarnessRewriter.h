//===- HarnessRewriter.h - host code for the CPU harness --------*- C++ -*-===//
//
// `gpurace instrument --cpu-harness` also rewrites what host C++ cannot
// compile, so that a whole CUDA program runs on the CPU harness
// (runtime/harness/CpuLaunch.h):
//   k<<<g, b, s, st>>>(args)        -> gpurace_cpu::launcher(k, "k", g, b, s, st)(args)
//   cudaLaunchCooperativeKernel((void *)k, g, b, args)
//                                   -> gpurace_cpu::launchPacked(true, k, "k", g, b, args)
//   extern __shared__ T s[];        -> T *const s = gpurace_cpu::dynamicShared<T>()
// A deduced kernel template gets its template arguments spelled out. Like
// the site rewriting, only text on the same lines changes.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_INSTRUMENT_HARNESSREWRITER_H
#define GPURACE_RUNTIME_INSTRUMENT_HARNESSREWRITER_H

namespace clang {
class ASTContext;
class Rewriter;
} // namespace clang

namespace gpurace::rt {

void rewriteForHarness(clang::ASTContext &context, clang::Rewriter &rewriter);

} // namespace gpurace::rt

#endif
