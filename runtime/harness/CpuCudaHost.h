//===- CpuCudaHost.h - the CUDA runtime API on host memory ------*- C++ -*-===//
//
// The host side of a CUDA program on the CPU harness: device memory is host
// memory (zero-filled, so runs are reproducible), copies are memcpy,
// launches finish before they return (so synchronization is a no-op), and
// streams and events are placeholders. Launches themselves are rewritten by
// `gpurace instrument --cpu-harness` (CpuLaunch.h).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_RUNTIME_HARNESS_CPUCUDAHOST_H
#define GPURACE_RUNTIME_HARNESS_CPUCUDAHOST_H

#include "runtime/harness/CpuCuda.h"

#include <cstdlib>
#include <cstring>

enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1,
                 cudaErrorMemoryAllocation = 2, cudaErrorUnknown = 999 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                      cudaMemcpyDefault = 4 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaMemAttachGlobal 0x01
#define cudaStreamNonBlocking 0x01

struct cudaExtent { size_t width, height, depth; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return {w, h, d}; }

namespace gpurace_cpu {

inline cudaError_t allocate(void **p, size_t bytes) {
  *p = std::calloc(bytes ? bytes : 1, 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

// Rows padded to 512 bytes, a pitch real devices also return.
inline size_t pitchFor(size_t width) { return (width + 511) / 512 * 512; }

} // namespace gpurace_cpu

template <class T> cudaError_t cudaMalloc(T **p, size_t bytes) {
  return gpurace_cpu::allocate(reinterpret_cast<void **>(p), bytes);
}
template <class T>
cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned = cudaMemAttachGlobal) {
  return gpurace_cpu::allocate(reinterpret_cast<void **>(p), bytes);
}
template <class T> cudaError_t cudaMallocHost(T **p, size_t bytes) {
  return gpurace_cpu::allocate(reinterpret_cast<void **>(p), bytes);
}
template <class T>
cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height) {
  *pitch = gpurace_cpu::pitchFor(width);
  return gpurace_cpu::allocate(reinterpret_cast<void **>(p), *pitch * height);
}
inline cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e) {
  p->pitch = gpurace_cpu::pitchFor(e.width);
  p->xsize = e.width;
  p->ysize = e.height;
  return gpurace_cpu::allocate(&p->ptr, p->pitch * e.height * e.depth);
}
inline cudaError_t cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                                   cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, bytes, kind);
}
inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind) {
  for (size_t row = 0; row < height; ++row)
    std::memmove(static_cast<char *>(dst) + row * dpitch,
                 static_cast<const char *>(src) + row * spitch, width);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  std::memmove(reinterpret_cast<char *>(&symbol) + offset, src, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  std::memmove(dst, reinterpret_cast<const char *>(&symbol) + offset, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void *p, int value, size_t bytes) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t = nullptr) {
  return cudaMemset(p, value, bytes);
}

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : "error on the CPU harness";
}
inline const char *cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : "cudaErrorUnknown";
}
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceCount(int *n) {
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = nullptr;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

#endif
