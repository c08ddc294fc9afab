// Profiler control (the toolkit's cuda_profiler_api.h): cudaProfilerStart
// and cudaProfilerStop, declared with the rest of the runtime API.
#ifndef GPURACE_CUDA_PROFILER_API_H
#define GPURACE_CUDA_PROFILER_API_H

#define __CUDA_PROFILER_API_H__

#include "cuda_runtime_api.h"

#endif
