// Group-wide reductions of cooperative groups (the toolkit's
// cooperative_groups/reduce.h): cg::reduce with the operator function
// objects cg::plus, cg::less, cg::greater, cg::bit_and, ...
//
// Declared only: a reduction is a warp collective the analyzer does not look
// into; its result is an unknown value.
#ifndef GPURACE_COOPERATIVE_GROUPS_REDUCE_H
#define GPURACE_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
  __host__ __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class T> struct greater {
  __host__ __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __host__ __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  __host__ __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  __host__ __device__ T operator()(T a, T b) const { return a ^ b; }
};

// The value type of a forwarded argument, without reference or const.
template <class T> struct gpurace_value { typedef T type; };
template <class T> struct gpurace_value<T &> { typedef T type; };
template <class T> struct gpurace_value<T &&> { typedef T type; };
template <class T> struct gpurace_value<const T> { typedef T type; };
template <class T> struct gpurace_value<const T &> { typedef T type; };

template <class Group, class T, class Op>
__device__ typename gpurace_value<T>::type reduce(const Group &group, T &&value,
                                                  Op &&op);
template <class Group, class T, class Op>
__device__ void reduce_store_async(const Group &group, T *dst, T &&value,
                                   Op &&op);
template <class Group, class T, class Op>
__device__ void reduce_update_async(const Group &group, T &dst, T &&value,
                                    Op &&op);

} // namespace cooperative_groups

#endif
