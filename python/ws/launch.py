# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernels of a compiled module, and their launches on PyTorch tensors.

The argument rules are the C API's (wsLaunchPrepare, ws-c/Launch.h), the
ones every generated C launcher carries; a refusal is a ValueError naming
the kernel, the argument and the rule. Launches go through the CUDA Python
bindings (cuda.bindings.driver), imported at the first launch, on torch's
current device and stream.
"""

import ctypes
import functools
import operator
import re

from . import _capi

_TORCH_DTYPES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16",
                 "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "int8": "i8",
                 "int32": "i32"}
_INT_RANGES = {"i32": (-2 ** 31, 2 ** 31 - 1), "i64": (-2 ** 63, 2 ** 63 - 1)}
_LAUNCHES_KEPT = 16  # prepared argument sets kept per kernel


def _dtype_number(dtype, numbers):
    """WsDtype's number of a torch dtype (or a ws name); 0 when it has none."""
    name = str(dtype)
    name = _TORCH_DTYPES.get(name[6:] if name.startswith("torch.") else name, name)
    return numbers.get(name, 0)


@functools.lru_cache(maxsize=256)  # every launch of a tuned persistent member asks
def balanced_blocks(tiles: int, resident: int, cluster: int = 1) -> int:
    """The C API's wsLaunchBalancedGrid (ws-c/Launch.h), the formula the
    generated launchers' NAME_KERNEL_balanced_grid use: the fewest blocks,
    whole clusters, at most `resident`, that run `tiles` iterations of a
    tile loop in as many rounds as `resident` blocks do."""
    return _capi.launch_lib().wsLaunchBalancedGrid(max(int(tiles), 0), resident, cluster)


class Kernel:
    """One kernel of a ws.Module: its signature (ws.Signature); a launch
    ``kernel[grid](*args, stream=None)``; ``kernel.check(*args)``, which
    applies every argument rule without a GPU; ``resident_grid()`` and
    ``balanced_grid(tiles)``."""

    def __init__(self, module, signature):
        self.module = module
        self.signature = signature
        self.name = signature.name
        self._info = None
        self._launches = {}
        self._workspaces = {}  # a split-K kernel's workspace, per device and stream

    def __repr__(self):
        s = self.signature
        return "<ws.Kernel %s: %d threads, %d bytes of shared memory, %d args>" % (
            s.name, s.block_threads, s.shared_memory_bytes, len(s.args))

    # -- the rules -----------------------------------------------------------
    def _kernel_info(self):
        """The signature back as the C API's WsKernelInfo."""
        if self._info is None:
            from .compiler import dtype_names
            numbers = {v: k for k, v in dtype_names().items()}
            s = self.signature
            info = _capi.KernelInfo()
            info.name = s.name.encode()
            info.block_threads, info.shared_memory_bytes = s.block_threads, s.shared_memory_bytes
            info.blocks_per_sm, info.persistent = s.blocks_per_sm, s.persistent
            info.cluster_x, info.cluster_y = s.cluster
            info.pair, info.workspace_per_block = s.pair, s.workspace_per_block
            info.num_args = len(s.args)
            table = (_capi.KernelArg * max(1, len(s.args)))()  # kept with the info
            info.args = ctypes.cast(table, ctypes.POINTER(_capi.KernelArg))
            kinds = {v: k for k, v in _capi.ARG_KINDS.items()}
            scalars = {v: k for k, v in _capi.SCALAR_TYPES.items()}
            for a, c in zip(s.args, table):
                c.kind = kinds[a.kind]
                c.scalar = scalars.get(a.scalar, 0)
                c.divisor = a.divisor
                c.dtype = numbers.get(a.dtype, 0)
                c.rank = a.rank
                for d, b in enumerate(a.box):
                    c.box[d] = b
                c.swizzle, c.view, c.direct = a.swizzle, a.view, a.direct
                c.name = (a.name or "").encode()
            self._info = (info, numbers, table)
        return self._info

    def _refuse(self, message):
        """The refusal `message` ("argN: ..."), with the argument's source
        name after its number where the signature has it."""
        numbered = re.match(r"arg(\d+):", message)
        args = self.signature.args
        if numbered and int(numbered.group(1)) < len(args) and args[int(numbered.group(1))].name:
            message = "arg%s (%%%s)%s" % (numbered.group(1), args[int(numbered.group(1))].name,
                                          message[numbered.end() - 1:])
        return ValueError("%s: %s" % (self.name, message))

    def _fill(self, args, out, numbers):
        """The arguments as WsLaunchArgs; what the C rules cannot see (a
        missing tensor, a dtype ws has no name for, a value out of range) is
        refused here, in the same words."""
        sig = self.signature
        if len(args) != len(sig.args):
            raise TypeError("%s takes %d arguments (%d given)" % (self.name, len(sig.args),
                                                                  len(args)))
        for a, value, slot in zip(sig.args, args, out):
            if a.kind == "scalar":
                if hasattr(value, "data_ptr"):
                    raise self._refuse("arg%d: must be an %s scalar (got a tensor)"
                                       % (a.index, a.scalar))
                if a.scalar in _INT_RANGES:
                    if not isinstance(value, int):
                        raise self._refuse("arg%d: must be an integer, %s (got %r)"
                                           % (a.index, a.scalar, value))
                    low, high = _INT_RANGES[a.scalar]
                    if not low <= value <= high:
                        raise self._refuse("arg%d: must fit in %s (got %d)"
                                           % (a.index, a.scalar, value))
                    setattr(slot.scalar, a.scalar, value)
                else:
                    try:
                        setattr(slot.scalar, a.scalar, float(value))
                    except (TypeError, ValueError):
                        raise self._refuse("arg%d: must be a number, %s (got %r)"
                                           % (a.index, a.scalar, value)) from None
                continue
            if not all(hasattr(value, f) for f in ("data_ptr", "shape", "stride", "dtype")):
                raise self._refuse("arg%d: must be a tensor of %s (got %s)"
                                   % (a.index, a.dtype, type(value).__name__))
            shape, strides = tuple(value.shape), tuple(value.stride())
            if len(shape) > 5:
                raise self._refuse("arg%d: rank must be %d, the kernel's %s rank (got %d)"
                                   % (a.index, a.rank, "box" if a.kind == "descriptor"
                                      else "array", len(shape)))
            number = _dtype_number(value.dtype, numbers)
            if number == 0:
                raise self._refuse("arg%d: element type must be %s (got %s)"
                                   % (a.index, a.dtype, _dtype_name(value.dtype)))
            t = slot.tensor
            t.base, t.rank, t.dtype = value.data_ptr(), len(shape), number
            for d, (n, st) in enumerate(zip(shape, strides)):
                t.sizes[d], t.strides[d] = n, st

    def _prepare(self, args, grid, encode, scratch, resident):
        """A WsLaunch with these arguments checked and encoded."""
        info, numbers, _ = self._kernel_info()
        lib = _capi.launch_lib()
        launch_args = (_capi.LaunchArg * max(1, len(self.signature.args)))()
        self._fill(args, launch_args, numbers)
        handle = lib.wsLaunchCreate(ctypes.byref(info))
        if not handle:
            raise MemoryError("ws: out of memory preparing a launch")
        grid3 = (ctypes.c_uint * 3)(*grid)
        if not lib.wsLaunchPrepare(handle, launch_args, encode, scratch, grid3, resident).value:
            message = lib.wsLaunchGetError(handle).decode()
            lib.wsLaunchDestroy(handle)
            raise self._refuse(message + _remedy(message))
        return handle

    def _takes_workspace(self, args):
        """Whether `args` leave out a split-K kernel's last argument, the
        workspace, for the runtime to supply."""
        sig = self.signature
        return bool(sig.workspace_per_block) and len(args) == len(sig.args) - 1

    def _workspace(self, device, stream):
        """The workspace a split-K (or stream-K) launch gets when its caller
        passes none: zeroed bytes for the resident grid, made once per
        device and stream. Each launch leaves every flag zero again, so
        launches in order on one stream share it; launches on two streams,
        which may run at once, get one each."""
        ws = self._workspaces.get((device, stream))
        if ws is None:
            import torch
            ws = torch.zeros(self.resident_grid() * self.signature.workspace_per_block,
                             dtype=torch.uint8, device="cuda:%d" % device)
            # the zeros are written on torch's current stream; a launch on
            # another must not start before they are there
            torch.cuda.current_stream(device).synchronize()
            self._workspaces[(device, stream)] = ws
        return ws.data_ptr()

    def check(self, *args, grid=(1, 1, 1)):
        """Applies every argument rule of a launch, without a GPU (no map is
        encoded); raises ValueError as a launch would. A split-K kernel's
        workspace may be left out, as in a launch."""
        if self._takes_workspace(args):
            args = args + (_WORKSPACE_STANDIN,)
        handle = self._prepare(args, _grid3(grid), None, 0, 0)
        _capi.launch_lib().wsLaunchDestroy(handle)

    # -- launches ------------------------------------------------------------
    def resident_grid(self):
        """The grid that fills the current device once: its SMs times the
        blocks per SM the plan leaves room for (a cluster kernel: the
        clusters the device runs at once times their blocks)."""
        return _cuda().resident_grid(self)

    def balanced_grid(self, tiles: int) -> int:
        """The grid for a persistent kernel whose tile loop runs `tiles`
        iterations in all (a cluster kernel's: over clusters): the fewest
        blocks, at most the resident grid, that leave the busiest block
        (or cluster) as many iterations as the resident grid would, so
        that they all run the same number, give or take one (512 tiles on
        132 SMs: 128 blocks of 4, not 116 blocks of 4 and 16 of 3). A
        split-K kernel, which spreads its work over the whole grid, keeps
        the resident one."""
        resident = self.resident_grid()
        if self.signature.workspace_per_block:
            return resident
        cx, cy = self.signature.cluster
        return balanced_blocks(tiles, resident, cx * cy)

    def __getitem__(self, grid):
        return lambda *args, stream=None: self.launch(grid, *args, stream=stream)

    def __call__(self, *args, grid=None, stream=None):
        return self.launch(grid, *args, stream=stream)

    def launch(self, grid, *args, stream=None):
        """Launches on `grid` (an int or up to three; None: a persistent
        kernel's resident grid) on `stream` (default: torch's current). A
        split-K kernel's last argument, its workspace, may be left out: the
        kernel then uses one of its own (zeroed once, per device and
        stream)."""
        # the path a repeated launch takes is kept short (the call overhead
        # is a measure: integration/bench/python_overhead.py): the prepared
        # launch is looked up by the arguments' own key, and only a new key
        # normalizes the grid, checks and prepares
        if grid is None and not self.signature.persistent:
            raise ValueError("%s: a grid is needed (the kernel is not persistent)" % self.name)
        try:
            driver = _cuda()
        except ImportError:
            # no CUDA Python bindings: the arguments' own errors still come
            # first, a tensor in host memory among them
            self.check(*args, grid=(1, 1, 1) if grid is None else grid)
            refusal = _device_refusal(self.signature, args, None)
            if refusal:
                raise self._refuse(refusal) from None
            raise
        loaded = driver.load(self)
        if self._takes_workspace(args):
            stream = driver.raw_stream(stream, loaded.device)
            args = args + (self._workspace(loaded.device, stream),)
        key = [loaded.device, tuple(grid) if isinstance(grid, list) else grid]
        for value in args:
            if hasattr(value, "data_ptr"):
                shape, strides = value.shape, value.stride()
                if not isinstance(shape, tuple) or not isinstance(strides, tuple):
                    shape, strides = tuple(shape), tuple(strides)
                key += (value.data_ptr(), shape, strides, value.dtype)
            else:  # as text: -0.0 == 0.0, but a launch must pass the one it was given
                key += (type(value), repr(value))
        key = tuple(key)
        prepared = self._launches.get(key)
        if prepared is None:
            prepared = self._prepare_launch(key, grid, args, loaded)
        driver.launch(self, loaded, prepared[1], prepared[2], stream)

    def _prepare_launch(self, key, grid, args, loaded):
        """Checks and encodes a launch with a new key, and keeps it (the
        oldest of _LAUNCHES_KEPT goes): (handle, grid, parameters)."""
        grid = _grid3(self.resident_grid() if grid is None else grid)
        refusal = _device_refusal(self.signature, args, loaded.device)
        if refusal:
            raise self._refuse(refusal)
        resident = self.resident_grid() if self.signature.workspace_per_block else 0
        handle = self._prepare(args, grid, loaded.encode, loaded.scratch, resident)
        lib = _capi.launch_lib()
        if len(self._launches) >= _LAUNCHES_KEPT:
            old = next(iter(self._launches))
            lib.wsLaunchDestroy(self._launches.pop(old)[0])
        prepared = self._launches[key] = (handle, grid, lib.wsLaunchGetParams(handle))
        return prepared

    def __del__(self):
        try:
            lib = _capi.launch_lib()
            for handle, _, _ in self._launches.values():
                lib.wsLaunchDestroy(handle)
        except Exception:
            pass


# an aligned address standing in for a split-K workspace in check(), which
# encodes nothing and reads no memory
_WORKSPACE_STANDIN = 256


def _device_refusal(sig, args, device):
    """Why a tensor argument cannot be launched on: one in host memory,
    or on another GPU than the current one `device` (the kernel would read
    an address the GPU cannot, and fault), or None. With `device` None
    (no GPU to ask which is current), only host memory is refused. A
    tensor-like value with no `device` is taken at its word."""
    for a, value in zip(sig.args, args):
        where = getattr(value, "device", None)
        if a.kind == "scalar" or where is None:
            continue
        kind, index = getattr(where, "type", str(where)), getattr(where, "index", None)
        other_gpu = device is not None and index is not None and index != device
        if kind != "cuda" or other_gpu:
            place = "a GPU" if device is None else "the current GPU, cuda:%d" % device
            return "arg%d: must be on %s (got a tensor on %s)" % (a.index, place, where)
    return None


# torch's names of the element types ws has no kernel type for, as MLIR
# spells them (as ws's own: f16, bf16...), so that a refusal uses one
# spelling
_MLIR_NAMES = {"float64": "f64", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
               "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64",
               "bool": "i1", "complex64": "complex<f32>", "complex128": "complex<f64>"}


def _dtype_name(dtype):
    name = str(dtype).replace("torch.", "")
    return _MLIR_NAMES.get(name, name)


def _grid3(grid):
    """(x, y, z) from an integer or a sequence of one to three (a tuple, a
    list, a range, a numpy array; numpy's and torch's integers too); a
    float or a string is refused, not truncated or split into digits."""
    given = grid
    try:
        if isinstance(grid, (str, bytes)):
            raise TypeError
        grid = tuple(operator.index(g) for g in grid) if hasattr(grid, "__iter__") else \
            (operator.index(grid),)
    except TypeError:
        grid = ()
    if not 1 <= len(grid) <= 3 or any(g < 1 for g in grid):
        raise ValueError("ws: a grid is 1 to 3 positive integers (got %r)" % (given,))
    return grid + (1,) * (3 - len(grid))


# what a PyTorch caller can do about a layout rule TMA sets, after the
# rule's own words (the C launcher's messages stop at the rule)
_REMEDIES = (
    ("the innermost stride must be 1 element",
     "; pass a tensor whose last dimension is dense (x.contiguous() copies a "
     "transposed or strided view)"),
    ("each outer stride",
     "; TMA steps rows in 16-byte units: allocate rows padded to a multiple of 16 "
     "bytes and pass a view of the columns you need (torch.empty(rows, pitch)[:, :cols])"),
    ("base must be 16-byte aligned",
     "; a view that starts inside a 16-byte granule: slice at a multiple of 16 "
     "bytes, or pass x.contiguous()"),
)


def _remedy(message):
    return next((fix for rule, fix in _REMEDIES if rule in message), "")


_driver = None


def _cuda():
    """The CUDA side of a launch (ws._driver), imported at the first
    launch: compiling and checking need no CUDA Python bindings."""
    global _driver
    if _driver is None:
        from . import _driver as driver
        _driver = driver
    return _driver
