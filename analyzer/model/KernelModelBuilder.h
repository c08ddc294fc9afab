//===- KernelModelBuilder.h - kernel AST to KernelModel ---------*- C++ -*-===//
//
// Symbolically executes a kernel body once for "any thread": device
// functions are inlined, branches become path conditions and merged values,
// canonical loops get an iteration symbol with exact bounds and stride, and
// everything the model cannot pin down becomes a fresh symbol with the
// reason recorded.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_KERNELMODELBUILDER_H
#define GPURACE_ANALYZER_MODEL_KERNELMODELBUILDER_H

#include "analyzer/model/KernelModel.h"
#include "analyzer/model/DeviceUnit.h"
#include "analyzer/model/SymbolSpace.h"

#include <clang/AST/Type.h>

#include <stdexcept>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

struct ModelOptions {
  // Device-function inlining depth beyond which calls are opaque.
  unsigned max_inline_depth = 16;
  unsigned warp_size = 32;
  // Source lines of context kept around each access for reports.
  unsigned excerpt_context = 2;
};

// A construct in a kernel that the model can neither follow nor
// over-approximate soundly (a goto, a virtual call, a call through a
// function pointer): the kernel is not analyzed, and the error names the
// construct, the kernel and where it is.
class UnsupportedConstruct : public std::runtime_error {
public:
  UnsupportedConstruct(const std::string &construct, const std::string &location);
  const std::string &construct() const { return construct_; }
  // file:line:column, or empty.
  const std::string &location() const { return location_; }

private:
  std::string construct_, location_;
};

// Builds the model of `kernel`, which must have a body. Throws
// UnsupportedConstruct. The symbols of
// parameters are `param:<name>` (shared) so that launch contexts can
// constrain them by name.
KernelModel buildKernelModel(const clang::FunctionDecl &kernel, DeviceUnit &unit,
                             SymbolSpace &symbols, const ModelOptions &options);
// The same for a kernel alone: what it reads from its translation unit is
// read for it only.
KernelModel buildKernelModel(const clang::FunctionDecl &kernel,
                             clang::ASTContext &ast, SymbolSpace &symbols,
                             const ModelOptions &options);

// The C integer type of `type` as the model uses it: its width (8, 16, 32
// or 64) and signedness; pointers and other types are 64-bit.
IntType intTypeOf(clang::QualType type, const clang::ASTContext &ast);

// The symbol that stands for a kernel parameter's value.
std::string parameterSymbolName(const std::string &parameter);
// The name of the integer a floating-point parameter (or field of a struct
// parameter) converts to, as witnesses show it and host facts pin it.
std::string truncatedParameterName(const std::string &parameter);

// The symbol for where a pointer parameter points, in bytes from the start
// of its buffer; it matters only between parameters that may alias.
std::string pointerBaseSymbolName(const std::string &parameter);

// The Boolean symbol that holds when the host passes null for a pointer
// parameter (`partial_sums = NULL`, an optional output).
std::string pointerNullSymbolName(const std::string &parameter);

} // namespace gpurace::analyzer

#endif
