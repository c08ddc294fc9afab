#include "runtime/detector/ShadowMemory.h"

namespace gpurace::rt {

void ShadowMemory::remember(std::vector<ShadowAccess> &list,
                            const ShadowAccess &access) {
  if (list.size() >= kMaxEntries) {
    list.erase(list.begin());
    ++evicted_;
  }
  list.push_back(access);
}

} // namespace gpurace::rt
