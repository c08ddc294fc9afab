// cuBLAS (the toolkit's cublas_v2.h / cublas_api.h): the handle, status and
// option types and the common level-1/2/3 routines, declared only, so host
// code that hands work to cuBLAS between its own kernels parses.
#ifndef GPURACE_CUBLAS_V2_H
#define GPURACE_CUBLAS_V2_H

#define CUBLAS_V2_H_
#define CUBLAS_API_H_

#include "cuda_runtime.h"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2
} cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_POINTER_MODE_HOST = 0,
  CUBLAS_POINTER_MODE_DEVICE = 1
} cublasPointerMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3
} cublasMath_t;
typedef struct cublasContext *cublasHandle_t;

#ifdef __cplusplus
extern "C" {
#endif
cublasStatus_t cublasCreate(cublasHandle_t *handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId);
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle,
                                    cublasPointerMode_t mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx,
                               void *y, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx,
                               void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A,
                               int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A,
                               int lda, void *B, int ldb);
#define GPURACE_CUBLAS_ROUTINES(T, P)                                          \
  cublasStatus_t cublas##P##axpy(cublasHandle_t handle, int n, const T *alpha, \
                                 const T *x, int incx, T *y, int incy);        \
  cublasStatus_t cublas##P##scal(cublasHandle_t handle, int n, const T *alpha, \
                                 T *x, int incx);                              \
  cublasStatus_t cublas##P##copy(cublasHandle_t handle, int n, const T *x,     \
                                 int incx, T *y, int incy);                    \
  cublasStatus_t cublas##P##dot(cublasHandle_t handle, int n, const T *x,      \
                                int incx, const T *y, int incy, T *result);    \
  cublasStatus_t cublas##P##nrm2(cublasHandle_t handle, int n, const T *x,     \
                                 int incx, T *result);                         \
  cublasStatus_t cublas##P##asum(cublasHandle_t handle, int n, const T *x,     \
                                 int incx, T *result);                         \
  cublasStatus_t cublas##P##gemv(cublasHandle_t handle,                        \
                                 cublasOperation_t trans, int m, int n,        \
                                 const T *alpha, const T *A, int lda,          \
                                 const T *x, int incx, const T *beta, T *y,    \
                                 int incy);                                    \
  cublasStatus_t cublas##P##gemm(                                              \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, int m, int n, int k, const T *alpha,           \
      const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc); \
  cublasStatus_t cublas##P##gemmBatched(                                       \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, int m, int n, int k, const T *alpha,           \
      const T *const Aarray[], int lda, const T *const Barray[], int ldb,      \
      const T *beta, T *const Carray[], int ldc, int batchCount);              \
  cublasStatus_t cublas##P##trsm(                                              \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,     \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n,            \
      const T *alpha, const T *A, int lda, T *B, int ldb);
GPURACE_CUBLAS_ROUTINES(float, S)
GPURACE_CUBLAS_ROUTINES(double, D)
#undef GPURACE_CUBLAS_ROUTINES
cublasStatus_t cublasIsamax(cublasHandle_t handle, int n, const float *x,
                            int incx, int *result);
cublasStatus_t cublasIdamax(cublasHandle_t handle, int n, const double *x,
                            int incx, int *result);
#ifdef __cplusplus
}
#endif

#endif
