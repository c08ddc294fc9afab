//===- DeviceGlobalWrites.h - device globals kernels only read --*- C++ -*-===//
//
// A `__device__` or `__constant__` variable that no device code of the
// translation unit writes (a dispatch table the host fills with
// cudaMemcpyToSymbol, a coefficient array) holds the same value for every
// thread throughout a kernel: two threads that load one element of it load
// the same value. Any use of the variable in device code other than a
// plain load (an assignment, an update, its address taken or bound to a
// reference) counts as a write. Device code of other translation units
// is assumed not to write it, as host globals are.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_DEVICEGLOBALWRITES_H
#define GPURACE_ANALYZER_MODEL_DEVICEGLOBALWRITES_H

#include <set>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer {

class DeviceGlobalWrites {
public:
  // Reads the device code of the translation unit once.
  explicit DeviceGlobalWrites(clang::ASTContext &ast);

  // Whether kernels only ever load `var`.
  bool readOnly(const clang::VarDecl &var) const;

private:
  std::set<const clang::VarDecl *> written_;
};

} // namespace gpurace::analyzer

#endif
