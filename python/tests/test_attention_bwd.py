# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""attention_bwd.mlir, the backward family, compiled without a GPU: each
member holds its three kernels with the arguments torch.ops.ws.attention_bwd
passes, and each kernel is warp-specialized as the backward needs (wgmma
with A from shared memory for the scores, A from registers for the
products of P and dS, TMA loads and stores, setmaxnreg); D = 256 is
refused with the reason."""

import pytest

import ws
from ws.families import attention_bwd_kernels


@pytest.mark.parametrize("dim,dtype,softcap,causal,bounded", [
    (64, "f16", False, False, False), (128, "bf16", True, True, True)])
def test_a_member_has_the_three_kernels(dim, dtype, softcap, causal, bounded):
    module = attention_bwd_kernels(dim, dtype, softcap=softcap, causal=causal, bounded=bounded)
    assert sorted(module.kernels) == ["attention_delta", "attention_dkdv", "attention_dq"]
    delta = module.attention_delta.signature
    assert [a.kind for a in delta.args] == ["descriptor"] * 3 + ["scalar"]
    assert [a.box[:3] for a in delta.args[:3]] == [(1, 1, 32)] * 2 + [(1, 1, 1)]
    for name, rows, stats in (("attention_dkdv", 64, 64), ("attention_dq", 128, 128)):
        sig = module.kernels[name].signature
        kinds = [a.kind for a in sig.args]
        outputs = 2 if name == "attention_dkdv" else 1
        assert kinds == ["descriptor"] * (6 + outputs) + ["scalar"] * 2 + ["array"] * 2 + \
            ["scalar"] * 5, (name, kinds)
        assert sig.args[0].box[:3] == (1, 1, rows) and sig.args[4].box == (1, 1, 1, stats)
        assert all(a.dtype == dtype for a in sig.args[:4])
        assert sig.args[4].dtype == sig.args[5].dtype == "f32"
    ptx = module.ptx
    for needed in ("wgmma.mma_async.sync.aligned.m64n64k16.f32", "}, {%r",
                   "cp.async.bulk.tensor.4d.shared::cluster.global",
                   "cp.async.bulk.tensor.4d.global.shared::cta", "setmaxnreg.inc.sync.aligned",
                   "ex2.approx.ftz.f32"):
        assert needed in ptx, needed
    assert ("tanh.approx.f32" in ptx) == softcap


def test_head_dimension_256_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="D = 256 a block's dK and dV"):
        attention_bwd_kernels(256, "bf16")
