/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* elementwise_test.c: runs one generated elementwise kernel on the GPU with
 * random inputs and compares every element, bit for bit, with a CPU
 * reference; or times it (--bench). Built per variant on the GPU machine:
 *
 *   cc -std=c11 -O2 -ffp-contract=off -DMOD=add_f32 -DKERN=add_f32 -DNUM_IN=2
 *      -DOP_ADD -DELEM_F32 -DROWS=32 -DCOLS=64 -I<dir> elementwise_test.c
 *      <dir>/add_f32.c -lcuda
 *
 * A kernel that does not finish within WATCHDOG_SECONDS is reported as a
 * hang and the program exits with status 3. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* _exit */

#include <cuda.h>

#include "kernel_module.h"

enum { WATCHDOG_SECONDS = 10 };

#if defined(ELEM_F32)
#define ELEM_DTYPE WS_DTYPE_F32
typedef float elem_t;
static float to_float(elem_t v) { return v; }
static elem_t from_float(float f) { return f; }
#elif defined(ELEM_F16)
#define ELEM_DTYPE WS_DTYPE_F16
typedef uint16_t elem_t;
/* IEEE half <-> float, round to nearest even. */
static float to_float(elem_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
  float f;
  if (exp == 0)
    f = ldexpf((float)man, -24);
  else if (exp == 31)
    f = man ? NAN : INFINITY;
  else
    f = ldexpf((float)(man | 1024), (int)exp - 25);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  bits |= sign;
  memcpy(&f, &bits, 4);
  return f;
}
static elem_t from_float(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  float a = fabsf(f);
  if (isnan(f))
    return (elem_t)(sign | 0x7e00);
  if (a >= 65520.0f)
    return (elem_t)(sign | 0x7c00);
  if (a < ldexpf(1.0f, -14)) { /* subnormal: multiples of 2^-24 */
    float q = nearbyintf(ldexpf(a, 24));
    return (elem_t)(sign | (uint32_t)q);
  }
  int e;
  float m = frexpf(a, &e);             /* a = m * 2^e, m in [0.5, 1) */
  float q = nearbyintf(ldexpf(m, 11)); /* 11 significant bits */
  if (q >= 2048.0f) {
    q /= 2;
    e++;
  }
  uint32_t exp = (uint32_t)(e - 1 + 15), man = (uint32_t)q - 1024;
  if (exp >= 31)
    return (elem_t)(sign | 0x7c00);
  return (elem_t)(sign | exp << 10 | man);
}
#elif defined(ELEM_BF16)
#define ELEM_DTYPE WS_DTYPE_BF16
typedef uint16_t elem_t;
static float to_float(elem_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
static elem_t from_float(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (isnan(f))
    return (elem_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1); /* round to nearest even */
  return (elem_t)(x >> 16);
}
#endif

static void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = NULL;
    cuGetErrorString(r, &s);
    fprintf(stderr, "FAIL: %s: %s\n", what, s ? s : "?");
    exit(1);
  }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static float random_value(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((rng >> 11) % 2000001) / 250000.0f - 4.0f; /* [-4, 4] */
}

#if defined(OP_AXPY) || defined(OP_AXPYOUT)
/* alpha of the axpy variants: a runtime kernel argument. */
static const float alpha_value = -1.3125f;
#endif

/* The expected element at (row, col) of the tensor. */
static float reference(float a, float b, float c, uint64_t row, uint64_t col) {
  (void)c;
  (void)row;
  (void)col;
#if defined(OP_MULADD)
  elem_t m = from_float(a * b); /* the kernel rounds the product to the tile type */
  return to_float(m) + c;
#elif defined(OP_AXPY) || defined(OP_AXPYOUT)
  (void)c;
  elem_t m = from_float(alpha_value * a);
  return to_float(m) + b;
#elif defined(OP_TRIL)
  /* a + b on and below the diagonal of each ROWS x COLS tile, a above */
  return row % ROWS >= col % COLS ? a + b : a;
#else
  (void)b;
  return a + b;
#endif
}

/* Polls the launch; a kernel still running after the watchdog is a hang. */
static void wait_or_die(CUevent done) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    CUresult r = cuEventQuery(done);
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      check(r, "kernel execution");
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= WATCHDOG_SECONDS) {
      fprintf(stderr, "FAIL: kernel did not finish within %d s (a hang)\n", WATCHDOG_SECONDS);
      fflush(NULL);
      _exit(3);
    }
    nanosleep(&(struct timespec){0, 200000}, NULL);
  }
}

static ws_tensor matrix(CUdeviceptr p, uint64_t rows, uint64_t cols) {
  ws_tensor t = {
      .base = p, .rank = 2, .dtype = ELEM_DTYPE, .sizes = {rows, cols}, .strides = {cols, 1}};
  return t;
}

static CUresult launch(MODULE_T *m, CUdeviceptr *in, CUdeviceptr out, uint64_t rows,
                       uint64_t cols) {
  ws_tensor a = matrix(in[0], rows, cols), b = matrix(in[1], rows, cols);
  ws_tensor o = matrix(out, rows, cols);
  unsigned grid = (unsigned)((rows + ROWS - 1) / ROWS);
#if NUM_IN == 3
  ws_tensor c = matrix(in[2], rows, cols);
  return LAUNCH(m, NULL, grid, 1, 1, &a, &b, &c, &o, (int32_t)cols);
#elif defined(OP_AXPY) || defined(OP_AXPYOUT)
  return LAUNCH(m, NULL, grid, 1, 1, &a, &b, &o, alpha_value, (int32_t)cols);
#else
  return LAUNCH(m, NULL, grid, 1, 1, &a, &b, &o, (int32_t)cols);
#endif
}

/* The launcher's residency rule against the real driver: an input in
 * pageable or pinned host memory, or the output in pinned memory, is
 * refused naming the argument and where its memory is; managed memory is
 * taken. Returns the number of cases that went otherwise. */
static int check_residency(MODULE_T *m, CUdeviceptr *in, CUdeviceptr out, elem_t *pageable,
                           size_t bytes, uint64_t rows, uint64_t cols) {
  void *pinned = NULL;
  check(cuMemAllocHost(&pinned, bytes), "pinned alloc");
  struct {
    const char *what;
    int input; /* the argument replaced: an input's index, or -1 for the output */
    CUdeviceptr base;
    const char *refusal;
  } cases[] = {
      {"pageable input", 0, (CUdeviceptr)pageable,
       "): must be in the current GPU's memory, "
       "device 0 (its base 0x"},
      {"pinned input", 1, (CUdeviceptr)pinned, "is host memory)"},
      {"pinned output", -1, (CUdeviceptr)pinned, "host memory)"},
  };
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CUdeviceptr args[3] = {in[0], in[1], in[2]}, o = out;
    if (cases[i].input >= 0)
      args[cases[i].input] = cases[i].base;
    else
      o = cases[i].base;
    CUresult r = launch(m, args, o, rows, cols);
    int ok = r == CUDA_ERROR_INVALID_VALUE && strstr(m->error, cases[i].refusal) &&
             (cases[i].input < 0 || strstr(m->error, cases[i].input ? "arg1 (%" : "arg0 (%"));
    printf("%s residency, %s: %s (%s)\n", ok ? "PASS" : "FAIL", cases[i].what,
           ok ? "refused" : "not refused as expected", m->error);
    bad += !ok;
  }
  check(cuMemFreeHost(pinned), "pinned free");
  /* managed memory is the GPU's to read: taken, and the sum is exact */
  CUdeviceptr managed;
  check(cuMemAllocManaged(&managed, bytes, CU_MEM_ATTACH_GLOBAL), "managed alloc");
  check(cuMemcpy(managed, in[0], bytes), "managed copy");
  CUdeviceptr args[3] = {managed, in[1], in[2]};
  CUresult r = launch(m, args, out, rows, cols);
  printf("%s residency, managed input: %s%s\n", r == CUDA_SUCCESS ? "PASS" : "FAIL",
         r == CUDA_SUCCESS ? "launched" : "refused: ", r == CUDA_SUCCESS ? "" : m->error);
  bad += r != CUDA_SUCCESS;
  check(cuCtxSynchronize(), "managed launch");
  check(cuMemFree(managed), "managed free");
  return bad;
}

static int compare(const elem_t *host_in[3], const elem_t *out, size_t n, uint64_t cols) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    float c = NUM_IN == 3 ? to_float(host_in[2][i]) : 0.0f;
    elem_t want = from_float(
        reference(to_float(host_in[0][i]), to_float(host_in[1][i]), c, i / cols, i % cols));
    if (memcmp(&want, &out[i], sizeof want) != 0) {
      if (bad < 5)
        fprintf(stderr, "  mismatch at %zu: got %g want %g\n", i, to_float(out[i]), to_float(want));
      bad++;
    }
  }
  return (int)bad;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s ROWS COLS [--bench ITERS | --where]\n", argv[0]);
    return 2;
  }
  uint64_t rows = strtoull(argv[1], NULL, 10), cols = strtoull(argv[2], NULL, 10);
  int bench = argc > 4 && strcmp(argv[3], "--bench") == 0 ? atoi(argv[4]) : 0;
  int where = argc > 3 && strcmp(argv[3], "--where") == 0;
  size_t n = rows * cols, bytes = n * sizeof(elem_t);
  CUdevice dev;
  CUcontext ctx;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "context");
  check(cuCtxSetCurrent(ctx), "context");
  MODULE_T m;
  memset(&m, 0, sizeof m);
  check(LOAD(&m), "load module");
  CUdeviceptr in[3] = {0, 0, 0}, out;
  elem_t *host_in[3] = {NULL, NULL, NULL};
  for (int k = 0; k < NUM_IN; k++) {
    host_in[k] = malloc(bytes);
    for (size_t i = 0; i < n; i++)
      host_in[k][i] = from_float(random_value());
    check(cuMemAlloc(&in[k], bytes), "alloc");
    check(cuMemcpyHtoD(in[k], host_in[k], bytes), "copy in");
  }
  check(cuMemAlloc(&out, bytes), "alloc");
  check(cuMemsetD8(out, 0xFF, bytes), "poison output"); /* NaN everywhere */
  CUevent t0, t1;
  check(cuEventCreate(&t0, CU_EVENT_DEFAULT), "event");
  check(cuEventCreate(&t1, CU_EVENT_DEFAULT), "event");
  check(launch(&m, in, out, rows, cols), "launch");
  check(cuEventRecord(t1, NULL), "event");
  wait_or_die(t1);
  if (bench) {
    float best_ms[256];
    int iters = bench < 256 ? bench : 256;
    for (int it = 0; it < iters; it++) {
      check(cuEventRecord(t0, NULL), "event");
      check(launch(&m, in, out, rows, cols), "launch");
      check(cuEventRecord(t1, NULL), "event");
      wait_or_die(t1);
      check(cuEventElapsedTime(&best_ms[it], t0, t1), "elapsed");
    }
    for (int i = 1; i < iters; i++) /* insertion sort for the median */
      for (int j = i; j > 0 && best_ms[j] < best_ms[j - 1]; j--) {
        float t = best_ms[j];
        best_ms[j] = best_ms[j - 1];
        best_ms[j - 1] = t;
      }
    float ms = best_ms[iters / 2];
    double moved = (double)(NUM_IN + 1) * (double)bytes;
    printf("BENCH %s %llux%llu median %.4f ms %.3f TB/s\n", STR(KERN), (unsigned long long)rows,
           (unsigned long long)cols, ms, moved / (ms * 1e-3) / 1e12);
  }
  int refusals_bad = where ? check_residency(&m, in, out, host_in[0], bytes, rows, cols) : 0;
  elem_t *host_out = malloc(bytes);
  check(cuMemcpyDtoH(host_out, out, bytes), "copy out");
  int bad = compare((const elem_t **)host_in, host_out, n, cols) + refusals_bad;
  printf("%s %s %llux%llu: %s (%d mismatches)\n", bad ? "FAIL" : "PASS", STR(KERN),
         (unsigned long long)rows, (unsigned long long)cols, bad ? "wrong" : "exact", bad);
  return bad ? 1 : 0;
}
