# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
    with pytest.raises(ValueError,
                       match="arg0 \\(%a\\): each outer stride .* multiple of 16 bytes"):
        add[4](a, a, a, 777)


def test_a_refused_argument_launches_nothing(add):
    a = torch.rand(64, 64, device="cuda")
    c = torch.full((64, 64), -7.0, device="cuda")
    with pytest.raises(ValueError, match="arg1 \\(%b\\): element type must be f32 \\(got bf16\\)"):
        add[2](a, a.bfloat16(), c, 64)
    torch.cuda.synchronize()
    assert bool((c == -7.0).all())
    # a tensor in host memory: the kernel could only fault on its address
    with pytest.raises(ValueError, match="arg1 \\(%b\\): must be on the current GPU, cuda:0 "
                                         "\\(got a tensor on cpu\\)"):
        add[2](a, a.cpu(), c, 64)
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
        want = torch.relu(a.float() @ b.float().t() + bias.float())
        # the resident grid, and the balanced one (the same rounds of tiles
        # on fewer blocks, as ws.autotune's tiles= launches it)
        tiles = -(-m // 128) * -(-n // 256)  # its 128 x 256 tiles
        for grid in (None, kernel.balanced_grid(tiles)):
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            kernel.launch(grid, a, b, c, bias, m, n, k)
            torch.cuda.synchronize()
            assert (c.float() - want).abs().max().item() < 2e-2
    resident = kernel.resident_grid()
    assert kernel.balanced_grid(4 * resident - 16) == resident - 4
    assert kernel.balanced_grid(resident + 1) == resident // 2 + 1


def test_stream_k_on_two_streams():
    """The family's stream-K member (split_k="stream"): exact at a shape
    just past one wave and at a ragged one, launched on two streams at
    once, each with a workspace of its own that the runtime supplies."""
    family = ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": "f16"})
    kernel = family.compile({"BM": 128, "BN": 256, "BK": 64, "split_k": "stream"},
                            chip="sm_90a").matmul
    assert kernel.signature.workspace_per_block > 0
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    runs = []
    for (m, n, k), stream in zip([(2176, 2048, 1000), (1100, 904, 3000)], streams):
        a = torch.empty(m, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        torch.cuda.synchronize()
        for _ in range(3):  # a second launch reuses the stream's workspace
            kernel(a, b, c, m, n, k, stream=stream)
        runs.append((a, b, c))
    torch.cuda.synchronize()
    assert len(kernel._workspaces) == 2
    for a, b, c in runs:
        assert torch.allclose(c.float(), (a.float() @ b.float().t()), rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("kernel,dtype", [("matmul_ta_w8", torch.float16),
                                           ("matmul_ta_w4", torch.bfloat16)])
def test_a_transposed_a_from_shared_memory(kernel, dtype):
    """ws.dot's transpose_a: A given K x M (a view of a wider buffer, with
    guard columns), read M-major by wgmma; ragged M, N and K; C exact
    against torch and its guard bytes intact."""
    kern = ws.compile(kernel_path("matmul/matmul_ta.mlir"), chip="sm_90a").kernels[kernel]
    m, n, k = 300, 200, 136
    a_t = torch.empty(k, m + 20, device="cuda", dtype=dtype).uniform_(-1, 1)[:, :m]
    b = torch.empty(n, k, device="cuda", dtype=dtype).uniform_(-1, 1)
    guarded = torch.full((m + 2, n + 8), -7.0, device="cuda", dtype=dtype)
    c = guarded[1:m + 1, :n]
    kern[(-(-m // 128), -(-n // 128), 1)](a_t, b, c, k)
    torch.cuda.synchronize()
    want = a_t.float().t() @ b.float().t()
    assert torch.allclose(c.float(), want, rtol=2e-2, atol=5e-2)
    c.fill_(-7.0)
    assert (guarded == -7.0).all()


# the two members of the matmul family whose ranks swap between the shapes
# (integration/bench/matmul_autotune.py on the H100: 128x256 tiles win at
# 4096^3, 128x128 tiles with a deep cooperative ring at 256x8192x8192)
SWAPPING = [{"kernel": "matmul", "BM": 128, "BN": 256, "BK": 64},
            {"kernel": "matmul_tiled", "BM": 128, "BN": 128, "BK": 64,
             "overlap": "cooperative", "num_stages": 6}]


def test_the_autotuned_matmul_picks_per_shape():
    family = ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": "f16"})
    from ws.families import tile_count, tile_grid
    tuned = ws.autotune(family, SWAPPING, grid=tile_grid, tiles=tile_count, chip="sm_90a")
    winners = {}
    for m, n, k in [(256, 8192, 8192), (4096, 4096, 4096)]:
        a = torch.empty(m, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        b = torch.empty(n, k, device="cuda", dtype=torch.float16).uniform_(-1, 1)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        winners[m] = tuned.choose(a, b, c, m, n, k).config
        tuned(a, b, c, m, n, k)
        torch.cuda.synchronize()
        assert torch.allclose(c.float(), (a @ b.t()).float(), rtol=2e-2, atol=1e-1)
    assert winners[256]["BN"] == 128 and winners[4096]["BN"] == 256, winners


def torch_ops():
    if not hasattr(torch.library, "custom_op"):
        pytest.skip("skipped: ws.torch_ops needs PyTorch 2.4")
    import ws.torch_ops
    return ws.torch_ops


@pytest.mark.parametrize("m,n,k,dtype", [(512, 768, 256, torch.float16),
                                         (300, 1000, 136, torch.bfloat16),
                                         (1, 8, 8, torch.float16)])
def test_torch_ops_matmul(m, n, k, dtype):
    torch_ops()
    a = torch.empty(m, k, device="cuda", dtype=dtype).uniform_(-1, 1)
    b = torch.empty(n, k, device="cuda", dtype=dtype).uniform_(-1, 1)
    c = torch.ops.ws.matmul(a, b)
    assert c.shape == (m, n) and c.dtype == dtype and c.is_contiguous()
    assert torch.allclose(c.float(), a.float() @ b.float().t(), rtol=2e-2, atol=1e-1)


@pytest.mark.parametrize("dim,dtype,causal,seq", [(128, torch.float16, False, 1000),
                                                  (128, torch.bfloat16, True, 777),
                                                  (64, torch.float16, True, 256),
                                                  (64, torch.bfloat16, False, 129)])
def test_torch_ops_attention_against_sdpa(dim, dtype, causal, seq):
    torch_ops()
    q, k, v = (torch.empty(2, 3, seq, dim, device="cuda", dtype=dtype).uniform_(-1, 1)
               for _ in range(3))
    o = torch.ops.ws.attention(q, k, v, causal)
    want = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                             is_causal=causal)
    assert (o.float() - want).abs().max().item() < 2e-2


def uniform(*shape, dtype=torch.float16, grad=False):
    return torch.empty(*shape, device="cuda", dtype=dtype).uniform_(-1, 1).requires_grad_(grad)


@pytest.mark.parametrize("m,n,k,dtype", [(300, 1000, 136, torch.bfloat16),
                                         (64, 90, 100, torch.float16)])
def test_torch_ops_matmul_backward(m, n, k, dtype):
    """Gradients through ws.matmul (each a ws.matmul itself; M, N and K
    that are not multiples of 8 padded) against torch's in f32."""
    torch_ops()
    a, b = uniform(m, k, dtype=dtype, grad=True), uniform(n, k, dtype=dtype, grad=True)
    g = uniform(m, n, dtype=dtype)
    torch.ops.ws.matmul(a, b).backward(g)
    a32, b32 = (x.detach().float().requires_grad_() for x in (a, b))
    (a32 @ b32.t()).backward(g.float())
    for got, want in ((a.grad, a32.grad), (b.grad, b32.grad)):
        assert got.dtype == dtype and got.shape == want.shape
        assert torch.allclose(got.float(), want, rtol=2e-2, atol=1e-1)


def test_torch_ops_attention_backward_at_d256_says_why_not():
    """D = 256 runs forward; its backward is refused with the reason (the
    gradients themselves: test_gpu_attention_bwd.py)."""
    torch_ops()
    q = uniform(1, 2, 128, 256, grad=True)
    o = torch.ops.ws.attention(q, q.detach(), q.detach())
    with pytest.raises(ValueError, match="backward takes the head dimensions 64, 128"):
        o.float().sum().backward()


def test_torch_compile_of_a_training_step():
    """A two-layer MLP on ws.matmul under torch.compile(fullgraph=True):
    its loss and weight gradients match plain PyTorch's."""
    torch_ops()
    x = uniform(256, 512)
    w1, w2 = uniform(1024, 512, grad=True), uniform(256, 1024, grad=True)

    def loss(mm, x, w1, w2):
        h = torch.relu(mm(x, w1) * 0.05)
        return mm(h, w2).float().pow(2).mean()

    got = torch.compile(lambda *t: loss(torch.ops.ws.matmul, *t), fullgraph=True)(x, w1, w2)
    got.backward()
    grads = [w.grad.clone() for w in (w1, w2)]
    w1.grad = w2.grad = None
    want = loss(TorchReference.matmul, x, w1, w2)
    want.backward()
    assert abs(got.item() - want.item()) <= 2e-2 * abs(want.item())
    for g, w in zip(grads, (w1, w2)):
        scale = w.grad.float().abs().max().item()
        assert (g.float() - w.grad.float()).abs().max().item() <= 3e-2 * scale


def test_torch_ops_refuse_what_they_cannot_run():
    torch_ops()
    a = torch.zeros(64, 64, device="cuda", dtype=torch.float32)
    with pytest.raises(ValueError, match="all float16 or all bfloat16"):
        torch.ops.ws.matmul(a, a)
    q = torch.zeros(1, 1, 64, 96, device="cuda", dtype=torch.float16)
    with pytest.raises(ValueError, match="head dimension must be one of 64, 128"):
        torch.ops.ws.attention(q, q, q)


class TinyAttentionBlock(torch.nn.Module):
    """One attention block of a transformer, its matmuls and attention ws's."""

    def __init__(self, width=256, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Parameter(torch.empty(3 * width, width).uniform_(-0.06, 0.06))
        self.out = torch.nn.Parameter(torch.empty(width, width).uniform_(-0.06, 0.06))

    def forward(self, x, ops):
        batch, seq, width = x.shape
        qkv = ops.matmul(x.reshape(batch * seq, width), self.qkv)
        q, k, v = (t.reshape(batch, seq, self.heads, width // self.heads).transpose(1, 2)
                   for t in qkv.split(width, dim=1))
        o = ops.attention(q, k, v, True)
        o = o.transpose(1, 2).reshape(batch * seq, width)
        return x + ops.matmul(o, self.out).reshape(batch, seq, width)


class TorchReference:
    """The same ops in plain PyTorch, for the reference run."""

    @staticmethod
    def matmul(a, b):
        return (a.float() @ b.float().t()).to(a.dtype)

    @staticmethod
    def attention(q, k, v, causal):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def test_torch_compile_of_a_small_model():
    torch_ops()
    block = TinyAttentionBlock().cuda().half()
    x = torch.empty(2, 384, 256, device="cuda", dtype=torch.float16).uniform_(-1, 1)
    compiled = torch.compile(lambda x: block(x, torch.ops.ws), fullgraph=True)
    with torch.no_grad():  # the block's forward, as a model serves it
        got = compiled(x)
        want = block(x, TorchReference)
    assert got.shape == want.shape
    assert (got.float() - want.float()).abs().max().item() < 3e-2
