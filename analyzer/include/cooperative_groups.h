// Cooperative groups (the toolkit's cooperative_groups.h): the group types,
// how programs obtain them, and their collectives.
//
// The analyzer models `sync()` of each group class by the class's name
// (thread_block: barrier, grid_group: grid sync, thread_block_tile and
// coalesced_group: warp-level sync) and reads the tile size from the first
// template argument of thread_block_tile, so those names and that argument
// order stay. Everything is declared only.
#ifndef GPURACE_COOPERATIVE_GROUPS_H
#define GPURACE_COOPERATIVE_GROUPS_H

#define _COOPERATIVE_GROUPS_H_

#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned int get_type() const;
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
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
  __device__ dim3 dim_clusters() const;
  __device__ unsigned long long num_clusters() const;
};

class multi_grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
  __device__ unsigned int grid_rank() const;
  __device__ unsigned int num_grids() const;
};

// Warp-level collectives shared by tiles and coalesced groups.
class gpurace_warp_collectives : public thread_group {
public:
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned mask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned ballot(int predicate) const;
  template <class T> __device__ unsigned match_any(T value) const;
  template <class T> __device__ unsigned match_all(T value, int &pred) const;
};

class coalesced_group : public gpurace_warp_collectives {};

// A tile of Size threads. tiled_partition<Size>(parent) returns the tile
// typed with its parent; it converts to the parent-less tile type.
template <unsigned Size, class Parent = void>
class thread_block_tile : public gpurace_warp_collectives {
public:
  __device__ thread_block_tile();
  template <class P>
  __device__ thread_block_tile(const thread_block_tile<Size, P> &other);
  static constexpr unsigned long long num_threads() { return Size; }
  static constexpr unsigned long long size() { return Size; }
};

template <unsigned MaxBlockSize = 1024> struct block_tile_memory {
  char reserved[8 * sizeof(unsigned long long)];
};

__device__ thread_block this_thread_block();
template <unsigned MaxBlockSize>
__device__ thread_block this_thread_block(block_tile_memory<MaxBlockSize> &scratch);
__device__ grid_group this_grid();
__device__ multi_grid_group this_multi_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, class Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &parent);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned tile_size);
__device__ coalesced_group binary_partition(const coalesced_group &parent,
                                            bool pred);
template <unsigned Size, class Parent>
__device__ coalesced_group binary_partition(const thread_block_tile<Size, Parent> &parent,
                                            bool pred);
template <class Label>
__device__ coalesced_group labeled_partition(const coalesced_group &parent,
                                             Label label);
template <class Group> __device__ void sync(const Group &group) { group.sync(); }
template <class Group>
__device__ unsigned long long thread_rank(const Group &group) {
  return group.thread_rank();
}
template <class Group>
__device__ unsigned long long group_size(const Group &group) {
  return group.size();
}
template <class Group>
__device__ unsigned long long num_threads(const Group &group) {
  return group.num_threads();
}

} // namespace cooperative_groups

#endif
