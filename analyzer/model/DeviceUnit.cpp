#include "analyzer/model/DeviceUnit.h"

namespace gpurace::analyzer {

const DeviceGlobalWrites &DeviceUnit::globalWrites() {
  std::call_once(writes_once_, [this] { writes_ = std::make_unique<DeviceGlobalWrites>(ast_); });
  return *writes_;
}

const IndirectCallTargets &DeviceUnit::indirectCallTargets() {
  std::call_once(targets_once_,
                 [this] { targets_ = std::make_unique<IndirectCallTargets>(ast_); });
  return *targets_;
}

} // namespace gpurace::analyzer
