// Asynchronous group copies of cooperative groups (the toolkit's
// cooperative_groups/memcpy_async.h), declared only. The copy completes at
// cg::wait(group), which also synchronizes the group.
#ifndef GPURACE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define GPURACE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class Group>
__device__ void memcpy_async(const Group &group, void *dst, const void *src,
                             size_t count);
template <class Group, class T>
__device__ void memcpy_async(const Group &group, T *dst, size_t dstCount,
                             const T *src, size_t srcCount);
template <class Group> __device__ void wait(const Group &group);
template <unsigned NumStages, class Group>
__device__ void wait_prior(const Group &group);

} // namespace cooperative_groups

#endif
