# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The transformers drop-in's decisions (ws.hf_attention), without
transformers or a GPU: which calls run on ws, the key bounds a padding
mask gives, the SDPA mask of a fallback, and the fallback said once. The
model itself runs in test_gpu_attention.py."""

import subprocess
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")

from ws import hf_attention  # noqa: E402


def test_importing_it_imports_neither_transformers_nor_the_ops():
    code = ("import sys, ws.hf_attention; "
            "print('transformers' in sys.modules, 'ws.torch_ops' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False"]


def test_which_calls_run_on_ws():
    q, k = (2, 16, 300, 128), (2, 4, 300, 128)
    assert hf_attention.plan_call(q, k, None, 0.0, False, None) is None
    assert hf_attention.plan_call(q, k, (2, 300), 0.1, False, None) is None  # eval: no dropout
    assert hf_attention.plan_call((2, 16, 100, 128), (2, 4, 300, 128), (2, 300), 0.0, True,
                                  None) is None  # a chunk against a cache
    assert hf_attention.plan_call(q, k, None, 0.0, True, None, True) is None  # training, D 128
    assert hf_attention.plan_call((2, 16, 300, 256), (2, 4, 300, 256), None, 0.0, False, None,
                                  False) is None  # D = 256 without a gradient
    for why, args in (("decode", ((2, 16, 1, 128), k, None, 0.0, False, None)),
                      ("head dimension 96", ((2, 16, 300, 96), k, None, 0.0, False, None)),
                      ("4-D attention mask", (q, k, (2, 1, 300, 300), 0.0, False, None)),
                      ("padding mask of 200 keys for 300", (q, k, (2, 200), 0.0, False, None)),
                      ("sliding window", (q, k, None, 0.0, False, 4096)),
                      ("dropout", (q, k, None, 0.1, True, None)),
                      ("more queries", ((2, 16, 400, 128), k, None, 0.0, False, None)),
                      ("a gradient at head dimension 256",
                       ((2, 16, 300, 256), (2, 4, 300, 256), None, 0.0, True, None, True))):
        assert why in hf_attention.plan_call(*args)


def test_key_bounds_of_left_and_right_padding():
    mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [0, 0, 0, 0, 0]])
    start, end = hf_attention.key_bounds(mask)
    assert start.dtype == torch.int32 and start.tolist() == [2, 0, 0, 5]
    assert end.tolist() == [5, 3, 5, 5]  # an empty row: start == end, no key
    assert hf_attention.check_run(mask, start, end)
    holes = torch.tensor([[1, 0, 1, 1, 1]])
    assert not hf_attention.check_run(holes, *hf_attention.key_bounds(holes))


def test_a_fallback_gets_the_same_mask_as_sdpa_needs():
    padding = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]])
    seen = hf_attention.padding_to_sdpa_mask(padding, 2, 4, causal=True)
    assert seen.shape == (2, 1, 2, 4)
    # bottom-right: query 0 is key 2's position, query 1 key 3's
    assert seen[0, 0].tolist() == [[False, True, True, False], [False, True, True, True]]
    assert seen[1, 0].tolist() == [[True, True, True, False], [True, True, True, True]]


def test_a_fallback_is_said_once_per_reason():
    hf_attention._SAID.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            hf_attention.say_once("a reason")
        hf_attention.say_once("another")
    assert [str(w.message) for w in caught] == [
        "ws.hf_attention: running SDPA, not ws: a reason (said once)",
        "ws.hf_attention: running SDPA, not ws: another (said once)"]


# mask functions built as transformers' masking_utils builds them (the
# closures hf_attention.mask_parts reads): the real ones run in
# test_gpu_attention.py's packed model
def causal_mask_function(batch_idx, head_idx, q_idx, kv_idx):
    return kv_idx <= q_idx


def and_masks(*mask_functions):
    def and_mask(batch_idx, head_idx, q_idx, kv_idx):
        return all(f(batch_idx, head_idx, q_idx, kv_idx) for f in mask_functions)
    return and_mask


def packed_sequence_mask_function(packed_sequence_mask):
    def inner_mask(batch_idx, head_idx, q_idx, kv_idx):
        return packed_sequence_mask[batch_idx, q_idx] == packed_sequence_mask[batch_idx, kv_idx]
    return inner_mask


def sliding_window_overlay(sliding_window):
    def inner_mask(batch_idx, head_idx, q_idx, kv_idx):
        return kv_idx > q_idx - sliding_window
    return inner_mask


def test_a_packed_batch_is_read_from_its_mask_function():
    ids = torch.tensor([[0, 0, 1, 1, 1, 2]])
    packed = and_masks(causal_mask_function, packed_sequence_mask_function(ids))
    starts = hf_attention.packed_batch_starts(packed, causal_mask_function, None)
    assert starts.shape == (1, 1, 6) and starts.dtype == torch.int32
    assert starts[0, 0].tolist() == [0, 0, 2, 2, 2, 5]
    assert hf_attention.is_packed_starts(starts)
    assert not hf_attention.is_packed_starts(torch.ones(1, 6, dtype=torch.int32))  # padding
    # and the SDPA mask of a fallback: each query sees its own sequence's
    # keys up to itself
    seen = hf_attention.packed_to_sdpa_mask(starts[:, 0])
    assert seen.shape == (1, 1, 6, 6)
    assert seen[0, 0, 3].tolist() == [False, False, True, True, False, False]
    assert seen[0, 0, 5].tolist() == [False] * 5 + [True]
    # what ws cannot take stays SDPA's: a window beside the packing, a
    # padding mask given, a mask function of unknown parts, causal alone
    window = and_masks(causal_mask_function, packed_sequence_mask_function(ids),
                       sliding_window_overlay(2))
    for function, mask in ((window, None), (packed, torch.ones(1, 6)),
                           (lambda *a: True, None),
                           (and_masks(causal_mask_function), None)):
        assert hf_attention.packed_batch_starts(function, causal_mask_function, mask) is None


def test_which_packed_calls_run_on_ws():
    q = (2, 16, 300, 128)
    assert hf_attention.plan_call(q, (2, 4, 300, 128), (2, 1, 300), 0.0, False, None,
                                  packed=True) is None
    assert "packed batch without a causal mask" in hf_attention.plan_call(
        q, (2, 4, 300, 128), (2, 1, 300), 0.0, False, None, causal=False, packed=True)
    assert "packed batch without a causal mask" in hf_attention.plan_call(
        q, (2, 4, 400, 128), (2, 1, 300), 0.0, False, None, packed=True)
