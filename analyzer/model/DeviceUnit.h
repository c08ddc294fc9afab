//===- DeviceUnit.h - what every kernel model of a file shares --*- C++ -*-===//
//
// The device side of one translation unit, with what the model builder
// reads from all of it rather than from one kernel: the device globals
// that no device code writes (DeviceGlobalWrites.h) and the functions a
// function pointer may lead to (IndirectCallTargets.h). Each is read at
// its first use and then kept for the file's other kernels, the instances
// of a template among them, which would otherwise read the whole unit
// again, once per kernel and once per walk.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_DEVICEUNIT_H
#define GPURACE_ANALYZER_MODEL_DEVICEUNIT_H

#include "analyzer/model/DeviceGlobalWrites.h"
#include "analyzer/model/IndirectCallTargets.h"

#include <memory>
#include <mutex>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpurace::analyzer {

class DeviceUnit {
public:
  explicit DeviceUnit(clang::ASTContext &ast) : ast_(ast) {}
  DeviceUnit(const DeviceUnit &) = delete;
  DeviceUnit &operator=(const DeviceUnit &) = delete;

  clang::ASTContext &ast() const { return ast_; }
  // Safe on any thread.
  const DeviceGlobalWrites &globalWrites();
  const IndirectCallTargets &indirectCallTargets();

private:
  clang::ASTContext &ast_;
  std::once_flag writes_once_, targets_once_;
  std::unique_ptr<DeviceGlobalWrites> writes_;
  std::unique_ptr<IndirectCallTargets> targets_;
};

} // namespace gpurace::analyzer

#endif
