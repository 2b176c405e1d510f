# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The ws lit suite: ws-opt, the mlir-opt plugin and the C API, checked with
# FileCheck. Paths come from lit.site.cfg.py, which CMake configures.
import os
import subprocess

import lit.formats

config.name = "ws"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".c", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "kernelgen.py", "pipeline_fuzz.py", "malformed.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ws_obj_root, "test")

# Our tools first, then LLVM's (FileCheck, not, mlir-opt).
config.environment["PATH"] = os.pathsep.join(
    [config.ws_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if config.ws_sanitize:
    # mlir-opt is not instrumented; the sanitizer runtimes must be loaded
    # first for the instrumented plugin to load into it.
    def runtime(name):
        return subprocess.check_output(
            [config.c_compiler, "-print-file-name=" + name], text=True).strip()
    preload = runtime("libasan.so") + ":" + runtime("libubsan.so")
    mlir_opt = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 %s" % (preload, mlir_opt)
    config.available_features.add("sanitize")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

config.substitutions.append(("%mlir_opt", mlir_opt))
config.substitutions.append(("%ws_plugin", config.ws_plugin))
config.substitutions.append(("%ws_irdl", config.ws_irdl_file))
config.substitutions.append(("%ws_src", config.ws_src_root))
config.substitutions.append(("%ws_obj", config.ws_obj_root))
config.substitutions.append(("%python", config.python_executable))
# The fuzzers' sizes: a quick run in the test command (half of it under the
# sanitizers, where each case costs about six times as much and the two
# fuzzers had taken 127 s of the sanitized run; the seed changes per run, so
# CI's runs add up), the long one with --param fuzz=full (tools/ws-dev
# fuzz). The quick sizes were cut again when a fresh clone's test command
# took 9m42s of CI's 10 minutes.
full_fuzz = lit_config.params.get("fuzz", "quick") == "full"
quick = 2 if config.ws_sanitize else 1
config.substitutions.append(("%pipeline_fuzz_count", "500" if full_fuzz else str(80 // quick)))
config.substitutions.append(("%proof_fuzz_count", "150" if full_fuzz else str(40 // quick)))
config.substitutions.append(("%proof_fuzz_cluster_count", "40" if full_fuzz else str(40 // quick)))
config.substitutions.append(("%proof_mutation_count", "600" if full_fuzz else str(40 // quick)))
config.substitutions.append(("%malformed_count", "360" if full_fuzz else str(240 // quick)))
# CUDA's headers, for the generated launchers (compiled, not run, here).
config.substitutions.append(
    ("%cuda_include", os.path.join(os.environ.get("WS_CUDA_ROOT", "/usr/local/cuda"), "include")))
