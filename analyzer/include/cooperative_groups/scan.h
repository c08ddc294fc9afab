// Group-wide scans of cooperative groups (the toolkit's
// cooperative_groups/scan.h), declared only.
#ifndef GPURACE_COOPERATIVE_GROUPS_SCAN_H
#define GPURACE_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

namespace cooperative_groups {

template <class Group, class T>
__device__ typename gpurace_value<T>::type inclusive_scan(const Group &group,
                                                          T &&value);
template <class Group, class T, class Op>
__device__ typename gpurace_value<T>::type
inclusive_scan(const Group &group, T &&value, Op &&op);
template <class Group, class T>
__device__ typename gpurace_value<T>::type exclusive_scan(const Group &group,
                                                          T &&value);
template <class Group, class T, class Op>
__device__ typename gpurace_value<T>::type
exclusive_scan(const Group &group, T &&value, Op &&op);

} // namespace cooperative_groups

#endif
