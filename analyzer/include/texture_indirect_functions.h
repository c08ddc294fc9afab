// Texture fetches and surface reads and writes through texture and surface
// objects (what the toolkit's texture_indirect_functions.h and
// surface_indirect_functions.h declare).
//
// Templates over the element type, declared only: the analyzer does not
// model texture memory (it is read-only for kernels) nor surface writes.
#ifndef GPURACE_TEXTURE_INDIRECT_FUNCTIONS_H
#define GPURACE_TEXTURE_INDIRECT_FUNCTIONS_H

#define __TEXTURE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__

#include "driver_types.h"

template <class T> __device__ T tex1Dfetch(cudaTextureObject_t obj, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t obj, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t obj, float x, float y);
template <class T>
__device__ T tex3D(cudaTextureObject_t obj, float x, float y, float z);
template <class T>
__device__ T tex1DLayered(cudaTextureObject_t obj, float x, int layer);
template <class T>
__device__ T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer);
template <class T>
__device__ T texCubemap(cudaTextureObject_t obj, float x, float y, float z);
template <class T>
__device__ T texCubemapLayered(cudaTextureObject_t obj, float x, float y,
                               float z, int layer);
template <class T>
__device__ T tex1DLod(cudaTextureObject_t obj, float x, float level);
template <class T>
__device__ T tex2DLod(cudaTextureObject_t obj, float x, float y, float level);
template <class T>
__device__ T tex3DLod(cudaTextureObject_t obj, float x, float y, float z,
                      float level);
template <class T>
__device__ T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dPdx,
                       float2 dPdy);
template <class T>
__device__ T tex2Dgather(cudaTextureObject_t obj, float x, float y,
                         int comp = 0);
// The forms that return through a pointer.
template <class T> __device__ void tex1Dfetch(T *ret, cudaTextureObject_t obj, int x);
template <class T> __device__ void tex1D(T *ret, cudaTextureObject_t obj, float x);
template <class T>
__device__ void tex2D(T *ret, cudaTextureObject_t obj, float x, float y);
template <class T>
__device__ void tex3D(T *ret, cudaTextureObject_t obj, float x, float y,
                      float z);

template <class T>
__device__ T surf1Dread(cudaSurfaceObject_t surf, int x,
                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2Dread(cudaSurfaceObject_t surf, int x, int y,
                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf3Dread(cudaSurfaceObject_t surf, int x, int y, int z,
                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2DLayeredread(cudaSurfaceObject_t surf, int x, int y,
                               int layer,
                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dread(T *ret, cudaSurfaceObject_t surf, int x,
                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dread(T *ret, cudaSurfaceObject_t surf, int x, int y,
                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dread(T *ret, cudaSurfaceObject_t surf, int x, int y,
                           int z,
                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dwrite(T data, cudaSurfaceObject_t surf, int x,
                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dwrite(T data, cudaSurfaceObject_t surf, int x, int y,
                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf3Dwrite(T data, cudaSurfaceObject_t surf, int x, int y,
                            int z,
                            cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1DLayeredwrite(T data, cudaSurfaceObject_t surf, int x,
                                   int layer,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2DLayeredwrite(T data, cudaSurfaceObject_t surf, int x,
                                   int y, int layer,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <class T>
__device__ void surfCubemapwrite(T data, cudaSurfaceObject_t surf, int x,
                                 int y, int face,
                                 cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);

#endif
