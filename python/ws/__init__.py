# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws from Python: compile a tile-level kernel in-process, launch it on
PyTorch tensors, cache and autotune it.

    import ws
    mod = ws.compile("add.mlir", chip="sm_90a")
    print(mod.add.signature)

    family = ws.Template(ws.kernel_source("matmul.mlir"))      # ${BM}, ${BN}... fields
    matmul = ws.autotune(family, [{"BM": 128, "BN": 128}, {"BM": 128, "BN": 256}])
    matmul(a, b, c, M, N, K)                        # tuned per shape, kept on disk

Compiling needs libws-c.so (the ws C API, over MLIR); checking and launching
need only libws-launch.so, and import the CUDA Python bindings and torch at
the first launch. ws.load runs a module compiled elsewhere (Module.save).
"""

from . import families
from .tune import Autotuned, Candidate, autotune, planner_configs
from .cache import clear as clear_cache
from .compiler import (Arg, CompileError, Diagnostic, Module, Signature, compile, load,
                       version)
from .launch import Kernel
from .template import Template, TemplateError, kernel_source

__all__ = ["Arg", "Autotuned", "Candidate", "CompileError", "Diagnostic", "Kernel", "Module",
           "Signature", "Template", "TemplateError", "autotune", "clear_cache", "compile", "kernel_source",
           "families", "load", "planner_configs", "version"]
