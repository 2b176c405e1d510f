/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* stand_in_driver.h: the CUDA driver calls a generated launcher's load
 * and unload make, stood in for so that the launcher tests run without a
 * GPU (included by one test program each). */
#ifndef STAND_IN_DRIVER_H
#define STAND_IN_DRIVER_H

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

/* Prints a descriptor's dimensions and strides, innermost first, as
 * cuTensorMapEncodeTiled gets them (after "  encode ...base=0x..."). */
static inline void show_encoding(const void *base, cuuint32_t rank, const cuuint64_t *dims,
                                 const cuuint64_t *strides) {
  printf("base=0x%llx dims=", (unsigned long long)(uintptr_t)base);
  for (cuuint32_t d = 0; d < rank; d++)
    printf("%s%llu", d ? "," : "", (unsigned long long)dims[d]);
  printf(" strides=");
  for (cuuint32_t d = 0; d + 1 < rank; d++)
    printf("%s%llu", d ? "," : "", (unsigned long long)strides[d]);
  printf("\n");
}

/* A store view (the kernel parameter after a stored or directly read
 * descriptor): base, sizes and byte strides of a rank-2 tensor. */
static inline void show_view(const char *what, const int64_t *v) {
  printf("  %s view base=0x%llx sizes=%lld,%lld strides=%lld,%lld\n", what,
         (unsigned long long)v[0], (long long)v[2], (long long)v[3], (long long)v[7],
         (long long)v[8]);
}

/* Whether the launcher passed `map` zeroed: it encoded none, for a
 * descriptor nothing copies through with TMA. */
static inline int map_is_zeroed(const CUtensorMap *map) {
  for (int i = 0; i < 16; i++)
    if (map->opaque[i] != 0)
      return 0;
  return 1;
}

#ifdef STAND_IN_PRINT_ENCODE
#ifndef STAND_IN_ENCODES_SHOWN
#define STAND_IN_ENCODES_SHOWN 1000000
#endif
/* An encoder that prints what it was asked (show_encoding), for the first
 * STAND_IN_ENCODES_SHOWN encodes (all unless the test says). */
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *base, const cuuint64_t *dims, const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *unit,
                                CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)map;
  (void)type;
  (void)box;
  (void)unit;
  (void)il;
  (void)sw;
  (void)l2;
  (void)oob;
  static int shown;
  if (shown++ < STAND_IN_ENCODES_SHOWN) {
    printf("  encode ");
    show_encoding(base, rank, dims, strides);
  }
  return CUDA_SUCCESS;
}
#elif defined(STAND_IN_SILENT_ENCODE)
/* An encoder that encodes nothing and says nothing: for a test of what
 * comes after the encoding. */
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *base, const cuuint64_t *dims, const cuuint64_t *strides,
                                const cuuint32_t *box, const cuuint32_t *unit,
                                CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  (void)map;
  (void)type;
  (void)rank;
  (void)base;
  (void)dims;
  (void)strides;
  (void)box;
  (void)unit;
  (void)il;
  (void)sw;
  (void)l2;
  (void)oob;
  return CUDA_SUCCESS;
}
#endif

#ifdef STAND_IN_SILENT_LAUNCH
/* Launches that do nothing, and a device that runs 66 clusters of two at
 * once (an H100's 132 SMs in pairs): for a test of the grid functions. */
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
  (void)f;
  (void)gx;
  (void)gy;
  (void)gz;
  (void)bx;
  (void)by;
  (void)bz;
  (void)smem;
  (void)s;
  (void)params;
  (void)extra;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra) {
  (void)c;
  (void)f;
  (void)params;
  (void)extra;
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxActiveClusters(int *clusters, CUfunction f, const CUlaunchConfig *c) {
  (void)f;
  (void)c;
  *clusters = 66;
  return CUDA_SUCCESS;
}
#endif

/* Where memory lives, as the launchers' residency check asks: addresses
 * from STAND_IN_HOST up are pageable host memory (no attribute set, as
 * the driver answers for memory it did not allocate), from
 * STAND_IN_PINNED up pinned host memory, from STAND_IN_OTHER_GPU up
 * device 1's memory, below that device 0's. */
#define STAND_IN_OTHER_GPU 0x500000000000ull
#define STAND_IN_PINNED 0x600000000000ull
#define STAND_IN_HOST 0x700000000000ull
CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute *what, void **data, CUdeviceptr p) {
  for (unsigned i = 0; i < n; i++) {
    if (what[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
      *(unsigned *)data[i] = p >= STAND_IN_HOST     ? 0
                             : p >= STAND_IN_PINNED ? CU_MEMORYTYPE_HOST
                                                    : CU_MEMORYTYPE_DEVICE;
    else if (what[i] == CU_POINTER_ATTRIBUTE_IS_MANAGED)
      *(unsigned *)data[i] = 0;
    else if (what[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
      *(int *)data[i] = p >= STAND_IN_HOST ? -1 : p >= STAND_IN_OTHER_GPU ? 1 : 0;
  }
  return CUDA_SUCCESS;
}

/* The device the grid functions (NAME_KERNEL_persistent_grid) size for:
 * an H100's 132 SMs. */
CUresult cuCtxGetDevice(CUdevice *d) {
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  *v = a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ? 132 : 0;
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  *p = 0x1000;
  (void)bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n) {
  (void)p;
  (void)v;
  (void)n;
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) {
  (void)p;
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  *m = (CUmodule)image;
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m) {
  (void)m;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  (void)m;
  (void)name;
  *f = (CUfunction)1;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  (void)f;
  (void)a;
  (void)v;
  return CUDA_SUCCESS;
}

#endif
