//===- LoopExchanges.h - variables a loop only exchanges --------*- C++ -*-===//
//
// Host loops that launch a kernel per step often ping-pong between
// buffers: `k<<<g, b>>>(in, out); std::swap(in, out);`, or the same with a
// temporary (`t = in; in = out; out = t;`). Such a loop never makes two of
// those variables equal: each iteration permutes their values. So at the
// head of every iteration, and after the loop, each variable of the group
// holds the value one of them held on entry to the loop, and no two hold
// the same one. That is all the aliasing question needs, and it holds
// however many times the loop runs.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_HOST_LOOPEXCHANGES_H
#define GPURACE_ANALYZER_HOST_LOOPEXCHANGES_H

#include <vector>

namespace clang {
class ASTContext;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

class ReachingDefinitions;

// The groups of variables that the body of `loop` only exchanges among
// themselves, each in declaration order. The exchange must be complete in
// every iteration: the writes are plain copies and `std::swap` calls at
// the top level of the body, with temporaries set before they are read,
// and no jump out of the iteration between the first of them and the last.
std::vector<std::vector<const clang::VarDecl *>>
exchangeGroups(const clang::Stmt &loop, const ReachingDefinitions &environment,
               clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
