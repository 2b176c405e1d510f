# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Every argument rule of a launch, applied without a GPU (Kernel.check):
the C API's rules, the ones each generated launcher carries, in the same
words, naming the kernel and the argument."""

import re

import pytest
import torch

import ws
from conftest import kernel_path


class Fake:
    """A tensor as a launch sees one: address, shape, strides, dtype."""

    def __init__(self, shape, strides=None, dtype=torch.float32, base=0x10000):
        self.shape, self.dtype, self.base = tuple(shape), dtype, base
        if strides is None:
            strides, n = [], 1
            for size in reversed(self.shape):
                strides.insert(0, n)
                n *= size
        self._strides = tuple(strides)

    def data_ptr(self):
        return self.base

    def stride(self):
        return self._strides


@pytest.fixture(scope="module")
def add():
    return ws.compile(kernel_path("add.mlir")).add


def refusal(kernel, *args):
    with pytest.raises(ValueError) as e:
        kernel.check(*args)
    return str(e.value)


def good(rows=100, cols=64, **kw):
    return Fake((rows, cols), **kw)


def test_good_arguments_pass(add):
    add.check(good(), good(), good(), 64)
    add.check(torch.zeros(100, 64), torch.zeros(100, 64), torch.zeros(100, 64), 64)


def test_a_tensor_off_the_current_gpu_is_refused_at_launch(add):
    """check() applies the rules a CPU test can (CPU tensors pass it); a
    launch also refuses a tensor in host memory or on another GPU, which
    the kernel could only fault on (the refusal launch() raises, without
    the GPU this needs)."""
    from ws.launch import _device_refusal
    on = [good() for _ in range(3)]
    for t, d in zip(on, (torch.device("cuda", 0),) * 3):
        t.device = d
    assert _device_refusal(add.signature, (*on, 64), 0) is None
    assert _device_refusal(add.signature, (good(), good(), good(), 64), 0) is None  # no device
    cpu = (on[0], torch.zeros(100, 64), on[2], 64)
    assert _device_refusal(add.signature, cpu, 0) == \
        "arg1: must be on the current GPU, cuda:0 (got a tensor on cpu)"
    other = good()
    other.device = torch.device("cuda", 1)
    assert _device_refusal(add.signature, (on[0], on[1], other, 64), 0) == \
        "arg2: must be on the current GPU, cuda:0 (got a tensor on cuda:1)"


def test_element_type(add):
    assert refusal(add, good(dtype=torch.bfloat16), good(), good(), 1) == \
        "add: arg0 (%a): element type must be f32 (got bf16)"
    assert refusal(add, good(), good(), good(dtype=torch.float16), 1) == \
        "add: arg2 (%c): element type must be f32 (got f16)"
    assert refusal(add, good(), good(dtype=torch.float64), good(), 1) == \
        "add: arg1 (%b): element type must be f32 (got f64)"


def test_rank(add):
    assert refusal(add, Fake((2, 100, 64)), good(), good(), 1) == \
        "add: arg0 (%a): rank must be 2, the kernel's box rank (got 3)"
    assert "rank must be 2" in refusal(add, Fake((1,) * 6), good(), good(), 1)


def test_alignment_strides_and_sizes(add):
    # the rule in the C launcher's words, then what a PyTorch caller can do
    assert refusal(add, good(base=0x10004), good(), good(), 1) == (
        "add: arg0 (%a): base must be 16-byte aligned (got 0x10004); a view that starts inside "
        "a 16-byte granule: slice at a multiple of 16 bytes, or pass x.contiguous()")
    assert refusal(add, good(strides=(64, 2)), good(), good(), 1) == (
        "add: arg0 (%a): the innermost stride must be 1 element (got 2); pass a tensor whose "
        "last dimension is dense (x.contiguous() copies a transposed or strided view)")
    assert refusal(add, good(strides=(65, 1)), good(), good(), 1) == (
        "add: arg0 (%a): each outer stride of a dimension larger than 1 must be a nonzero "
        "multiple of 16 bytes below 2^40 bytes (got 65 elements of 4 bytes in dimension 0); "
        "TMA steps rows in 16-byte units: allocate rows padded to a multiple of 16 bytes "
        "and pass a view of the columns you need (torch.empty(rows, pitch)[:, :cols])")
    assert refusal(add, good(rows=2 ** 32 + 1), good(), good(), 1) == \
        "add: arg0 (%a): each size must be at most 2^32 (got 4294967297 in dimension 0)"


def test_a_dimension_of_size_one_needs_no_stride_rule(add):
    row = Fake((1, 777), strides=(777, 1))  # a bias viewed as (1, N)
    add.check(row, row, row, 777)


def test_a_tensor_with_no_element_is_taken(add):
    empty = Fake((100, 0), strides=(1, 1), base=0x3)  # torch.empty(M, 0)
    add.check(empty, empty, empty, 0)
    add.check(torch.empty(100, 0), torch.empty(100, 0), torch.empty(100, 0), 0)


def test_argument_kinds_and_count(add):
    with pytest.raises(TypeError, match="add takes 4 arguments \\(3 given\\)"):
        add.check(good(), good(), good())
    assert refusal(add, good(), 3, good(), 1) == "add: arg1 (%b): must be a tensor of f32 (got int)"
    assert refusal(add, good(), good(), good(), good()) == \
        "add: arg3 (%ynumel): must be an i32 scalar (got a tensor)"
    assert refusal(add, good(), good(), good(), 2 ** 31) == \
        "add: arg3 (%ynumel): must fit in i32 (got 2147483648)"
    assert refusal(add, good(), good(), good(), 1.5) == \
        "add: arg3 (%ynumel): must be an integer, i32 (got 1.5)"


def test_a_float_scalar_that_is_not_a_number(add_source):
    src = add_source.replace("%ynumel: i32) kernel", "%ynumel: i32, %alpha: f32) kernel")
    kernel = ws.compile(src).add
    kernel.check(good(), good(), good(), 64, 0.5)
    assert refusal(kernel, good(), good(), good(), 64, "a") == \
        "add: arg4 (%alpha): must be a number, f32 (got 'a')"


def test_divisibility(add_source):
    src = add_source.replace("%ynumel: i32) kernel", "%ynumel: i32 {ws.divisibility = 64 : i32}) kernel")
    kernel = ws.compile(src).add
    assert kernel.signature.args[3].divisor == 64
    kernel.check(good(), good(), good(), 128)
    assert refusal(kernel, good(), good(), good(), 100) == \
        "add: arg3 (%ynumel): must be a multiple of its ws.divisibility, 64 (got 100)"


def test_an_index_argument_takes_an_int64(add_source):
    src = add_source.replace("%ynumel: i32) kernel", "%n: index) kernel").replace(
        "%pid = gpu.block_id x", "%ynumel = arith.index_cast %n : index to i32\n"
        "      %pid = gpu.block_id x")
    kernel = ws.compile(src).add
    kernel.check(good(), good(), good(), 2 ** 40)
    # its ws.divisibility, which the alignment proof trusts, is checked at
    # the launch as an i32's is
    kernel = ws.compile(src.replace("%n: index)", "%n: index {ws.divisibility = 64 : i32})")).add
    assert kernel.signature.args[3].divisor == 64
    kernel.check(good(), good(), good(), 2 ** 40)
    assert refusal(kernel, good(), good(), good(), 100) == \
        "add: arg3 (%n): must be a multiple of its ws.divisibility, 64 (got 100)"


def test_without_the_cuda_bindings_a_launch_still_names_a_bad_argument(add):
    try:
        import cuda.bindings.driver  # noqa: F401
        pytest.skip("the CUDA Python bindings are installed: a launch reaches the driver")
    except ImportError:
        pass
    with pytest.raises(ValueError, match="arg0 \\(%a\\): element type must be f32"):
        add[1](good(dtype=torch.float16), good(), good(), 1)
    # a tensor in host memory is refused before the missing bindings
    with pytest.raises(ValueError, match=r"arg1 \(%b\): must be on a GPU \(got a tensor on cpu\)"):
        add[1](good(), torch.zeros(100, 64), good(), 1)
    with pytest.raises(ImportError, match="a launch needs the CUDA Python bindings"):
        add[1](good(), good(), good(), 1)


def test_grids(add):
    with pytest.raises(ValueError, match="a grid is 1 to 3 positive integers"):
        add.check(good(), good(), good(), 1, grid=(0,))
    # a float is not truncated, a string not split into digits
    for grid in ("12", 2.5, (2.5,), (1, 2, 3, 4), ()):
        with pytest.raises(ValueError, match=re.escape("positive integers (got %r)" % (grid,))):
            add.check(good(), good(), good(), 1, grid=grid)
    import numpy
    add.check(good(), good(), good(), 1, grid=(numpy.int64(2), torch.tensor(3).item()))
    add.check(good(), good(), good(), 1, grid=numpy.array([2, 3]))
    add.check(good(), good(), good(), 1, grid=range(1, 3))
    with pytest.raises(ValueError, match="a grid is needed"):
        add.launch(None, good(), good(), good(), 1)


@pytest.fixture(scope="module")
def split_k():
    """The shipped persistent matmul with its tile loop split along K."""
    family = ws.Template(ws.kernel_source("matmul.mlir"))
    text = family.render({"BM": 128, "BN": 128, "BK": 64, "DTYPE": "f16"})
    text = text.replace("} {ws.warp_specialize}\n      gpu.return",
                        "} {ws.split_k = true, ws.warp_specialize}\n      gpu.return", 1)
    return ws.compile(text, chip="sm_90a").matmul


def test_a_split_k_workspace_may_be_left_out(split_k):
    f16 = dict(dtype=torch.float16)
    a, b, c = good(256, 512, **f16), good(256, 512, **f16), good(256, 256, **f16)
    assert split_k.signature.workspace_per_block > 0
    split_k.check(a, b, c, 256, 256, 512)  # the runtime brings its own
    split_k.check(a, b, c, 256, 256, 512, 1 << 20)  # or the caller's
    assert "split-K workspace must be a 16-byte aligned address" in refusal(
        split_k, a, b, c, 256, 256, 512, 8)
    with pytest.raises(TypeError, match="takes 7 arguments"):
        split_k.check(a, b, c, 256, 256)


def test_arguments_carry_their_source_names(add, add_source):
    """The parsed IR keeps no argument names; the compile reads them from
    the source's gpu.func lines (a comment naming gpu.func does not count),
    and split-K's workspace, which ws adds, is "workspace"."""
    assert [a.name for a in add.signature.args] == ["a", "b", "c", "ynumel"]
    src = "// a gpu.func here is prose\n" + re.sub(r"%c\b", "%out_tile", add_source)
    assert [a.name for a in ws.compile(src).add.signature.args] == ["a", "b", "out_tile", "ynumel"]
    family = ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": "f16"})
    split = family.compile({"BM": 128, "BN": 128, "BK": 64, "split_k": "stream"},
                           chip="sm_90a").matmul
    assert [a.name for a in split.signature.args] == ["a", "b", "c", "M", "N", "K", "workspace"]
    with pytest.raises(ValueError, match=r"^matmul: arg6 \(%workspace\): "):
        split.check(Fake((256, 64), dtype=torch.float16), Fake((128, 64), dtype=torch.float16),
                    Fake((256, 128), dtype=torch.float16), 256, 128, 64, 1.5)
