/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* matmul_test.c: runs one generated matmul kernel (C = A @ B^T, or A @ B
 * with -DKN; f16 or bf16 in, f32 accumulation, f16/bf16 out, max(C, 0)
 * with -DRELU, alpha x C with -DALPHA) on the GPU and checks it against a CPU reference; or times
 * it (--bench). Built per variant on the GPU machine:
 *
 *   cc -std=c11 -O2 -DMOD=mm -DKERN=mm -DBM=128 -DBN=256 [-DBF16] [-DKN]
 *      [-DRELU | -DALPHA] [-DPERSISTENT] -I<dir> matmul_test.c <dir>/mm.c -lcuda -lm
 *   ./a.out M N K            check (every element, or 4096 sampled ones
 *                            when M*N is large), and check that no byte
 *                            around C changed
 *   ./a.out M N K --extra-blocks   the same check with two blocks more
 *                            than tiles in x and in y (persistent: two
 *                            blocks more than tiles)
 *   ./a.out M N K --grid G   (-DPERSISTENT) the check on G blocks
 *   -DSPLIT_K: the kernel takes a split-K workspace (zeroed once); the
 *   check also wants its flags zero after the launch and the same bits
 *   from a second launch
 *   ./a.out M N K --bench I  time I launches on random full-mantissa
 *                            inputs, print TFLOP/s
 *
 * A launch that does not finish within WATCHDOG_SECONDS is reported as a
 * hang (exit status 3). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>

#include "../kernel_module.h"

enum { WATCHDOG_SECONDS = 20, GUARD_ROWS = 2, SENTINEL = 0x7E57 };

/* The kernel's arguments after the tensors: M and N for -DPERSISTENT (the
 * kernel loops over the tiles they make), K, alpha for -DALPHA (a runtime
 * f32 the epilogue scales the accumulator by) and beta for -DRESIDUAL. */
#ifdef PERSISTENT
#define SIZE_ARGS (int32_t)M, (int32_t)N,
#define PERSISTENT_GRID XCAT4(MOD, _, KERN, _persistent_grid)
#else
#define SIZE_ARGS
#endif
#ifdef RESIDUAL
static const float beta_value = 0.5f;
#define BETA_ARG , beta_value
#else
#define BETA_ARG
#endif
#ifdef ALPHA
static const float alpha_value = -0.71875f;
#define K_ARGS SIZE_ARGS(int32_t) K, alpha_value BETA_ARG
#else
#define K_ARGS SIZE_ARGS(int32_t) K
#endif
/* The epilogue's tensors after C: a bias per column (-DBIAS_ROW, 1 x N of
 * C's type), an f32 bias per row (-DBIAS_COL, 1 x M), a residual
 * (-DRESIDUAL, M x N of C's type, scaled by beta). */
#if defined(BIAS_ROW)
#define EPILOGUE_TENSORS &tbias,
#elif defined(BIAS_COL)
#define EPILOGUE_TENSORS &trowbias,
#elif defined(RESIDUAL)
#define EPILOGUE_TENSORS &tres,
#else
#define EPILOGUE_TENSORS
#endif

/* -DSPLIT_K: the kernel's last argument is its split-K workspace, zeroed
 * once; after the run its flags must be zero again. */
#ifdef SPLIT_K
#define WORKSPACE_ARG , (int64_t)dw
#define WORKSPACE_BYTES XCAT4(MOD, _, KERN, _workspace_bytes)
#else
#define WORKSPACE_ARG
#endif

#ifdef BF16
#define HALF WS_DTYPE_BF16
#else
#define HALF WS_DTYPE_F16
#endif

/* A ws_tensor of rank 2: rows x cols with rows `ld` elements apart. */
static ws_tensor matrix(CUdeviceptr base, ws_dtype dtype, long rows, long cols, long ld) {
  ws_tensor t = {.base = base,
                 .rank = 2,
                 .dtype = dtype,
                 .sizes = {(uint64_t)rows, (uint64_t)cols},
                 .strides = {(uint64_t)ld, 1}};
  return t;
}

static float half_to_float(uint16_t h) {
#ifdef BF16
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
#else
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
  float f = exp == 0    ? ldexpf((float)man, -24)
            : exp == 31 ? (man ? NAN : INFINITY)
                        : ldexpf((float)(man | 1024), (int)exp - 25);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  bits |= sign;
  memcpy(&f, &bits, 4);
  return f;
#endif
}

/* Inputs are multiples of 1/8 in [-1, 1]: exact in f16 and bf16. */
static uint16_t small_value(unsigned r) {
  int q = (int)(r % 17) - 8; /* -8..8 */
  float f = (float)q / 8.0f;
#ifdef BF16
  uint32_t bits;
  memcpy(&bits, &f, 4);
  return (uint16_t)(bits >> 16);
#else
  if (q == 0)
    return 0;
  int e;
  float m = frexpf(fabsf(f), &e); /* 0.5 <= m < 1 */
  uint16_t man = (uint16_t)((m * 2.0f - 1.0f) * 1024.0f + 0.5f);
  return (uint16_t)((q < 0 ? 0x8000 : 0) | ((e - 1 + 15) << 10) | man);
#endif
}

/* For timing: random sign, exponent and every mantissa bit (magnitudes
 * 1/8 to 1), so the tensor cores see as many toggling bits as with the
 * normal random inputs cuBLAS and Triton are timed on. */
static uint16_t dense_value(unsigned r) {
  /* the LCG's low bits repeat with short periods: mix them first, so that
   * every mantissa bit is random (operands with fewer toggling bits draw
   * less power, and a power-bound kernel then runs at a higher clock) */
  r ^= r >> 16;
  r *= 0x7feb352du;
  r ^= r >> 15;
  r *= 0x846ca68bu;
  r ^= r >> 16;
#ifdef BF16
  return (uint16_t)(((r >> 16) & 1) << 15 | (124 + (r >> 8) % 3) << 7 | (r & 127));
#else
  return (uint16_t)(((r >> 16) & 1) << 15 | (12 + (r >> 11) % 3) << 10 | (r & 1023));
#endif
}

static void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = "?";
    cuGetErrorString(r, &s);
    fprintf(stderr, "FAIL %s: %s\n", what, s);
    exit(1);
  }
}

/* Waits for the stream, or reports a hang. */
static void finish(CUstream s) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    CUresult r = cuStreamQuery(s);
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      check(r, "kernel");
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > WATCHDOG_SECONDS) {
      printf("HANG %s: no completion after %d s\n", STR(MOD), WATCHDOG_SECONDS);
      fflush(stdout);
      _Exit(3);
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s M N K [--bench ITERS]\n", argv[0]);
    return 2;
  }
  long M = atol(argv[1]), N = atol(argv[2]), K = atol(argv[3]);
  int bench = argc > 5 && strcmp(argv[4], "--bench") == 0 ? atoi(argv[5]) : 0;
  /* --extra-blocks: a grid with blocks past the last tile in x and y */
  unsigned extra = argc > 4 && strcmp(argv[4], "--extra-blocks") == 0 ? 2 : 0;
  /* --grid G: a persistent kernel on G blocks (default: the launcher's
   * persistent grid, one block per SM slot) */
  unsigned grid = argc > 5 && strcmp(argv[4], "--grid") == 0 ? (unsigned)atoi(argv[5]) : 0;
  /* rows of 16-byte multiples (at least one granule, so that K = 0 has a
   * valid stride); C padded */
  long lda = K > 0 ? (K + 7) / 8 * 8 : 8, ldc = (N + 7) / 8 * 8 + 8;
#ifdef KN
  long ldb = (N + 7) / 8 * 8, b_rows = K; /* B is K x N */
#else
  long ldb = lda, b_rows = N; /* B is N x K */
#endif
  check(cuInit(0), "cuInit");
  CUdevice dev;
  CUcontext ctx;
  check(cuDeviceGet(&dev, 0), "device");
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "context");
  check(cuCtxSetCurrent(ctx), "context");
  MODULE_T mod;
  check(LOAD(&mod), "load");
  size_t a_elems = (size_t)M * lda, b_elems = (size_t)b_rows * ldb;
  size_t c_elems = (size_t)(M + 2 * GUARD_ROWS) * ldc;
  uint16_t *a = malloc(a_elems * 2), *b = malloc(b_elems * 2), *c = malloc(c_elems * 2);
  unsigned seed = 12345;
  uint16_t (*value)(unsigned) = bench ? dense_value : small_value;
  for (size_t i = 0; i < a_elems; i++)
    a[i] = value((seed = seed * 1103515245u + 12345u) >> 8);
  for (size_t i = 0; i < b_elems; i++)
    b[i] = value((seed = seed * 1103515245u + 12345u) >> 8);
  for (size_t i = 0; i < c_elems; i++)
    c[i] = SENTINEL;
  CUdeviceptr da, db, dc;
  check(cuMemAlloc(&da, a_elems * 2 + 16), "alloc");
  check(cuMemAlloc(&db, b_elems * 2 + 16), "alloc");
  check(cuMemAlloc(&dc, c_elems * 2), "alloc");
  check(cuMemcpyHtoD(da, a, a_elems * 2), "copy");
  check(cuMemcpyHtoD(db, b, b_elems * 2), "copy");
  check(cuMemcpyHtoD(dc, c, c_elems * 2), "copy");
  ws_tensor ta = matrix(da, HALF, M, K, lda);
#ifdef KN
  ws_tensor tb = matrix(db, HALF, K, N, ldb);
#else
  ws_tensor tb = matrix(db, HALF, N, K, ldb);
#endif
  ws_tensor tc = matrix(dc + (CUdeviceptr)(GUARD_ROWS * ldc * 2), HALF, M, N, ldc);
  /* epilogue operands: a bias row and a residual of C's type, an f32 row */
  size_t e_elems = (size_t)M * ldc + ldc, r_elems = (size_t)(M + 3) / 4 * 4;
  uint16_t *e = malloc(e_elems * 2);
  float *rowbias = malloc(r_elems * 4);
  for (size_t i = 0; i < e_elems; i++)
    e[i] = value((seed = seed * 1103515245u + 12345u) >> 8);
  for (size_t i = 0; i < r_elems; i++)
    rowbias[i] = (float)((int)((seed = seed * 1103515245u + 12345u) >> 8) % 17 - 8) / 8.0f;
  CUdeviceptr de, dr;
  check(cuMemAlloc(&de, e_elems * 2), "alloc");
  check(cuMemAlloc(&dr, r_elems * 4), "alloc");
  check(cuMemcpyHtoD(de, e, e_elems * 2), "copy");
  check(cuMemcpyHtoD(dr, rowbias, r_elems * 4), "copy");
  ws_tensor tbias = matrix(de, HALF, 1, N, ldc);
  ws_tensor tres = matrix(de, HALF, M, N, ldc);
  ws_tensor trowbias = matrix(dr, WS_DTYPE_F32, 1, M, (long)r_elems);
  (void)tbias;
  (void)tres;
  (void)trowbias;
  unsigned gx = (unsigned)((M + BM - 1) / BM), gy = (unsigned)((N + BN - 1) / BN);
  if (gx == 0)
    gx = 1;
  if (gy == 0)
    gy = 1;
  gx += extra;
  gy += extra;
#ifdef PERSISTENT
  gx = extra ? (gx - extra) * (gy - extra) + extra : grid ? grid : PERSISTENT_GRID(&mod);
  gy = 1;
#else
  (void)grid;
#endif
#ifdef SPLIT_K
  CUdeviceptr dw;
  size_t w_bytes = WORKSPACE_BYTES(gx);
  check(cuMemAlloc(&dw, w_bytes), "alloc");
  check(cuMemsetD8(dw, 0, w_bytes), "memset");
#endif
  CUstream s;
  check(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "stream");
  CUresult r = LAUNCH(&mod, s, gx, gy, 1, &ta, &tb, &tc, EPILOGUE_TENSORS K_ARGS WORKSPACE_ARG);
  if (r != CUDA_SUCCESS)
    fprintf(stderr, "launch: %s\n", mod.error);
  check(r, "launch");
  finish(s);
  if (bench) {
    CUevent e0, e1;
    check(cuEventCreate(&e0, 0), "event");
    check(cuEventCreate(&e1, 0), "event");
    for (int i = 0; i < 3; i++)
      check(LAUNCH(&mod, s, gx, gy, 1, &ta, &tb, &tc, EPILOGUE_TENSORS K_ARGS WORKSPACE_ARG),
            "launch");
    check(cuEventRecord(e0, s), "event");
    for (int i = 0; i < bench; i++)
      check(LAUNCH(&mod, s, gx, gy, 1, &ta, &tb, &tc, EPILOGUE_TENSORS K_ARGS WORKSPACE_ARG),
            "launch");
    check(cuEventRecord(e1, s), "event");
    finish(s);
    float ms;
    check(cuEventElapsedTime(&ms, e0, e1), "time");
    double per = ms / bench;
    printf("%s %ldx%ldx%ld: %.3f ms, %.1f TFLOP/s\n", STR(MOD), M, N, K, per,
           2.0 * M * N * K / (per * 1e-3) / 1e12);
    return 0;
  }
  check(cuMemcpyDtoH(c, dc, c_elems * 2), "copy back");
  long bad = 0, checked = 0, outside = 0, unsettled = 0;
#ifdef SPLIT_K
  /* every flag is zero again, and a second launch gives the same bits */
  size_t per_block = w_bytes / gx;
  uint32_t *w = malloc(w_bytes);
  uint16_t *again = malloc(c_elems * 2);
  check(cuMemcpyDtoH(w, dw, w_bytes), "copy back");
  for (unsigned blk = 0; blk < gx; blk++)
    for (size_t g = 0; g < 32; g++)
      unsettled += w[(blk * per_block + per_block - 128) / 4 + g] != 0;
  check(LAUNCH(&mod, s, gx, gy, 1, &ta, &tb, &tc, EPILOGUE_TENSORS K_ARGS WORKSPACE_ARG), "launch");
  finish(s);
  check(cuMemcpyDtoH(again, dc, c_elems * 2), "copy back");
  for (size_t e = 0; e < c_elems; e++)
    unsettled += again[e] != c[e];
  free(w);
  free(again);
#endif
  for (long i = 0; i < M + 2 * GUARD_ROWS; i++)
    for (long j = 0; j < ldc; j++) {
      bool in = i >= GUARD_ROWS && i < M + GUARD_ROWS && j < N;
      if (!in && c[i * ldc + j] != SENTINEL)
        outside++;
    }
  bool sample = M * N > 1 << 20;
  for (long t = 0; t < (sample ? 4096 : M * N); t++) {
    long i = sample ? (long)((seed = seed * 1103515245u + 12345u) % (unsigned)M) : t / N;
    long j = sample ? (long)((seed = seed * 1103515245u + 12345u) % (unsigned)N) : t % N;
    double ref = 0;
    for (long k = 0; k < K; k++)
#ifdef KN
      ref += (double)half_to_float(a[i * lda + k]) * half_to_float(b[k * ldb + j]);
#else
      ref += (double)half_to_float(a[i * lda + k]) * half_to_float(b[j * ldb + k]);
#endif
#ifdef BIAS_ROW
    ref += half_to_float(e[j]);
#endif
#ifdef BIAS_COL
    ref += rowbias[i];
#endif
#ifdef RELU
    ref = ref > 0 ? ref : 0;
#endif
#ifdef ALPHA
    ref = (float)ref * alpha_value; /* the kernel scales the f32 accumulator */
#endif
#ifdef RESIDUAL
    ref += (double)half_to_float(e[i * ldc + j]) * beta_value;
#endif
    float got = half_to_float(c[(i + GUARD_ROWS) * ldc + j]);
    double tol = 1e-2 * fabs(ref) + 1e-2;
    checked++;
    if (!(fabs(got - ref) <= tol)) {
      if (bad < 5)
        printf("  C[%ld][%ld] = %g, expected %g\n", i, j, got, ref);
      bad++;
    }
  }
  char how[48] = "";
  if (extra)
    snprintf(how, sizeof how, " (extra blocks)");
#ifdef PERSISTENT
  else
    snprintf(how, sizeof how, " (grid %u)", gx);
#endif
  printf("%s %s %ldx%ldx%ld%s: %ld of %ld checked elements wrong, %ld bytes outside C "
         "changed",
         bad || outside || unsettled ? "FAIL" : "PASS", STR(MOD), M, N, K, how, bad, checked,
         2 * outside);
#ifdef SPLIT_K
  printf(", %ld workspace flags set or elements changed on a second launch", unsettled);
#endif
  printf("\n");
  return bad || outside || unsettled ? 1 : 0;
}
