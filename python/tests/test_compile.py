# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws.compile: in-process compiles, signatures, diagnostics."""

import os
import re

import pytest

import ws
from conftest import ROOT, kernel_path


def test_compile_a_path_gives_ptx_and_the_signature():
    mod = ws.compile(kernel_path("add.mlir"), chip="sm_90a")
    assert mod.chip == "sm_90a"
    assert ".entry add" in mod.ptx and "setmaxnreg" in mod.ptx
    assert mod.cubin is None and mod.linker == "driver"
    sig = mod.add.signature
    assert (sig.name, sig.block_threads, sig.shared_memory_bytes) == ("add", 256, 82016)
    assert not sig.persistent and sig.cluster == (1, 1)
    kinds = [a.kind for a in sig.args]
    assert kinds == ["descriptor", "descriptor", "descriptor", "scalar"]
    assert [a.dtype for a in sig.args[:3]] == ["f32"] * 3
    assert all(a.box == (32, 64) and a.rank == 2 for a in sig.args[:3])
    assert [a.view for a in sig.args[:3]] == [False, False, True]  # c is stored
    assert sig.args[3].scalar == "i32" and sig.args[3].divisor == 1
    assert mod.kernels == {"add": mod.add}


def test_the_ptx_is_ws_opts(add_source):
    import subprocess
    ws_opt = os.path.join(ROOT, "build", "bin", "ws-opt")
    if not os.path.exists(ws_opt):
        pytest.skip("skipped: no build/bin/ws-opt to compare with")
    ref = subprocess.run([ws_opt, kernel_path("add.mlir"), "--emit=ptx"], check=True,
                         capture_output=True, text=True).stdout
    assert ws.compile(add_source).ptx == ref


def test_a_persistent_matmul_says_so():
    sig = ws.compile(kernel_path("matmul_persistent.mlir")).matmul_persistent.signature
    assert sig.persistent and sig.blocks_per_sm >= 1
    descs = [a for a in sig.args if a.kind == "descriptor"]
    assert {a.dtype for a in descs} <= {"f16", "bf16", "f32"}
    assert all(a.swizzle in (0, 32, 64, 128) for a in descs)
    assert any(a.swizzle == 128 for a in descs)


def test_a_kernel_name_is_as_long_as_it_is(add_source):
    name = "add_" + "x" * 300
    mod = ws.compile(add_source.replace("@add", "@" + name))
    assert mod.kernels[name].signature.name == name
    assert ".entry " + name in mod.ptx


def test_an_index_argument_is_passed_as_i64(add_source):
    src = add_source.replace("%ynumel: i32) kernel", "%n: index) kernel").replace(
        "%pid = gpu.block_id x", "%ynumel = arith.index_cast %n : index to i32\n"
        "      %pid = gpu.block_id x")
    assert ws.compile(src).add.signature.args[3].scalar == "i64"


def test_a_scalar_a_launch_cannot_pass_names_the_ones_it_can(add_source):
    src = add_source.replace("%ynumel: i32) kernel", "%ynumel: i32, %s: f16) kernel")
    with pytest.raises(ws.CompileError, match="a scalar is i32, i64, index, f32 or f64"):
        ws.compile(src)


def test_a_syntax_error_is_located_in_the_named_file():
    with pytest.raises(ws.CompileError) as e:
        ws.compile("func.func @f() {\n  return %nope : i32\n}\n", filename="user.mlir")
    errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert errors and (errors[0].file, errors[0].line, errors[0].column) == ("user.mlir", 2, 10)
    assert "undeclared SSA value" in errors[0].message
    assert str(e.value).startswith("user.mlir:2:10: error: use of undeclared SSA value")


def test_a_mistyped_op_gets_the_name_an_edit_away(add_source):
    with pytest.raises(ws.CompileError) as e:
        ws.compile(add_source.replace('"ws.load"(%a', '"ws.laod"(%a'), filename="typo.mlir")
    assert "did you mean 'ws.load'?" in str(e.value)


def test_a_path_names_its_diagnostics(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("module {\n  %x = \n}\n")
    with pytest.raises(ws.CompileError) as e:
        ws.compile(bad)
    assert str(e.value).startswith(str(bad) + ":")


def test_a_module_without_a_marked_loop_says_so():
    with pytest.raises(ws.CompileError, match="no loop is marked ws.warp_specialize"):
        ws.compile("module {\n}\n")


def test_a_rejected_kernel_carries_the_pass_error(add_source):
    # 64 x 8192 f32 tiles do not fit shared memory: ws-plan-memory refuses
    src = add_source.replace("32x64xf32", "64x8192xf32")
    with pytest.raises(ws.CompileError) as e:
        ws.compile(src, filename="big.mlir")
    err = [d for d in e.value.diagnostics if d.severity == "error"][0]
    assert err.file == "big.mlir" and err.line > 0
    assert re.search(r"shared memory|budget", err.message)


def test_explain_keeps_located_remarks(add_source):
    mod = ws.compile(add_source, explain=True, filename="add.mlir")
    assert len(mod.remarks) > 5
    assert all(r.file == "add.mlir" and r.line > 0 for r in mod.remarks)
    assert any("partition" in r.message for r in mod.remarks)
    # the module is proved once (the plan stage), not again before lowering
    assert sum(r.message.startswith("protocol proved") for r in mod.remarks) == 1
    assert not ws.compile(add_source).remarks


def test_pipeline_options_reach_the_passes(add_source):
    with pytest.raises(ws.CompileError, match=r"budget is 4096 bytes \(smem-budget=4096\)"):
        ws.compile(add_source, smem_budget=4096)
    # a budget past the chip's would plan a kernel that cannot launch
    with pytest.raises(ws.CompileError, match="smem-budget=300000 is more shared memory than "
                                              "sm_90a gives a block"):
        ws.compile(add_source, smem_budget=300000)


def test_an_operation_mlir_prints_into_an_error_is_left_out():
    with pytest.raises(ws.CompileError) as e:
        ws.compile(os.path.join(ROOT, "test", "tools", "Inputs", "no-terminator.mlir"))
    assert [(d.severity, d.line, d.column, d.message) for d in e.value.diagnostics] == \
        [("error", 6, 7, "block with no terminator")]


def test_a_template_source_is_refused_at_its_first_field():
    with pytest.raises(ws.CompileError) as e:
        ws.compile(os.path.join(ROOT, "python", "ws", "kernels", "matmul.mlir"))
    (d,) = [d for d in e.value.diagnostics if d.severity == "error"]
    assert (d.file.endswith("matmul.mlir"), d.line, d.column) == (True, 18, 49)
    assert "this is a ws.Template's source" in d.message


def test_an_unknown_option_or_a_reserved_one_is_refused(add_source):
    # Python's spelling, the closest option, and before anything compiles
    with pytest.raises(TypeError, match=r"unknown option 'num_stage'; did you mean "
                                        r"'num_stages'\? \(the options: smem_budget, "):
        ws.compile(add_source, num_stage=3)
    with pytest.raises(TypeError, match="unknown option 'no_such_option' "):
        ws.compile(add_source, no_such_option=1)
    with pytest.raises(TypeError, match="unknown option 'stage': the compile sets it itself"):
        ws.compile(add_source, stage="plan")
    with pytest.raises(ValueError, match="cannot be passed"):
        ws.compile(add_source, cuda_path="/a b")
    with pytest.raises(ValueError, match="linker must be one of"):
        ws.compile(add_source, linker="ptxas")
    # a value an option does not take: ValueError, in Python's spelling
    with pytest.raises(ValueError, match="""ws.compile: option 'chip' takes "", sm_90a or """
                                         """sm_100a, got 'sm_80'"""):
        ws.compile(add_source, chip="sm_80")
    with pytest.raises(ValueError, match="option 'num_stages' takes an integer from 0 to 8, "
                                         "got '99'"):
        ws.compile(add_source, num_stages=99)


def test_a_chip_the_kernel_does_not_target_is_refused(add_source):
    with pytest.raises(ws.CompileError, match="sm_100a"):
        ws.compile(add_source, chip="sm_100a")


def test_nesting_too_deep_is_refused_before_the_parser():
    with pytest.raises(ws.CompileError, match="nests brackets more than 512 deep"):
        ws.compile("module {" + "(" * 600 + "\n}", filename="deep.mlir")


def test_nesting_of_types_is_refused_before_the_parser():
    # 20,000 levels of tensor<...> overflowed the parser's stack and killed
    # the interpreter; the < of a type counts toward the limit.
    with pytest.raises(ws.CompileError, match="nests brackets more than 512 deep") as e:
        ws.compile("func.func private @f(" + "tensor<" * 20000 + "f32" + ">" * 20000 + ")\n",
                   filename="types.mlir")
    d = e.value.diagnostics[0]
    assert (d.file, d.line, d.column) == ("types.mlir", 1, 3605)


@pytest.mark.parametrize("text", ["", "   \n\t\n", "// only a comment\n"])
def test_an_input_with_no_operation_is_refused_at_1_1(text, tmp_path):
    path = tmp_path / "empty.mlir"
    path.write_text(text)
    with pytest.raises(ws.CompileError, match="holds no operation") as e:
        ws.compile(str(path))
    d = e.value.diagnostics[0]
    assert (d.file, d.line, d.column) == (str(path), 1, 1)


def test_nvjitlink_makes_a_cubin(add_source):
    from ws import _nvjitlink
    if not _nvjitlink.available():
        pytest.skip("skipped: no libnvJitLink.so")
    mod = ws.compile(add_source, linker="nvjitlink")
    assert mod.cubin.startswith(b"\x7fELF") and mod.linker == "nvjitlink"


def test_the_version_is_the_projects():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        want = re.search(r"project\(ws VERSION (\S+)", f.read()).group(1)
    assert ws.version() == want


def test_a_saved_module_loads_without_compiling(tmp_path, add_source):
    mod = ws.compile(add_source, explain=True)
    mod.save(tmp_path / "add.wsmod")
    back = ws.load(tmp_path / "add.wsmod")
    assert back.ptx == mod.ptx and back.add.signature == mod.add.signature
    assert back.remarks == mod.remarks
    # not a module: JSON of another kind, the kernel's source, or binary
    (tmp_path / "bad.wsmod").write_text("{}")
    (tmp_path / "list.wsmod").write_text("[1]")
    (tmp_path / "elf.wsmod").write_bytes(b"\x7fELF\xff\xfe")
    for bad in ("bad.wsmod", "list.wsmod", "elf.wsmod", kernel_path("add.mlir")):
        with pytest.raises(ValueError, match=r"not a module Module.save wrote \(a .wsmod\)"):
            ws.load(tmp_path / bad)


def test_a_library_that_cannot_load_is_a_ws_error(tmp_path, monkeypatch):
    from ws import _capi
    (tmp_path / "libws-c.so").write_bytes(b"not a library")
    monkeypatch.setenv("WS_LIBRARY", str(tmp_path / "libws-c.so"))
    monkeypatch.setattr(_capi, "_libs", {})
    with pytest.raises(ImportError, match="ws: cannot load .*compiling needs MLIR 22"):
        _capi.lib()


def test_python_m_ws_compile_writes_modules(tmp_path, add_source):
    from ws.__main__ import main
    good = tmp_path / "add.mlir"
    good.write_text(add_source)
    assert main(["compile", str(good), "--chip", "sm_90a"]) == 0
    assert ws.load(tmp_path / "add.wsmod").add.signature.block_threads > 0
    bad = tmp_path / "bad.mlir"
    bad.write_text(add_source.replace("ws.load", "ws.lod", 1))
    out = tmp_path / "out"
    assert main(["compile", str(good), str(bad), "--out-dir", str(out), "num_stages=3"]) == 1
    assert (out / "add.wsmod").exists() and not (out / "bad.wsmod").exists()
    assert main(["compile", "-o", str(tmp_path / "x.wsmod"), str(good), str(bad)]) == 2
    # an option or a chip it does not take is a usage error, as for ws-opt
    assert main(["compile", "num_stage=3", str(good)]) == 2
    assert main(["compile", "--chip", "sm_80", str(good)]) == 2
    assert main(["compile", "chip=sm_90a", str(good)]) == 2  # --chip is the way
    assert main([]) == 2


def test_python_m_ws_compile_says_what_it_wrote_and_refuses_a_template(tmp_path, add_source,
                                                                        capsys):
    from ws.__main__ import main
    good = tmp_path / "add.mlir"
    good.write_text(add_source)
    assert main(["compile", str(good)]) == 0
    assert capsys.readouterr().out == "%s: add\n" % (tmp_path / "add.wsmod")
    family = tmp_path / "family.mlir"
    family.write_text(add_source.replace("32x64xf32", "${BR}x64xf32"))
    assert main(["compile", str(family)]) == 1
    assert "a ws.Template (it has ${...} fields)" in capsys.readouterr().err
    assert not (tmp_path / "family.wsmod").exists()
    assert main(["--help"]) == 0
    assert "python -m ws compile" in capsys.readouterr().out
