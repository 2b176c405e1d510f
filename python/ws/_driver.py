# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The CUDA side of a launch, through the CUDA Python bindings
(cuda.bindings.driver) and torch: load a module on torch's current device,
size the resident grid, launch on torch's current stream. Imported at the
first launch only, so compiling and checking need neither."""

import dataclasses

import torch

try:
    from cuda.bindings import driver as cu
except ImportError as e:
    raise ImportError("ws: a launch needs the CUDA Python bindings (pip install cuda-python): %s"
                      % e) from None


class DriverError(RuntimeError):
    pass


def _check(result, what):
    """cuda.bindings returns (CUresult, values...): the values, or raises."""
    err, rest = (result[0], result[1:]) if isinstance(result, tuple) else (result, ())
    if err != cu.CUresult.CUDA_SUCCESS:
        _, name = cu.cuGetErrorName(err)
        raise DriverError("ws: %s failed: %s" % (what, name.decode() if name else err))
    return rest[0] if len(rest) == 1 else rest


@dataclasses.dataclass
class Loaded:
    """A module on one device: its functions, the scratch that stands in
    for tensors with no element, cuTensorMapEncodeTiled's address, and each
    kernel's resident grid once asked for."""

    device: int
    module: object
    functions: dict
    scratch_tensor: object
    scratch: int
    encode: int
    sms: int
    resident: dict = dataclasses.field(default_factory=dict)


_encode_address = None


def _encode_tiled():
    """cuTensorMapEncodeTiled's address, for the C API to call."""
    global _encode_address
    if _encode_address is None:
        flags = cu.CUdriverProcAddress_flags.CU_GET_PROC_ADDRESS_DEFAULT
        result = cu.cuGetProcAddress(b"cuTensorMapEncodeTiled", 12000, flags)
        _encode_address = int(_check(result, "cuGetProcAddress")[0])
    return _encode_address


def _set_context(device):
    """Makes torch's context on `device` (the primary one) current."""
    torch.cuda.init()
    _check(cu.cuInit(0), "cuInit")
    dev = _check(cu.cuDeviceGet(device), "cuDeviceGet")
    ctx = _check(cu.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
    _check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    return dev


def load(kernel):
    """The kernel's module, loaded on torch's current device (once)."""
    module = kernel.module
    device = torch.cuda.current_device()
    loaded = module._loaded.get(device) if module._loaded else None
    if loaded is not None:
        return loaded
    dev = _set_context(device)
    image = module.cubin if module.cubin is not None else module.ptx.encode() + b"\0"
    handle = _check(cu.cuModuleLoadData(image), "cuModuleLoadData")
    functions = {}
    attribute = cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    for name, k in module.kernels.items():
        f = _check(cu.cuModuleGetFunction(handle, name.encode()), "cuModuleGetFunction")
        _check(cu.cuFuncSetAttribute(f, attribute, k.signature.shared_memory_bytes),
               "cuFuncSetAttribute")
        functions[name] = f
    scratch = torch.zeros(256, dtype=torch.uint8, device="cuda:%d" % device)
    sms = _check(cu.cuDeviceGetAttribute(
        cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
        "cuDeviceGetAttribute")
    loaded = Loaded(device, handle, functions, scratch, scratch.data_ptr(), _encode_tiled(),
                    int(sms))
    if module._loaded is None:
        module._loaded = {}
    module._loaded[device] = loaded
    return loaded


def _cluster_config(kernel, grid, stream):
    s = kernel.signature
    cx, cy = s.cluster
    config = cu.CUlaunchConfig()
    config.gridDimX = (grid[0] + cx - 1) // cx * cx  # whole clusters
    config.gridDimY = (grid[1] + cy - 1) // cy * cy
    config.gridDimZ = grid[2]
    config.blockDimX, config.blockDimY, config.blockDimZ = s.block_threads, 1, 1
    config.sharedMemBytes = s.shared_memory_bytes
    config.hStream = stream
    attr = cu.CUlaunchAttribute()
    attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cx, cy, 1
    config.attrs = [attr]
    config.numAttrs = 1
    return config


def resident_grid(kernel):
    """The kernel's resident grid on torch's current device (counted once
    per device)."""
    loaded = load(kernel)
    grid = loaded.resident.get(kernel.name)
    if grid is None:
        grid = loaded.resident[kernel.name] = _count_resident(kernel, loaded)
    return grid


def _count_resident(kernel, loaded):
    s = kernel.signature
    cx, cy = s.cluster
    if cx * cy == 1:
        return loaded.sms * max(1, s.blocks_per_sm)
    config = _cluster_config(kernel, (cx, cy, 1), 0)
    clusters = _check(cu.cuOccupancyMaxActiveClusters(loaded.functions[kernel.name], config),
                      "cuOccupancyMaxActiveClusters")
    if clusters <= 0:
        raise DriverError("ws: the device runs no cluster of %d blocks of %s"
                          % (cx * cy, kernel.name))
    return int(clusters) * cx * cy


try:  # torch's current stream as a raw handle, without a Stream object
    from torch._C import _cuda_getCurrentRawStream as _current_stream
except ImportError:
    def _current_stream(device):
        return torch.cuda.current_stream(device).cuda_stream


def raw_stream(stream, device):
    """`stream` (an int handle, a torch stream, or None for torch's current
    one on `device`) as an int handle."""
    if stream is None:
        return _current_stream(device)
    return stream.cuda_stream if hasattr(stream, "cuda_stream") else stream


def launch(kernel, loaded, grid, params, stream):
    """cuLaunchKernel (cuLaunchKernelEx for a cluster) with the prepared
    parameter array `params` (an address) on `stream` (an int handle, a
    torch stream, or None for torch's current one)."""
    if stream is None:
        stream = _current_stream(loaded.device)
    elif hasattr(stream, "cuda_stream"):
        stream = stream.cuda_stream
    s = kernel.signature
    f = loaded.functions[kernel.name]
    if s.cluster == (1, 1):
        _check(cu.cuLaunchKernel(f, grid[0], grid[1], grid[2], s.block_threads, 1, 1,
                                 s.shared_memory_bytes, stream, params, 0), "cuLaunchKernel")
        return
    config = _cluster_config(kernel, grid, stream)
    _check(cu.cuLaunchKernelEx(config, f, params, 0), "cuLaunchKernelEx")
