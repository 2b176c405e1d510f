# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws's attention in a transformers model: register() adds an attention
implementation named "ws" (an attention function and its mask function)
to transformers' AttentionInterface and AttentionMaskInterface, so that

    import ws.hf_attention
    ws.hf_attention.register()
    model = AutoModelForCausalLM.from_config(config, attn_implementation="ws")

runs the model's attention on torch.ops.ws.attention: grouped-query heads
as they are, the output written in the B x S x H x D layout the model
reads, causal masks aligned bottom-right (a chunk of new queries against
the cache), padded batches through per-sequence key bounds, packed
batches (several sequences a row, which transformers finds from
position_ids when no attention mask is given) through each token's
sequence start.

The mask function hands the attention function what ws can take: nothing
(no padding: a causal mask the op makes itself), the 2-D padding mask, or
for a packed batch each token's sequence start (a B x 1 x S int32 tensor,
seq_start); anything else (sliding windows, chunked sequences, an
explicit float bias) gets transformers' SDPA mask, and the attention
function then runs SDPA and says so once per reason (a warnings.warn),
never silently.
A query length of 1 (decode) runs SDPA too, said once. Importing this
module imports neither transformers nor ws.torch_ops; register() does.

The decisions are plain functions (plan_call, key_bounds), tested without
transformers or a GPU.
"""

import collections
import warnings
from typing import Optional

from .attention_args import ATTENTION_HEAD_DIMS, needs_grad as _needs_grad, sequence_starts
from .families import ATTENTION_BWD_HEAD_DIMS

_SAID = set()  # the fallback reasons already said in this process
# the eager calls each path ran in this process ("ws", "sdpa"): a test
# asks whether a model reached ws
calls = collections.Counter()
# transformers' modules, looked up by register(): torch.compile cannot
# trace an import of transformers' lazy modules inside a model's forward
_transformers = {}


def say_once(reason: str) -> None:
    """Warns that a call runs SDPA, once per reason per process."""
    if reason not in _SAID:
        _SAID.add(reason)
        warnings.warn("ws.hf_attention: running SDPA, not ws: %s (said once)" % reason,
                      stacklevel=3)


def plan_call(query_shape, key_shape, mask_shape, dropout: float, training: bool,
              sliding_window, needs_grad: bool = False, causal: bool = True,
              packed: bool = False) -> Optional[str]:
    """Why this call cannot run on ws (None: it can). `mask_shape` is the
    attention mask's (None: no mask; B x Skv: a padding mask ws takes);
    `needs_grad`: a gradient may be asked for (ws's backward takes fewer
    head dimensions than its forward); `packed`: the mask is a packed
    batch's sequence starts (B x 1 x S), which takes causal attention over
    as many keys as queries."""
    mask_dim = None if mask_shape is None else len(mask_shape)
    if packed:
        if not causal or query_shape[2] != key_shape[2]:
            return "a packed batch without a causal mask over as many keys as queries"
        mask_dim = None
    if query_shape[2] == 1:
        return "a query length of 1 (decode): ws's decode attention is not yet shipped"
    if query_shape[3] not in ATTENTION_HEAD_DIMS:
        return "head dimension %d (ws takes 64, 128 and 256)" % query_shape[3]
    if needs_grad and query_shape[3] not in ATTENTION_BWD_HEAD_DIMS:
        return "a gradient at head dimension %d (ws's backward takes %s)" % (
            query_shape[3], " and ".join(map(str, ATTENTION_BWD_HEAD_DIMS)))
    if query_shape[2] > key_shape[2]:
        return "more queries (%d) than keys (%d)" % (query_shape[2], key_shape[2])
    if mask_dim not in (None, 2):
        return "a %d-D attention mask (a bias, a sliding window, chunked or packed " \
               "sequences)" % mask_dim
    if mask_dim == 2 and mask_shape[-1] != key_shape[2]:
        return "a padding mask of %d keys for %d" % (mask_shape[-1], key_shape[2])
    if sliding_window:
        return "a sliding window"
    if dropout and training:
        return "attention dropout"
    return None


def key_bounds(padding_mask):
    """(kv_start, kv_end): each row's first and one-past-last key of a 2-D
    padding mask (B x Skv, nonzero where a key is real), as int32, computed
    on the device without a sync. A row must be one run of real keys (left
    or right padding, as tokenizers pad); check_run() says whether it is."""
    import torch
    real = padding_mask.bool()
    skv = real.shape[-1]
    index = torch.arange(skv, device=real.device, dtype=torch.int32)
    start = torch.where(real, index, skv).amin(dim=-1).to(torch.int32)
    end = (torch.where(real, index, -1).amax(dim=-1) + 1).to(torch.int32)
    return start, torch.maximum(end, start)


def check_run(padding_mask, start, end) -> bool:
    """Whether each row's real keys are one run start..end (a sync)."""
    return bool((padding_mask.bool().sum(dim=-1) == (end - start)).all())


def attention_forward(module, query, key, value, attention_mask, scaling=None, dropout=0.0,
                      sliding_window=None, softcap=None, is_causal=None, **kwargs):
    """transformers' attention function for "ws": returns (B x S x H x D
    output, None)."""
    import torch
    causal = getattr(module, "is_causal", True) if is_causal is None else is_causal
    needs_grad = _needs_grad(query, key, value)
    packed = is_packed_starts(attention_mask)
    why = plan_call(tuple(query.shape), tuple(key.shape),
                    None if attention_mask is None else tuple(attention_mask.shape), dropout,
                    getattr(module, "training", False), sliding_window, needs_grad,
                    bool(causal), packed)
    start = end = seq_start = None
    if packed:
        seq_start = attention_mask[:, 0]
    elif why is None and attention_mask is not None:  # B x Skv: mask_forward's padding
        start, end = key_bounds(attention_mask)
        if not _compiling() and not check_run(attention_mask, start, end):
            why = "a padding mask whose real keys are not one run per sequence"
    if why is not None:
        say_once(why)
        _count("sdpa")
        if softcap:
            raise ValueError("ws.hf_attention: %s needs SDPA, which has no soft cap; load "
                             "the model with attn_implementation=\"eager\"" % why)
        return _sdpa(module, query, key, value, attention_mask, scaling, dropout, causal,
                     **kwargs)
    _count("ws")
    if needs_grad:
        # training: the differentiable op, its output in query's layout
        # (B x S x H x D storage, so that the transpose back is free)
        out = torch.ops.ws.attention(query, key, value, bool(causal), scaling, softcap,
                                     "bottom_right", start, end, seq_start)
        return out.transpose(1, 2), None
    batch, heads, qlen, dim = query.shape
    out = query.new_empty(batch, qlen, heads, dim)
    torch.ops.ws.attention_out(query, key, value, out.transpose(1, 2), bool(causal), scaling,
                               softcap, "bottom_right", start, end, seq_start)
    return out, None


def _sdpa(module, query, key, value, attention_mask, scaling, dropout, causal, **kwargs):
    """transformers' own SDPA function; a 2-D padding mask (what this mask
    function hands over) made the 4-D boolean mask SDPA takes first."""
    sdpa_attention_forward = _transformers["sdpa_attention_forward"]
    if is_packed_starts(attention_mask):
        attention_mask = packed_to_sdpa_mask(attention_mask[:, 0])
    elif attention_mask is not None and attention_mask.dim() == 2:
        attention_mask = padding_to_sdpa_mask(attention_mask, query.shape[2], key.shape[2],
                                              causal)
    return sdpa_attention_forward(module, query, key, value, attention_mask, scaling=scaling,
                                  dropout=dropout, **kwargs)


def padding_to_sdpa_mask(padding, qlen: int, kvlen: int, causal: bool):
    """B x 1 x Sq x Skv booleans (True: seen) from a 2-D padding mask, with
    the causal diagonal aligned bottom-right as ws's."""
    import torch
    seen = padding[:, -kvlen:].bool()[:, None, None, :].expand(-1, 1, qlen, kvlen)
    if causal:
        i = torch.arange(qlen, device=padding.device)[:, None]
        j = torch.arange(kvlen, device=padding.device)[None, :]
        seen = seen & (j <= i + (kvlen - qlen))
    return seen


def packed_to_sdpa_mask(seq_start):
    """B x 1 x S x S booleans (True: seen) of a packed batch: query i sees
    keys seq_start[b, i]..i."""
    import torch
    qlen = seq_start.shape[-1]
    i = torch.arange(qlen, device=seq_start.device)[:, None]
    j = torch.arange(qlen, device=seq_start.device)[None, :]
    return ((j <= i) & (j >= seq_start[:, :, None]))[:, None]


def is_packed_starts(mask) -> bool:
    """Whether the mask mask_forward handed over is a packed batch's
    sequence starts (B x 1 x S int32), not a padding or SDPA mask."""
    import torch
    return mask is not None and mask.dim() == 3 and mask.dtype == torch.int32


def mask_parts(mask_function, causal_function):
    """The parts of a transformers mask function that ws can take, as a
    list of ("causal", None) and ("packed", sequence ids), read from the
    closures transformers' and_masks and packed_sequence_mask_function
    make; None when any part is another (a sliding window, a chunk, a
    padding function, anything new)."""
    if mask_function is causal_function:
        return [("causal", None)]
    code = getattr(mask_function, "__code__", None)
    name = getattr(mask_function, "__qualname__", "")
    if code is None or not mask_function.__closure__:
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in mask_function.__closure__)))
    if name.startswith("and_masks.") and isinstance(cells.get("mask_functions"), tuple):
        parts = []
        for part in cells["mask_functions"]:
            known = mask_parts(part, causal_function)
            if known is None:
                return None
            parts += known
        return parts
    if name.startswith("packed_sequence_mask_function.") and "packed_sequence_mask" in cells:
        return [("packed", cells["packed_sequence_mask"])]
    return None


def packed_batch_starts(mask_function, causal_function, attention_mask):
    """A packed batch's seq_start as mask_forward hands it over (B x 1 x S
    int32), when the mask function is the causal one and transformers'
    packed-sequence one, and no attention mask is given; else None."""
    if attention_mask is not None:
        return None
    parts = mask_parts(mask_function, causal_function)
    if parts is None or sorted(kind for kind, _ in parts) != ["causal", "packed"]:
        return None
    ids = next(value for kind, value in parts if kind == "packed")
    return sequence_starts(ids)[:, None]


def mask_forward(*args, **kwargs):
    """transformers' mask function for "ws" (its arguments are SDPA's mask
    function's, by keyword in transformers 5): None for a plain causal
    mask without padding, the 2-D padding mask (B x kv_length) with
    padding, a packed batch's sequence starts (B x 1 x S int32: the
    causal and packed-sequence mask functions, no attention mask), and
    SDPA's own mask for any other form (the attention function then runs
    SDPA, saying why). Under torch.compile a given
    padding mask is handed over as it is (whether it pads anything is not
    asked: that would read it back)."""
    masking_utils = _transformers["masking_utils"]
    mask_function = kwargs.get("mask_function")
    attention_mask = kwargs.get("attention_mask")
    kv_length, kv_offset = kwargs.get("kv_length"), kwargs.get("kv_offset", 0) or 0
    plain = mask_function is None or mask_function is masking_utils.causal_mask_function
    if plain and attention_mask is None:
        return None
    if not plain:
        starts = packed_batch_starts(mask_function, masking_utils.causal_mask_function,
                                     attention_mask)
        if starts is not None and starts.shape[-1] == kv_length:
            return starts
    width = None if attention_mask is None else attention_mask.shape[-1]
    if not plain or attention_mask.dim() != 2 or kv_length is None or width < kv_length:
        return masking_utils.sdpa_mask(*args, **kwargs)
    padding = attention_mask if width == kv_length else \
        attention_mask[:, kv_offset:kv_offset + kv_length]
    if padding.shape[-1] != kv_length:
        return masking_utils.sdpa_mask(*args, **kwargs)
    if not _compiling() and bool(padding.bool().all()):
        return None
    return padding


def _count(path: str) -> None:
    """Counts an eager call of `path`: under torch.compile a count would be
    a guard on the counter, failing at every call (a recompile each)."""
    if not _compiling():
        calls[path] += 1


def _compiling() -> bool:
    """Whether torch.compile is tracing (False on a torch without it)."""
    import torch
    compiler = getattr(torch, "compiler", None)
    return bool(compiler and compiler.is_compiling())


def register(name: str = "ws") -> None:
    """Registers ws's attention and mask functions with transformers under
    `name`, so that attn_implementation=name runs them. Needs transformers
    with AttentionInterface and AttentionMaskInterface (4.53 or later)."""
    import ws.torch_ops  # noqa: F401  registers torch.ops.ws
    try:
        from transformers import AttentionInterface, masking_utils
        from transformers.integrations.sdpa_attention import sdpa_attention_forward
        from transformers.masking_utils import AttentionMaskInterface
    except ImportError as e:
        raise ImportError("ws.hf_attention.register needs transformers with "
                          "AttentionInterface and AttentionMaskInterface (4.53 or later)") from e
    _transformers.update(masking_utils=masking_utils,
                         sdpa_attention_forward=sdpa_attention_forward)
    AttentionInterface.register(name, attention_forward)
    AttentionMaskInterface.register(name, mask_forward)
