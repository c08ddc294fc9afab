//===- FenceReach.h - whether a kernel may execute a fence ------*- C++ -*-===//
//
// Between two barriers, only a fence (with an atomic or volatile flag) can
// order one thread's write before another thread's read of the same word.
// A kernel that never fences has no such order: two threads of a block
// that read one __shared__ word between the same barriers see the same
// value, or some write races with one of the reads and is reported.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_FENCEREACH_H
#define GPURACE_ANALYZER_MODEL_FENCEREACH_H

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

// Whether `kernel`, or a function it calls, may execute a memory fence: a
// fence intrinsic, a libcu++ atomic with acquire or release order, or a
// call through a pointer (whose target is not read here).
bool mayFence(const clang::FunctionDecl &kernel, const clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
