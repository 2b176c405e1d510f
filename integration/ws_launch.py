"""Loads ws's generated launchers into a Python process that runs torch
(the benchmarks and the attention check): the launcher NAME.c is built into
a shared library, its module loaded into the current CUDA context (torch's:
make it current first, e.g. with torch.zeros(1, device="cuda")), and torch
tensors passed as the launcher's ws_tensor."""
import ctypes
import os
import subprocess


# The launcher's ws_dtype numbers, by MLIR's name of the element type
# (ws-c/Dialect.h's WsDtype), and torch's dtypes by the same names.
DTYPES = {"f32": 1, "f16": 2, "bf16": 3, "f8E4M3FN": 4, "f8E5M2": 5, "i8": 6, "i32": 7}
TORCH_NAMES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16",
               "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "int8": "i8",
               "int32": "i32"}


class WsTensor(ctypes.Structure):
    """The launcher's ws_tensor: base pointer, rank, element type (ws_dtype),
    sizes, strides."""
    _fields_ = [("base", ctypes.c_uint64), ("rank", ctypes.c_int), ("dtype", ctypes.c_int),
                ("sizes", ctypes.c_uint64 * 5), ("strides", ctypes.c_uint64 * 5)]


def torch_dtype_code(dtype):
    """The ws_dtype of a torch dtype; 0 (refused at launch) for one ws has not."""
    return DTYPES.get(TORCH_NAMES.get(str(dtype).replace("torch.", ""), ""), 0)


def ws_tensor(t, cols=None):
    """A ws_tensor of torch tensor t (rank 1 to 5, any strides in elements);
    cols, when given, views only the first cols of t's last dimension."""
    w = WsTensor()
    w.base, w.rank, w.dtype = t.data_ptr(), t.dim(), torch_dtype_code(t.dtype)
    for d in range(t.dim()):
        w.sizes[d], w.strides[d] = t.shape[d], t.stride(d)
    if cols is not None:
        w.sizes[t.dim() - 1] = cols
    return w


def sequence_windows(t):
    """A ws_tensor viewing t, a packed token-major tensor of T tokens (T x H
    x D, any strides), as (T + 1) x H x T x D windows: element (u, h, r, d)
    is token u + r of head h. A box at window u = the start of a sequence
    (cu[b]) and rows r from -(box - 1) reads and writes that sequence's
    tokens, and TMA clips it below the sequence's start (r < 0): zeros in,
    nothing written, so a box moved back to end at the sequence's end never
    reaches into the sequence before. Windows past T tokens lie beyond t;
    a kernel keeps its boxes at or below the sequence's end (the varlen
    attention kernels of attention/variants.py)."""
    tokens = t.shape[0]
    w = WsTensor()
    w.base, w.rank, w.dtype = t.data_ptr(), 4, torch_dtype_code(t.dtype)
    for d, (size, stride) in enumerate(((tokens + 1, t.stride(0)), (t.shape[1], t.stride(1)),
                                        (tokens, t.stride(0)), (t.shape[2], t.stride(2)))):
        w.sizes[d], w.strides[d] = size, stride
    return w


class WsModule:
    """FOLDER/NAME.c built and loaded; `launch(kernel)` is the ctypes
    function NAME_KERNEL_launch, `module` the loaded module to pass it."""

    def __init__(self, folder, name, cuda_home):
        lib = os.path.join(folder, name + ".so")
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", f"-I{cuda_home}/include",
                        os.path.join(folder, name + ".c"), "-o", lib,
                        f"-L{cuda_home}/lib64/stubs", "-lcuda"], check=True)
        self.lib = ctypes.CDLL(lib)
        self.name = name
        self.module = ctypes.create_string_buffer(8192)
        r = getattr(self.lib, name + "_load")(self.module)
        if r != 0:
            raise RuntimeError(f"{name}_load: CUresult {r}")

    def function(self, kernel, suffix="launch"):
        return getattr(self.lib, f"{self.name}_{kernel}_{suffix}")


class MatmulKernel(WsModule):
    """A compiled matmul NAME of BM x BN output tiles, loaded: tiled (one
    block per tile) or persistent (NAME_persistent_grid blocks that loop
    over the tiles). launcher() binds one launch to ws_tensors."""

    def __init__(self, folder, name, bm, bn, persistent, cuda_home=None):
        super().__init__(folder, name,
                         cuda_home or os.environ.get("CUDA_HOME", "/usr/local/cuda"))
        self.bm, self.bn, self.persistent = int(bm), int(bn), persistent
        self.launch_fn = self.function(name)
        self.grid = self.function(name, "persistent_grid")(self.module) if persistent else 0
        self.workspace = None  # split-K: NAME_workspace_bytes of zeros, made once
        if hasattr(self.lib, f"{name}_{name}_workspace_bytes"):
            import torch
            size = self.function(name, "workspace_bytes")
            size.restype = ctypes.c_size_t
            self.workspace = torch.zeros(size(ctypes.c_uint(self.grid)), dtype=torch.uint8,
                                         device="cuda")

    def launcher(self, tensors, rows, cols, k, scalars=()):
        """A callable that launches the kernel over a rows x cols output on
        torch's current stream: the ws_tensors in the kernel's argument
        order, then rows, cols and k (a persistent kernel) or k (a tiled
        one), then scalars (ctypes values). It raises on a CUresult other
        than 0 and keeps the ws_tensors alive (run.keep)."""
        import torch
        if self.persistent:
            grid, sizes = (self.grid, 1), (rows, cols, k)
        else:
            grid, sizes = ((rows + self.bm - 1) // self.bm, (cols + self.bn - 1) // self.bn), (k,)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        args = (self.module, stream) + tuple(ctypes.c_uint(g) for g in grid + (1,)) + \
            tuple(ctypes.byref(t) for t in tensors) + \
            tuple(ctypes.c_int32(s) for s in sizes) + tuple(scalars) + \
            ((ctypes.c_int64(self.workspace.data_ptr()),) if self.workspace is not None else ())
        fn, what = self.launch_fn, f"{self.name} launch"

        def run():
            r = fn(*args)
            if r != 0:
                raise RuntimeError(f"{what}: CUresult {r}")
        run.keep = tensors
        return run
