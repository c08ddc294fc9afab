// The CPU harness's cuda_runtime.h: device code on host threads and the
// runtime API on host memory. Put this directory first on the include path
// (and force-include this header, as nvcc does) to compile a program
// `gpurace instrument --cpu-harness` rewrote as host C++.
#ifndef GPURACE_HARNESS_CUDA_RUNTIME_H
#define GPURACE_HARNESS_CUDA_RUNTIME_H

#include "runtime/harness/CpuCudaHost.h"

#endif
