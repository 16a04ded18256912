/*
 * sample.cu — a small program written against the CUDA libraries, the input
 * of the cuda2trn test (tests/unit/test_cuda2trn.py). After cuda2trn it must
 * compile against the trnsci headers. The word barracuda, the identifiers
 * my_cudaFree, cudatoolkit_dir and CUDAfy_count are not renamed.
 */
#include <cuda_runtime.h>
#  include "cuda_runtime_api.h"
#include <driver_types.h>
#include <library_types.h>
#include <cuComplex.h>
#include <cublas_v2.h>
#include <cublas_api.h>
#include <cufft.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusolver_common.h>
#include <cusolverSp.h>
#include <cusparse.h>
#include <cusparse_v2.h>
#include <cutensor.h>
#include <cuda_fp16.h>
#include "cuda_bf16.h"
#include <stdio.h>

static int barracuda = CUDART_VERSION;
static int cudatoolkit_dir = 0, CUDAfy_count = 0;

static void my_cudaFree(void *p) {
    cudaFree(p); /* a cudaFree in a comment: renamed too */
}

static int check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        printf("cudaMalloc and friends: %s: %s\n", what, cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

int main(void) {
    float *x = NULL;
    cudaStream_t stream;
    int least, greatest;
    if (check(cudaMalloc((void **)&x, 64 * sizeof(float)), "cudaMalloc") ||
        check(cudaStreamCreate(&stream), "stream") ||
        check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "priorities"))
        return 1;
    float h[64] = {0};
    cudaMemcpyAsync(x, h, sizeof(h), cudaMemcpyHostToDevice, stream);
    cudaDataType_t dt = CUDA_R_32F;
    cudaDataType dz = CUDA_C_64F;

    cublasHandle_t blas;
    const float one = 1.0f, zero = 0.0f;
    if (cublasCreate_v2(&blas) != CUBLAS_STATUS_SUCCESS)
        return 1;
    cublasSetStream(blas, stream);
    cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, 8, 8, 8, &one, x, 8, x, 8, &zero, x, 8);
    cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
    cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, x, dt, 8, x, dt, 8, &zero, x, dt,
                 8, ct, CUBLAS_GEMM_DEFAULT);
    __half hx = __float2half(0.5f), hz = __float2half_rn(0.0f);
    __half *hm = (__half *)x;
    cublasHgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &hx, hm, 4, hm, 4, &hz, hm, 4);
    cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &hx, hm, CUDA_R_16F, 4, hm, CUDA_R_16F,
                 4, &hz, hm, CUDA_R_16F, 4, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
    __nv_bfloat16 bx = __float2bfloat16(__half2float(hx));
    printf("%g\n", (double)__bfloat162float(bx));
    int qr_info = 0;
    cublasSgeqrfBatched(blas, 4, 4, NULL, 4, NULL, &qr_info, 0);
    cublasSgelsBatched(blas, CUBLAS_OP_N, 4, 4, 1, NULL, 4, NULL, 4, &qr_info, NULL, 0);
    cublasStrsmBatched(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                       CUBLAS_DIAG_NON_UNIT, 4, 4, &one, NULL, 4, NULL, 4, 0);
    cublasSgemmGroupedBatched(blas, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                              NULL, NULL, NULL, 0, NULL);
    cublasDestroy_v2(blas);

    cuComplex c = make_cuComplex(1.0f, 2.0f);
    cuFloatComplex cf = make_cuFloatComplex(c.x, c.y);
    cuDoubleComplex cd = make_cuDoubleComplex(cf.x, cf.y);
    cufftComplex *spectrum = (cufftComplex *)x;
    cufftHandle plan;
    size_t work = 0;
    if (cufftPlan1d(&plan, 32, CUFFT_C2C, 1) != CUFFT_SUCCESS)
        return 1;
    cufftGetSize(plan, &work);
    cufftSetStream(plan, stream);
    cufftExecC2C(plan, spectrum, spectrum, CUFFT_FORWARD);
    cufftXtExec(plan, spectrum, spectrum, CUFFT_INVERSE);
    cufftDestroy(plan);

    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandGenerateUniform(gen, x, 64);
    curandDestroyGenerator(gen);
    float on_host[8];
    curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_XORWOW);
    curandGenerateUniform(gen, on_host, 8);
    curandDestroyGenerator(gen);

    cusolverDnHandle_t solver;
    if (cusolverDnCreate(&solver) == CUSOLVER_STATUS_SUCCESS)
        cusolverDnDestroy(solver);
    cusolverDnParams_t solverParams;
    if (cusolverDnCreateParams(&solverParams) == CUSOLVER_STATUS_SUCCESS) {
        cusolverDnSetAdvOptions(solverParams, CUSOLVERDN_GETRF, CUSOLVER_ALG_1);
        cusolverDnDestroyParams(solverParams);
    }
    cusolverSpHandle_t spSolver;
    csrqrInfo_t qrInfo;
    if (cusolverSpCreate(&spSolver) == CUSOLVER_STATUS_SUCCESS) {
        cusolverSpSetStream(spSolver, stream);
        if (cusolverSpCreateCsrqrInfo(&qrInfo) == CUSOLVER_STATUS_SUCCESS)
            cusolverSpDestroyCsrqrInfo(qrInfo);
        cusolverSpDestroy(spSolver);
    }
    cusparseHandle_t sparse;
    if (cusparseCreate(&sparse) == CUSPARSE_STATUS_SUCCESS)
        cusparseDestroy(sparse);
    cusparseSpVecDescr_t spvec = NULL;
    cusparseSpSVDescr_t spsv = NULL;
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_UNIT;
    if (cusparseSpSV_createDescr(&spsv) == CUSPARSE_STATUS_SUCCESS)
        cusparseSpSV_destroyDescr(spsv);
    if (cusparseCreateSpVec(&spvec, 8, 0, NULL, NULL, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS)
        cusparseDestroySpVec(spvec);
    (void)fill, (void)diag;
    cutensorHandle_t tensor;
    cutensorDataType_t tt = CUTENSOR_R_32F;
    cutensorOperator_t op = CUTENSOR_OP_IDENTITY;
    cutensorStatus_t ts = CUTENSOR_STATUS_CUBLAS_ERROR;
    if (cutensorCreate(&tensor) == CUTENSOR_STATUS_SUCCESS)
        cutensorDestroy(tensor);

    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    my_cudaFree(x);
    printf("%d %d %d %d %d %d %d %d %d %g\n", barracuda, cudatoolkit_dir, CUDAfy_count, (int)dz,
           (int)tt, (int)op, (int)ts, CUFFT_VERSION, (int)work, cd.x);
    return 0;
}
