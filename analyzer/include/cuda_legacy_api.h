// Runtime API that CUDA 12 and later removed and older programs still use:
// the cudaThread* calls that cudaDevice* replaced, and texture references
// (`texture<float, 1> tex;` with tex1Dfetch, tex2D and cudaBindTexture),
// which texture objects replaced. Declared for analysis only, with the
// toolkit's headers and with these fallback headers alike, so that such a
// program parses as it did with the toolkit it was written for. A texture
// fetch reads memory no kernel writes: the kernel model reads it as a
// value it does not follow, as it does texture objects.
#ifndef GPURACE_CUDA_LEGACY_API_H
#define GPURACE_CUDA_LEGACY_API_H

#if defined(__cplusplus) && (!defined(CUDART_VERSION) || CUDART_VERSION >= 12000)

extern __host__ cudaError_t cudaThreadSynchronize(void);
extern __host__ cudaError_t cudaThreadExit(void);
extern __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern __host__ cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
extern __host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
extern __host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);

// Clang treats a global of a type with this attribute as device memory, as
// nvcc treated texture references.
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
};

template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {};

template <class T>
__device__ T tex1Dfetch(texture<T, 1, cudaReadModeElementType> tex, int x);
template <class T>
__device__ float tex1Dfetch(texture<T, 1, cudaReadModeNormalizedFloat> tex, int x);
template <class T>
__device__ T tex1D(texture<T, 1, cudaReadModeElementType> tex, float x);
template <class T>
__device__ T tex2D(texture<T, 2, cudaReadModeElementType> tex, float x, float y);
template <class T>
__device__ float tex2D(texture<T, 2, cudaReadModeNormalizedFloat> tex, float x, float y);
template <class T>
__device__ T tex3D(texture<T, 3, cudaReadModeElementType> tex, float x, float y, float z);

extern __host__ cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *tex,
                                            const void *ptr,
                                            const struct cudaChannelFormatDesc *desc,
                                            size_t size = ~(size_t)0);
extern __host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *tex,
                                              const void *ptr,
                                              const struct cudaChannelFormatDesc *desc,
                                              size_t width, size_t height, size_t pitch);
extern __host__ cudaError_t cudaBindTextureToArray(const struct textureReference *tex,
                                                   cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc *desc);
extern __host__ cudaError_t cudaUnbindTexture(const struct textureReference *tex);
extern __host__ cudaError_t cudaGetTextureReference(const struct textureReference **tex,
                                                    const void *symbol);

template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex,
                                     const void *ptr, size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex,
                                     const void *ptr, const struct cudaChannelFormatDesc &desc,
                                     size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex,
                                       const void *ptr, size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex,
                                       const void *ptr, const struct cudaChannelFormatDesc &desc,
                                       size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex,
                                            cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &tex);

#endif

#endif
