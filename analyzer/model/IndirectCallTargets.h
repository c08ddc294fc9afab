//===- IndirectCallTargets.h - where a function pointer may lead -*- C++ -*-===//
//
// A call through a function pointer reaches one of the device functions of
// the pointer's type whose address the program takes (`__device__ fn_t
// pick = sobel;`, a table of filters, `&reduceMax` passed to a kernel). The
// kernel model walks each of them as one possible callee.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_INDIRECTCALLTARGETS_H
#define GPURACE_ANALYZER_MODEL_INDIRECTCALLTARGETS_H

#include <clang/AST/Type.h>

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

class IndirectCallTargets {
public:
  // Reads the translation unit's user code (not system headers) once.
  explicit IndirectCallTargets(clang::ASTContext &ast);

  // The address-taken device functions with a body whose type is
  // `function_type`, in the order the source defines them.
  std::vector<const clang::FunctionDecl *> of(clang::QualType function_type) const;

private:
  clang::ASTContext &ast_;
  std::vector<const clang::FunctionDecl *> address_taken_;
};

} // namespace gpurace::analyzer

#endif
