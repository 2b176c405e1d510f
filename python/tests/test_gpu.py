"""Launches on the GPU: exact results, nothing written outside the
tensors, refusals before a launch, both linkers, the resident grid. Each
test says "skipped: no GPU" without one (the compile-only half of these
kernels is in test_compile.py)."""

import pytest

import ws
from conftest import kernel_path

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("skipped: no GPU", allow_module_level=True)
try:
    import cuda.bindings.driver  # noqa: F401
except ImportError:
    pytest.skip("skipped: no CUDA Python bindings (pip install cuda-python)",
                allow_module_level=True)


@pytest.fixture(scope="module", params=["driver", "nvjitlink"])
def add(request):
    from ws import _nvjitlink
    if request.param == "nvjitlink" and not _nvjitlink.available():
        pytest.skip("skipped: no libnvJitLink.so")
    return ws.compile(kernel_path("add.mlir"), linker=request.param).add


def padded(rows, cols, fill=None):
    """A rows x cols f32 view whose row stride TMA takes (16-byte rows)."""
    pitch = (cols + 3) // 4 * 4
    if fill is None:
        return torch.rand(rows, pitch, device="cuda")[:, :cols]
    return torch.full((rows, pitch), fill, device="cuda")[:, :cols]


@pytest.mark.parametrize("rows,cols", [(32, 64), (100, 777), (4099, 130), (1, 1)])
def test_add_is_exact_and_stays_inside(add, rows, cols):
    a, b = padded(rows, cols), padded(rows, cols)
    # c inside a larger buffer: guard rows above and below, guard columns
    pitch = (cols + 3) // 4 * 4
    guarded = torch.full((rows + 2, pitch + 4), -7.0, device="cuda")
    c = guarded[1:rows + 1, :cols]
    add[(rows + 31) // 32](a, b, c, cols)
    torch.cuda.synchronize()
    assert torch.equal(c, a + b)
    outside = guarded.clone()
    outside[1:rows + 1, :cols] = -7.0
    assert bool((outside == -7.0).all())


def test_a_row_stride_tma_cannot_take_is_refused(add):
    a = torch.rand(100, 777, device="cuda")  # rows of 3108 bytes
    with pytest.raises(ValueError, match="arg0: each outer stride .* multiple of 16 bytes"):
        add[4](a, a, a, 777)


def test_a_refused_argument_launches_nothing(add):
    a = torch.rand(64, 64, device="cuda")
    c = torch.full((64, 64), -7.0, device="cuda")
    with pytest.raises(ValueError, match="arg1: element type must be f32 \\(got bf16\\)"):
        add[2](a, a.bfloat16(), c, 64)
    torch.cuda.synchronize()
    assert bool((c == -7.0).all())


def test_k_zero_and_a_stream(add):
    e = torch.empty(64, 0, device="cuda")
    stream = torch.cuda.Stream()
    add[2](e, e, e, 0, stream=stream)
    stream.synchronize()


def test_the_persistent_matmul_on_its_resident_grid():
    kernel = ws.compile(kernel_path("matmul_persistent.mlir")).matmul_persistent
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    assert kernel.resident_grid() == sms * kernel.signature.blocks_per_sm
    for m, n, k in [(256, 512, 128), (300, 712, 200), (1024, 1024, 1024)]:
        a = torch.rand(m, k, device="cuda", dtype=torch.float16) - 0.5
        b = torch.rand(n, k, device="cuda", dtype=torch.float16) - 0.5
        bias = torch.rand(1, n, device="cuda", dtype=torch.float16) - 0.5
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        kernel(a, b, c, bias, m, n, k)
        torch.cuda.synchronize()
        want = torch.relu(a.float() @ b.float().t() + bias.float())
        assert (c.float() - want).abs().max().item() < 2e-2
