// Cooperative groups on the CPU harness: the block and the grid of a
// cooperative launch, with real synchronization.
#ifndef GPURACE_HARNESS_COOPERATIVE_GROUPS_H
#define GPURACE_HARNESS_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_block {
public:
  void sync() const { __syncthreads(); }
  unsigned long long size() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const { return gpurace_cpu::linearThread(); }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

class grid_group {
public:
  void sync() const { gpurace_cpu::gridSync(); }
  bool is_valid() const { return gpurace_cpu::cooperative_launch; }
  unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  unsigned long long block_rank() const {
    return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  unsigned long long size() const { return num_blocks() * thread_block().size(); }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return block_rank() * thread_block().size() + thread_block().thread_rank();
  }
  dim3 group_dim() const { return gridDim; }
};

inline thread_block this_thread_block() { return {}; }
inline grid_group this_grid() { return {}; }
template <class Group> void sync(const Group &group) { group.sync(); }

} // namespace cooperative_groups

#endif
