// Cooperative groups, as far as synchronization analysis needs them.
#ifndef GPURACE_COOPERATIVE_GROUPS_H
#define GPURACE_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};

class thread_block : public thread_group {
public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
};

class coalesced_group : public thread_group {
public:
  __device__ unsigned meta_group_rank() const;
  template <class T> __device__ T shfl(T var, unsigned src) const;
};

template <unsigned Size> class thread_block_tile : public thread_group {
public:
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned mask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size>
__device__ thread_block_tile<Size> tiled_partition(const thread_block &parent);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned tile_size);
template <class Group> __device__ void sync(const Group &group) { group.sync(); }

} // namespace cooperative_groups

#endif
