# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The disk cache: a second compile of the same kernel is read back; any
change of source, options, linker or build is a miss; a refusal is kept as well;
clear() empties it."""

import os
import subprocess
import sys
import time

import pytest

import ws
from ws import cache


def test_a_second_compile_is_a_hit(add_source, private_cache):
    first = ws.compile(add_source)
    assert not first.cached
    start = time.perf_counter()
    second = ws.compile(add_source)
    elapsed = time.perf_counter() - start
    assert second.cached and second.ptx == first.ptx
    assert second.add.signature == first.add.signature
    assert elapsed < 0.5  # the figure is in the benchmark; this only says no compile ran
    assert os.listdir(private_cache)


def test_source_options_and_linker_are_in_the_key(add_source):
    ws.compile(add_source)
    assert not ws.compile(add_source + "\n// changed\n").cached
    assert not ws.compile(add_source, max_blocks_per_sm=1).cached
    assert ws.compile(add_source, max_blocks_per_sm=1).cached
    assert not ws.compile(add_source, explain=True).cached


def test_the_build_is_in_the_key(add_source, monkeypatch):
    assert len(ws.compiler.build_id()) == 16
    ws.compile(add_source)
    assert ws.compile(add_source).cached
    # a ws rebuilt from other sources (same version) compiles again
    monkeypatch.setattr(ws.compiler, "build_id", lambda: "0123456789abcdef")
    assert not ws.compile(add_source).cached


def test_remarks_come_back_from_the_cache_under_the_asking_name(add_source):
    remarks = ws.compile(add_source, explain=True, filename="a.mlir").remarks
    again = ws.compile(add_source, explain=True, filename="a.mlir")
    assert again.cached and again.remarks == remarks
    other = ws.compile(add_source, explain=True, filename="b.mlir")
    assert other.cached and {r.file for r in other.remarks} == {"b.mlir"}


def test_use_cache_false_neither_reads_nor_writes(add_source, private_cache):
    assert not ws.compile(add_source, use_cache=False).cached
    assert not os.path.exists(private_cache) or not os.listdir(private_cache)


def test_a_damaged_entry_is_a_miss(add_source, private_cache):
    ws.compile(add_source)
    for root, _, files in os.walk(private_cache):
        for f in files:
            if f == "module.json":
                with open(os.path.join(root, f), "w") as out:
                    out.write("{not json")
    assert not ws.compile(add_source).cached


def test_clear_and_the_command(add_source, private_cache):
    ws.compile(add_source)
    ws.compile(add_source, max_blocks_per_sm=1)
    assert cache.clear() == 2
    assert not ws.compile(add_source).cached
    pkg = os.path.dirname(os.path.dirname(ws.__file__))
    run = subprocess.run([sys.executable, "-m", "ws", "cache", "clear"], check=True,
                         capture_output=True, text=True, cwd=pkg,
                         env=dict(os.environ, PYTHONPATH=pkg))
    assert "removed 1 cached module" in run.stdout and not run.stderr  # no runpy warning
    assert not ws.compile(add_source).cached


def test_a_refusal_is_cached_too(monkeypatch):
    bad = "module {\n  func.func @f() {\n    return\n  }\n}\n"
    with pytest.raises(ws.CompileError) as first:
        ws.compile(bad, filename="one.mlir")
    # the second answer comes from the cache: the compiler is not called
    from ws import compiler
    monkeypatch.setattr(compiler, "_compile_uncached", lambda *a: pytest.fail("compiled again"))
    with pytest.raises(ws.CompileError) as second:
        ws.compile(bad, filename="two.mlir")
    assert str(second.value) == str(first.value).replace("one.mlir", "two.mlir")


def test_cache_check_lists_what_a_model_needs_and_fill_compiles_it(capsys):
    """check compiles nothing and says what is missing; fill compiles
    exactly that; a kernel the op compiled itself counts as cached."""
    from ws.cache import _main as cache_main
    from ws.families import attention_kernel, needed_kernels
    needs = needed_kernels(("f16",), (64,), (True,), padded=True, matmul=False)
    assert [str(n) for n in needs] == [
        "attention.mlir f16 @attention BN=128 BOUNDED=0 CAUSAL=1 D=64 LSE=0 PACKED=0 SOFTCAP=0",
        "attention.mlir f16 @attention BN=128 BOUNDED=1 CAUSAL=1 D=64 LSE=0 PACKED=0 SOFTCAP=0"]
    args = ["--dtype", "f16", "--head-dim", "64", "--mask", "causal", "--padded",
            "--no-matmul"]
    assert cache_main(["check"] + args) == 1
    out = capsys.readouterr().out
    assert out.count("missing  attention.mlir") == 2 and "0 of 2 kernels cached" in out
    attention_kernel(64, "f16", causal=True)  # as torch.ops.ws.attention compiles it
    assert [n.cached() for n in needs] == [True, False]
    assert cache_main(["fill"] + args) == 0
    assert "1 kernels compiled, 1 were cached" in capsys.readouterr().out
    assert cache_main(["check"] + args) == 0
    assert "2 of 2 kernels cached" in capsys.readouterr().out
    with_lse = needed_kernels(("bf16",), (128,), (False,), lse=True, matmul=False)
    assert [dict(n.config)["LSE"] for n in with_lse] == [0, 1]
    training = needed_kernels(("bf16",), (64,), (True,), matmul=False, backward=True)
    assert [str(n) for n in training] == [
        "attention.mlir bf16 @attention BN=128 BOUNDED=0 CAUSAL=1 D=64 LSE=0 PACKED=0 SOFTCAP=0",
        "attention.mlir bf16 @attention BN=128 BOUNDED=0 CAUSAL=1 D=64 LSE=1 PACKED=0 SOFTCAP=0",
        "attention_bwd.mlir bf16 @attention_{delta,dkdv,dq} BMQ=128 BOUNDED=0 CAUSAL=1 D=64 "
        "PACKED=0 SOFTCAP=0"]
    ws.families.attention_bwd_kernels(64, "bf16", causal=True)  # as the backward compiles it
    assert training[2].cached()
    # packed batches: the causal packed member (forward, and backward when
    # training) beside the others; a full mask has none
    packed = needed_kernels(("bf16",), (64,), (True,), matmul=False, backward=True,
                            packed=True)
    assert [(n.family, dict(n.config)["PACKED"], dict(n.config)["CAUSAL"]) for n in packed] == [
        ("attention.mlir", 0, 1), ("attention.mlir", 0, 1), ("attention.mlir", 1, 1),
        ("attention.mlir", 1, 1), ("attention_bwd.mlir", 0, 1), ("attention_bwd.mlir", 1, 1)]
    assert not any(dict(n.config)["PACKED"] for n in
                   needed_kernels(("bf16",), (64,), (False,), matmul=False, packed=True))
    with pytest.raises(ValueError, match="packed batch's attention member is causal"):
        ws.families.attention_config(64, packed=True)
    with pytest.raises(ValueError, match="backward takes the head dimensions 64, 128"):
        needed_kernels(("bf16",), (256,), matmul=False, backward=True)
    # the matmul family: every member the autotuner times, per element type
    assert len(needed_kernels(("bf16",))) == len(ws.families.MATMUL_CONFIGS)
    assert cache_main(["check", "--head-dim", "96"]) == 2
    assert "head dimension is one of 64, 128, 256" in capsys.readouterr().err
