# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws.compile: a kernel source to a loaded-on-demand module, in-process.

The C API (wsCompile) runs the ws pipeline to PTX and gives each kernel's
launch data; nvJitLink turns the PTX into a cubin (else the driver does at
load). Results are cached on disk (ws.cache).
"""

import base64
import dataclasses
import difflib
import functools
import json
import os
import re
from typing import Dict, List, Optional, Tuple, Union

from . import _capi, _nvjitlink, cache
from .launch import Kernel


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of a compile: error, warning, note or remark."""

    severity: str
    file: str
    line: int
    column: int
    message: str

    def __str__(self):
        where = "%s:%d:%d" % (self.file, self.line, self.column) if self.line else (
            self.file or "ws")
        return "%s: %s: %s" % (where, self.severity, self.message)


class CompileError(Exception):
    """ws refused a kernel. ``diagnostics`` holds every diagnostic of the
    compile (errors with their notes, and the passes' remarks); the message
    is the errors and notes, one per line, as ws-opt prints them."""

    def __init__(self, diagnostics: List[Diagnostic]):
        self.diagnostics = diagnostics
        shown = [d for d in diagnostics if d.severity in ("error", "note")] or diagnostics
        super().__init__("\n".join(str(d) for d in shown) or "ws: the compile failed")


def dtype_names() -> Dict[int, str]:
    """WsDtype's numbers and MLIR's names of them, from the C API's table."""
    lib = _capi.launch_lib()
    names, n = {}, 1
    while True:
        name = lib.wsDtypeGetName(n)
        if not name:
            return names
        names[n] = name.decode()
        n += 1


@dataclasses.dataclass(frozen=True)
class Arg:
    """One kernel argument: a scalar (its type, and for an integer the
    ws.divisibility a launch must honour), a descriptor (a global tensor TMA
    reads or writes through the box the plan chose) or an array (a rank-1
    tensor read element by element)."""

    index: int
    kind: str  # "scalar", "descriptor", "array"
    scalar: Optional[str] = None  # "i32", "i64" (also index), "f32", "f64"
    divisor: int = 1
    dtype: Optional[str] = None  # MLIR's name: "f32", "bf16", "f8E4M3FN"...
    rank: int = 0
    box: Tuple[int, ...] = ()
    swizzle: int = 0
    view: bool = False
    direct: bool = False
    name: Optional[str] = None  # the source's name (%a: "a"); "workspace" for split-K's


@dataclasses.dataclass(frozen=True)
class Signature:
    """What a launch of one kernel needs: threads per block, dynamic shared
    memory, the blocks per SM its register cap leaves room for, whether it
    is persistent (any grid covers the work; resident_grid() fills the
    device), its cluster, a split-K workspace's bytes per block, and its
    arguments."""

    name: str
    block_threads: int
    shared_memory_bytes: int
    blocks_per_sm: int
    persistent: bool
    cluster: Tuple[int, int]
    pair: bool
    workspace_per_block: int
    args: Tuple[Arg, ...]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "Signature":
        args = tuple(Arg(**dict(a, box=tuple(a["box"]))) for a in data["args"])
        return cls(**dict(data, cluster=tuple(data["cluster"]), args=args))


# what a cached module's record holds: 2 added each argument's source name
_RECORD_FORMAT = "2"


def _signature(info: _capi.KernelInfo, dtypes: Dict[int, str]) -> Signature:
    names = [info.args[i].name.decode() or None for i in range(info.num_args)]
    args = []
    for i in range(info.num_args):
        a = info.args[i]
        kind = _capi.ARG_KINDS[a.kind]
        if kind == "scalar":
            args.append(Arg(i, kind, scalar=_capi.SCALAR_TYPES[a.scalar], divisor=a.divisor,
                            name=names[i]))
        else:
            args.append(Arg(i, kind, dtype=dtypes[a.dtype], rank=a.rank,
                            box=tuple(a.box[:a.rank]) if kind == "descriptor" else (),
                            swizzle=a.swizzle, view=a.view, direct=a.direct, name=names[i]))
    return Signature(info.name.decode(), info.block_threads, info.shared_memory_bytes,
                     info.blocks_per_sm, info.persistent, (info.cluster_x, info.cluster_y),
                     info.pair, info.workspace_per_block, tuple(args))


# ws-pipeline options a compile sets itself (chip and explain are
# ws.compile's own arguments)
_RESERVED_OPTIONS = ("stage", "format", "chip", "explain")
# ws.compile's own keyword arguments, which a family's config may carry too
COMPILE_KEYWORDS = ("chip", "explain", "filename", "linker", "use_cache")


@functools.lru_cache(maxsize=None)
def _pipeline_option_names() -> Tuple[str, ...]:
    return tuple(_capi.pass_option_names("ws-pipeline"))


def option_names() -> List[str]:
    """The ws-pipeline options ws.compile takes as keyword arguments, in
    Python's spelling (num_stages, smem_budget...)."""
    return [n.replace("-", "_") for n in _pipeline_option_names()
            if n not in _RESERVED_OPTIONS]


def unknown_option(key: str, others=()) -> Optional[str]:
    """None when `key` is a pipeline option; else what to say after its
    name: the closest of the options (and of `others`, a template's
    fields) and the options' list. None too where the compiler is not
    installed (a cache-only machine), which cannot check."""
    try:
        names = option_names()
    except ImportError:
        return None
    if key in names or key.replace("-", "_") in names or key in COMPILE_KEYWORDS:
        return None
    if key in _RESERVED_OPTIONS:
        return ": the compile sets it itself"
    close = difflib.get_close_matches(key, names + list(others), 1, cutoff=0.5)
    return "%s (the options: %s)" % ("; did you mean %r?" % close[0] if close else "",
                                     ", ".join(names))


def _option_value_error(opts: str) -> Optional[str]:
    """A value the pipeline does not take (a chip ws does not target, a
    depth out of range), in Python's spelling, or None; None too where the
    compiler is not installed (the cache may still hold the module)."""
    try:
        problem = _capi.option_error("ws-pipeline", opts)
    except ImportError:
        return None
    if problem is None:
        return None
    problem = problem.replace("ws-pipeline: ", "", 1)
    return re.sub(r"option '([a-z0-9-]+)'", lambda m: "option '%s'" % m.group(1).replace("-", "_"),
                  problem)


def _option_text(chip: Optional[str], explain: bool, options: dict) -> str:
    """ws-pipeline's options, sorted, in MLIR's form; Python names take
    underscores for the dashes (smem_budget=...)."""
    items = dict((k.replace("_", "-"), v) for k, v in options.items())
    if chip:
        items["chip"] = chip
    if explain:
        items["explain"] = True
    parts = []
    for k in sorted(items):
        v = items[k]
        v = ("true" if v else "false") if isinstance(v, bool) else str(v)
        if not v or any(c in v for c in " {}"):
            raise ValueError("ws.compile: option %s=%r cannot be passed" % (k, v))
        parts.append("%s=%s" % (k, v))
    return " ".join(parts)


def _read_source(source: Union[str, bytes, os.PathLike], filename: Optional[str]):
    if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source and "{" not in source):
        path = os.fspath(source)
        with open(path) as f:
            return f.read(), filename or path
    if isinstance(source, bytes):
        source = source.decode()
    return source, filename or "<source>"


class Module:
    """A compiled module: its PTX, its cubin (None when the driver is to
    compile the PTX at load), each kernel's signature, and the remarks of
    the compile. A kernel is ``module.NAME`` or ``module.kernels["NAME"]``."""

    def __init__(self, ptx: str, cubin: Optional[bytes], signatures: List[Signature],
                 diagnostics: List[Diagnostic], options: str, cached: bool):
        self.ptx = ptx
        self.cubin = cubin
        self.chip = _nvjitlink.target_of(ptx)
        self.linker = "nvjitlink" if cubin is not None else "driver"
        self.options = options
        self.diagnostics = diagnostics
        self.cached = cached
        self.kernels = {s.name: Kernel(self, s) for s in signatures}
        self._loaded = None  # the CUmodule, per device, once loaded

    @property
    def remarks(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "remark"]

    def save(self, path) -> None:
        """Writes the module to one file that ws.load reads back on a machine
        that only runs kernels (it needs libws-launch.so, not MLIR)."""
        data = {"format": "ws-module", "version": 1, "ptx": self.ptx, "options": self.options,
                "cubin": base64.b64encode(self.cubin).decode() if self.cubin else None,
                "kernels": [k.signature.to_json() for k in self.kernels.values()],
                "diagnostics": [dataclasses.asdict(d) for d in self.diagnostics]}
        with open(path, "w") as f:
            json.dump(data, f)

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError("ws module has no kernel %r (it has %s)"
                             % (name, ", ".join(sorted(kernels)) or "none"))

    def __repr__(self):
        return "<ws.Module %s: %s (%s)>" % (self.chip, ", ".join(self.kernels), self.linker)


def _diagnostics(lib, handle) -> List[Diagnostic]:
    out = []
    for i in range(lib.wsCompiledGetNumDiagnostics(handle)):
        d = lib.wsCompiledGetDiagnostic(handle, i)
        out.append(Diagnostic(_capi.SEVERITIES.get(d.severity, "error"), d.file.text(),
                              d.line, d.column, d.message.text()))
    return out


def _compile_uncached(text: str, filename: str, options: str):
    lib = _capi.lib()
    src, name, opts = text.encode(), filename.encode(), options.encode()
    handle = lib.wsCompile(_capi.StringRef.of(src), _capi.StringRef.of(name),
                           _capi.StringRef.of(opts))
    if not handle:
        raise MemoryError("ws.compile: out of memory")
    try:
        diagnostics = _diagnostics(lib, handle)
        if not lib.wsCompiledSucceeded(handle):
            raise CompileError(diagnostics)
        ptx = lib.wsCompiledGetPTX(handle).text()
        dtypes = dtype_names()
        signatures = []
        for i in range(lib.wsCompiledGetNumKernels(handle)):
            info = lib.wsCompiledGetKernel(handle, i).contents
            signatures.append(_signature(info, dtypes))
    finally:
        lib.wsCompiledDestroy(handle)
    return ptx, signatures, diagnostics


def version() -> str:
    """ws's version, the C library's (wsGetVersion)."""
    return _capi.launch_lib().wsGetVersion().text()


def build_id() -> str:
    """The C library's build identity (wsGetBuildId): a hash of the sources
    that decide a kernel's code, which keys the disk cache with the
    version, so a ws rebuilt with other code never reads the old one's
    modules."""
    return _capi.launch_lib().wsGetBuildId().text()


LINKERS = ("driver", "nvjitlink")


def _entry(filename: str, signatures: List[Signature], diagnostics: List[Diagnostic],
           refused: bool = False) -> dict:
    """A compile's cache entry (beside its PTX and cubin): a module's
    kernels, or a refusal, with the diagnostics either way."""
    return {"filename": filename, "kernels": [s.to_json() for s in signatures],
            "refused": refused, "diagnostics": [dataclasses.asdict(d) for d in diagnostics]}


def _cache_entry(source, chip, explain, filename, linker, options):
    """(the source's text, its name, the option text, its cache key) of a
    compile, its arguments checked as ws.compile checks them."""
    if linker not in LINKERS:
        raise ValueError("ws.compile: linker must be one of %s (got %r)"
                         % (", ".join(LINKERS), linker))
    for key in options:
        unknown = unknown_option(key)
        if unknown:
            raise TypeError("ws.compile: unknown option %r%s" % (key, unknown))
    text, name = _read_source(source, filename)
    opts = _option_text(chip, explain, options)
    problem = _option_value_error(opts)
    if problem:
        raise ValueError("ws.compile: " + problem)
    return text, name, opts, cache.key(text, opts, version(), build_id(), linker,
                                       _RECORD_FORMAT)


def cached(source, *, chip: Optional[str] = None, explain: bool = False,
           filename: Optional[str] = None, linker: str = "driver", **options) -> bool:
    """Whether ws.compile with these arguments would come from the disk
    cache (a module, or a refusal kept as one), compiling nothing: what a
    machine without MLIR can run."""
    return cache.load(_cache_entry(source, chip, explain, filename, linker, options)[3]) \
        is not None


def compile(source, *, chip: Optional[str] = None, explain: bool = False,
            filename: Optional[str] = None, linker: str = "driver",
            use_cache: bool = True, **options) -> Module:
    """Compiles a ws kernel: `source` is MLIR text, or a path to it.

    `chip` ("sm_90a", "sm_100a") is the target; without it each gpu.module's
    own. `explain` keeps a remark on each decision of each pass
    (``module.remarks``). Other keyword arguments are ws-pipeline options
    (``smem_budget=...``, ``max_blocks_per_sm=...``, ``check_protocol=...``).

    `linker` says who turns the PTX into machine code, in-process:
    "driver" (the default) hands the PTX to the CUDA driver at load, whose
    JIT compiles the whole program as ``ws-opt --emit=cubin``'s ptxas does
    (and caches it); "nvjitlink" makes a cubin now with nvJitLink, which
    compiles the PTX as relocatable code, so its machine code can differ.

    A rejected kernel raises CompileError with ws's located diagnostics.
    A module compiled (or refused) before with the same source text,
    options, chip, linker, ws version and build (build_id()) comes from
    the disk cache (ws.cache) unless `use_cache` is False.
    """
    text, name, opts, k = _cache_entry(source, chip, explain, filename, linker, options)
    if use_cache:
        hit = cache.load(k)
        if hit is not None:
            data, ptx, cubin = hit
            # the same source under another name: its diagnostics under this one
            diagnostics = [Diagnostic(**dict(d, file=name if d["file"] == data["filename"]
                                             else d["file"])) for d in data["diagnostics"]]
            if data.get("refused"):
                raise CompileError(diagnostics)
            return Module(ptx, cubin, [Signature.from_json(s) for s in data["kernels"]],
                          diagnostics, opts, cached=True)
    try:
        ptx, signatures, diagnostics = _compile_uncached(text, name, opts)
    except CompileError as e:
        # a refusal is as deterministic as a module: kept, so that an
        # autotuner's rejected configs cost nothing the second time
        if use_cache:
            cache.store(k, _entry(name, [], e.diagnostics, refused=True), "", None)
        raise
    cubin = _nvjitlink.link(ptx) if linker == "nvjitlink" else None
    if use_cache:
        cache.store(k, _entry(name, signatures, diagnostics), ptx, cubin)
    return Module(ptx, cubin, signatures, diagnostics, opts, cached=False)


def load(path) -> Module:
    """A module Module.save wrote: compiled elsewhere, run here."""
    not_a_module = "ws.load: %s is not a module Module.save wrote (a .wsmod)" % path
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read().decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(not_a_module) from None
    if not isinstance(data, dict) or data.get("format") != "ws-module" or \
            data.get("version") != 1:
        raise ValueError(not_a_module)
    cubin = base64.b64decode(data["cubin"]) if data["cubin"] else None
    return Module(data["ptx"], cubin, [Signature.from_json(s) for s in data["kernels"]],
                  [Diagnostic(**d) for d in data["diagnostics"]], data["options"], cached=False)
