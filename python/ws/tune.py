# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ws.autotune: pick a kernel family's fastest member for the caller's
arguments, keeping only members ws proves.

Each config is compiled as its own kernel (the module's other kernels
left out: ws-select-kernel), so the shared-memory budget check and the
protocol proof run per candidate; a member ws refuses, or
whose launch rules refuse the arguments, is skipped with its reason. The
survivors are timed on the caller's own arguments with the benchmarks'
method (triton.testing.do_bench: the L2 flushed before each run, the
mean of CUDA-event timings), and the winner for the
arguments' key is kept on disk beside the module cache, so a later process
launches it without timing again.

    family = ws.Template(ws.kernel_source("matmul.mlir"))
    matmul = ws.autotune(family, [{"BM": 128, "BN": n} for n in (128, 256)],
                         kernel="matmul", chip="sm_90a")
    matmul(a, b, c, M, N, K)   # tunes at the first call of each key
"""

import dataclasses
import difflib
import itertools
import json
import re
import time
from typing import Callable, Dict, List, Optional, Sequence

from . import cache
from .compiler import CompileError, build_id, version
from .template import Template, TemplateError

OVERLAPS = ("", "pingpong", "cooperative")  # "": the planner's choice
# Candidates within RUNOFF_MARGIN of the fastest first time are timed
# RUNOFF_ROUNDS times more, interleaved, and ranked by the mean of those
# rounds: one do_bench figure moves by a percent or two from run to run, as
# much as close members differ. The first figure is left out of the mean
# (it is what put a member in the run-off, so it is biased low), and a mean
# rather than a median makes a member whose speed swings between runs pay
# for its slow ones (on the H200 a tiled 128x256 member past one wave, its
# speed set by the order the hardware schedules its blocks in, won a
# 4-round run-off by its median and then ran 3% behind the persistent one).
# Ten rounds, not six: a 6-round run-off on the H200 chose that tiled
# member at bf16 1024x8192x8192 once in five runs, where the persistent one
# won the other four by 2-5%.
RUNOFF_MARGIN = 0.03
RUNOFF_ROUNDS = 10
STAGES = (0, 2, 3, 4, 5, 6, 7, 8)  # 0: the planner's depth
# ws-select-kernel's error for a kernel= the module does not have: a config
# naming a kernel the family lacks is the caller's mistake, raised at once
_NO_SUCH_KERNEL = r"has no kernel @\S+? .*\(its kernels: (.*)\)$"


def planner_configs() -> List[Dict[str, object]]:
    """The planner's own choices as configs: each ring depth ws.num_stages
    allows and each overlap of a persistent matmul, the planner's picks
    first. A member whose kernel comes out the same as an earlier one's (an
    overlap on a kernel that has none to choose) is skipped as a repeat;
    depths over the budget are refused by the planner and skipped."""
    out = []
    for overlap, stages in itertools.product(OVERLAPS, STAGES):
        config = {}
        if overlap:
            config["overlap"] = overlap
        if stages:
            config["num_stages"] = stages
        out.append(config)
    return out


@dataclasses.dataclass
class Candidate:
    """One config: its kernel when it compiled (and was not a duplicate), or
    why it was skipped; its time in ms once timed."""

    config: Dict[str, object]
    kernel: object = None
    skipped: Optional[str] = None
    ms: Optional[float] = None

    @property
    def name(self) -> str:
        """The config as text: {BM=128, BN=256, num_stages=3}."""
        return config_text(self.config)

    def describe(self) -> str:
        what = ("%.4f ms" % self.ms) if self.ms is not None else ("skipped: " + self.skipped
                                                                  if self.skipped else
                                                                  "compiled, not timed")
        return "%s: %s" % (self.name, what)


def config_text(config: Dict[str, object]) -> str:
    return "{%s}" % ", ".join("%s=%s" % (k, config[k]) for k in sorted(config)) \
        if config else "{planner}"


def _entry_text(ptx: str, name: str) -> str:
    """One kernel's PTX: from its .entry to the next one (two configs that
    differ only in another kernel of the module give it the same text)."""
    start = ptx.find(".entry %s(" % name)
    if start < 0:
        return ptx
    end = ptx.find(".entry ", start + 1)
    return ptx[start:end if end > 0 else len(ptx)]


def default_key(*args) -> tuple:
    """What a tuned choice depends on: each tensor's shape and dtype, each
    integer's value (floats and other arguments do not change the
    choice)."""
    key = []
    for a in args:
        if hasattr(a, "shape") and hasattr(a, "dtype"):
            key.append((tuple(a.shape), str(a.dtype)))
        elif isinstance(a, int) and not isinstance(a, bool):
            key.append(a)
        else:
            key.append(type(a).__name__)
    return tuple(key)


def _bench(fn) -> float:
    """Milliseconds per call with the benchmarks' method:
    triton.testing.do_bench, which flushes L2 before each run and gives the
    mean of CUDA-event timings (its return_mode="mean", Triton 3.6)."""
    try:
        from triton.testing import do_bench
    except ImportError as e:
        raise ImportError("ws.autotune: timing needs triton.testing.do_bench (pip install "
                          "triton), or a timer of your own as bench=") from e
    return do_bench(fn)


class Autotuned:
    """A tuned kernel family; see ws.autotune. ``candidates()`` compiles
    every config (no GPU needed); calling it launches the winner for the
    arguments' key, tuning first when the key is new; ``choose(*args)``
    gives the winner (a Candidate) and ``results`` every key's timings."""

    def __init__(self, template: Template, configs: Sequence[Dict[str, object]],
                 kernel: Optional[str], key: Callable, grid: Optional[Callable],
                 compile_options: Dict[str, object], bench: Callable,
                 tiles: Optional[Callable] = None, budget_s: Optional[float] = None,
                 budget_configs: Optional[int] = None, clock: Callable = time.monotonic,
                 warm_start: Optional[Dict[str, Dict[str, dict]]] = None):
        self.template = template
        self.warm_start = warm_start or {}
        self.configs = [dict(c) for c in configs]
        self.kernel_name = kernel
        self.key = key
        self.grid = grid
        self.tiles = tiles
        self.compile_options = compile_options
        self.bench = bench
        self.budget_s = budget_s
        self.budget_configs = budget_configs
        self.clock = clock
        self._candidates = None
        self.results = {}  # key -> [Candidate], tuned in this process
        self._chosen = {}  # key -> the winning Candidate, once known here
        self._winners = None  # repr(key) -> the winner's entry on disk
        self._record = None  # the name of that record (ws.cache)
        self._full = {}  # id(config) -> (config, the config over the defaults)

    # -- compiling ---------------------------------------------------------
    def _kernel_of(self, module, name):
        names = sorted(module.kernels)
        if name is None:
            if len(names) != 1:
                raise ValueError("ws.autotune: the family has kernels %s; name one with kernel= "
                                 "or a config's \"kernel\" key" % ", ".join(names))
            return module.kernels[names[0]]
        return module.kernels[name]  # compiled with kernel=name: ws refuses a name it lacks

    def candidates(self) -> List[Candidate]:
        """Every config compiled: a kernel, or the reason it was skipped
        (ws's first error, with its location, or the member whose code it
        repeats). A config whose fields cannot be rendered is the caller's
        mistake and raises TemplateError; one naming a kernel the family
        lacks raises ValueError."""
        if self._candidates is not None:
            return self._candidates
        out, seen = [], {}
        for config in self.configs:
            c = Candidate(config)
            name = (config.get("kernel", self.kernel_name) or "").lstrip("@") or None
            fields = {k: v for k, v in config.items() if k != "kernel"}
            try:  # the member's kernel alone (ws-select-kernel), when it is named
                module = self.template.compile(fields, **dict(self.compile_options, **(
                    {"kernel": name} if name else {})))
            except CompileError as e:
                errors = [d for d in e.diagnostics if d.severity == "error"]
                has = errors and re.search(_NO_SUCH_KERNEL, errors[0].message)
                if has:
                    kernels = has.group(1).replace("@", "").split(", ")
                    close = difflib.get_close_matches(name, kernels, 1)
                    raise ValueError("ws.autotune: the family has no kernel %r (it has %s%s; "
                                     "config %s)" % (name, ", ".join(kernels),
                                                     "; did you mean %r?" % close[0] if close
                                                     else "", config_text(config))) from None
                c.skipped = str(errors[0] if errors else e)
            except TemplateError:
                raise  # a config the family cannot take at all: at once
            except ValueError as e:  # an option's value the pipeline does not take
                c.skipped = str(e)
            else:
                kernel = self._kernel_of(module, name)
                code = (_entry_text(module.ptx, kernel.name),
                        json.dumps(kernel.signature.to_json(), sort_keys=True))
                if code in seen:
                    c.skipped = "the same code as %s" % config_text(seen[code])
                else:
                    seen[code] = config
                    c.kernel = kernel
            out.append(c)
        if not any(c.kernel for c in out):
            raise ValueError("ws.autotune: no config compiled:\n  "
                             + "\n  ".join(c.describe() for c in out))
        self._candidates = out
        return out

    # -- the winners on disk -------------------------------------------------
    def _record_name(self) -> str:
        """The family's record of winners (ws.cache): keyed by its text,
        defaults, configs, options, kernel, the grid its persistent members
        run on, ws's version and build, and the GPU."""
        if self._record is None:
            name = gpu_name()
            self._record = cache.key(
                self.template.text, json.dumps(self.template.defaults, sort_keys=True),
                json.dumps(self.configs, sort_keys=True),
                json.dumps(self.compile_options, sort_keys=True, default=str),
                str(self.kernel_name), "balanced" if self.tiles else "resident",
                version(), build_id(), name)
        return self._record

    def _load_winners(self) -> Dict[str, dict]:
        if self._winners is None:
            self._winners = cache.load_record(self._record_name()) or {}
        return self._winners

    def _store_winner(self, key_text: str, entry: dict) -> None:
        winners = self._load_winners()
        winners[key_text] = entry
        cache.store_record(self._record_name(), winners)

    # -- tuning and launching --------------------------------------------------
    def _launch(self, kernel, config, args, stream=None):
        """Launches one member: a persistent kernel on its balanced grid
        when the family counts its tiles (else its resident grid), any
        other on grid(config over the defaults, *args)."""
        if kernel.signature.persistent:
            if self.tiles is None:
                return kernel(*args, stream=stream)
            tiles = self.tiles(self._full_config(config), *args)
            return kernel.launch(kernel.balanced_grid(tiles), *args, stream=stream)
        self._require_grid(kernel, config)
        return kernel.launch(self.grid(self._full_config(config), *args), *args, stream=stream)

    def _full_config(self, config):
        """The config over the family's defaults, as grid= and tiles= get
        it: made once per config (every launch asks)."""
        full = self._full.get(id(config))
        if full is None or full[0] is not config:
            full = self._full[id(config)] = (config, dict(self.template.defaults, **config))
        return full[1]

    def _require_grid(self, kernel, config) -> None:
        """Refuses a member that is not persistent when the family has no
        grid= to launch it on."""
        if self.grid is None:
            raise ValueError("ws.autotune: kernel %s (%s) is not persistent; give grid=, a "
                             "function of (config, *args) returning the grid"
                             % (kernel.name, config_text(config)))

    def _time(self, c: Candidate, args) -> float:
        """One figure of member `c` on `args` (the bench's, in ms)."""
        return self.bench(lambda: self._launch(c.kernel, c.config, args))

    def tune(self, *args) -> Candidate:
        """Times every candidate on `args` (those within RUNOFF_MARGIN of
        the fastest again, RUNOFF_ROUNDS times, ranked by their mean) and
        keeps the winner for their key, in this process and on disk;
        returns it. The candidates are
        launched on `args` repeatedly: a kernel that reads what it writes
        must be tuned on copies."""
        key = self.key(*args)
        for c in self.candidates():  # before any timing: the first launch would refuse
            if c.kernel is not None and not c.kernel.signature.persistent:
                self._require_grid(c.kernel, c.config)
        timed, started, spent = [], self.clock(), False
        for c in self.candidates():
            c = dataclasses.replace(c)
            if c.kernel is not None and any(t.ms is not None for t in timed) \
                    and self._over_budget(started, sum(t.ms is not None for t in timed)):
                c.skipped, c.kernel, spent = "not timed: the tuning budget ran out", None, True
            if c.kernel is not None:
                try:
                    c.kernel.check(*args, grid=(1, 1, 1))
                except ValueError as e:
                    c.skipped, c.kernel = "refuses the arguments: %s" % e, None
                else:
                    c.ms = self._time(c, args)
            timed.append(c)
        ran = [c for c in timed if c.ms is not None]
        if not ran:
            raise ValueError("ws.autotune: no candidate runs these arguments:\n  "
                             + "\n  ".join(c.describe() for c in timed))
        best = min(ran, key=lambda c: c.ms) if spent else self._runoff(ran, args)
        self.results[key] = timed
        self._chosen[key] = best
        self._store_winner(repr(key), {"config": best.config, "ms": best.ms,
                                      "timed": {config_text(c.config): c.ms for c in ran}})
        return best

    def _over_budget(self, started: float, count: int) -> bool:
        """Whether the tuning budget is spent after `count` members timed
        since `started`: then the members left are not timed, and the
        first ones (the configs' order: the planner's first choice leads a
        family that has one) keep the fastest of what ran."""
        if self.budget_configs is not None and count >= self.budget_configs:
            return True
        return self.budget_s is not None and self.clock() - started >= self.budget_s

    def _runoff(self, ran: List[Candidate], args) -> Candidate:
        """The fastest of `ran`: the ones close to the first figures' best
        timed again in interleaved rounds, the order reversed every other
        round (whichever runs first in a round follows what ran before it,
        which can cost a short kernel several percent), each then at the
        mean of those rounds."""
        first = min(c.ms for c in ran)
        close = [c for c in ran if c.ms <= first * (1 + RUNOFF_MARGIN)]
        if len(close) > 1:
            times = [[] for _ in close]
            for r in range(RUNOFF_ROUNDS):
                pairs = list(zip(close, times))
                for c, t in pairs[::-1] if r % 2 else pairs:
                    t.append(self._time(c, args))
            for c, t in zip(close, times):
                c.ms = sum(t) / len(t)
        return min(close, key=lambda c: c.ms)

    def choose(self, *args) -> Candidate:
        """The winner for the arguments' key: known in this process, read
        from disk, taken from the warm start (the shipped table's winner
        on this GPU), or tuned now."""
        key = self.key(*args)
        best = self._chosen.get(key)
        if best is None:
            stored = self._load_winners().get(repr(key))
            best = next((dataclasses.replace(c, ms=stored["ms"]) for c in self.candidates()
                         if stored and c.kernel and c.config == stored["config"]), None)
            best = self._chosen[key] = best or self._warm(key) or self.tune(*args)
        return best

    def _warm(self, key) -> Optional[Candidate]:
        """The warm start's winner for `key` on this GPU, when it is one of
        the family's members that compiled (a table from another build
        may name one that no longer is): chosen without timing."""
        config = self.warm_start.get(gpu_name(), {}).get(repr(key))
        if config is None:
            return None
        return next((dataclasses.replace(c) for c in self.candidates()
                     if c.kernel and c.config == config), None)

    def winners(self) -> Dict[str, dict]:
        """Every key's winner this machine has tuned and kept on disk:
        repr(key) -> its config, the form a warm start takes."""
        return {key: entry["config"] for key, entry in sorted(self._load_winners().items())}

    def __call__(self, *args, stream=None):
        best = self.choose(*args)
        return self._launch(best.kernel, best.config, args, stream)

    def __repr__(self):
        return "<ws.Autotuned %s over %d configs>" % (self.template, len(self.configs))


def gpu_name() -> str:
    """The GPU a choice is made for (torch's name of the current device),
    or "no-gpu": what the records of winners and a warm start are kept
    under."""
    import torch
    return torch.cuda.get_device_name() if torch.cuda.is_available() else "no-gpu"


def autotune(template, configs: Optional[Sequence[Dict[str, object]]] = None, *,
             kernel: Optional[str] = None, key: Optional[Callable] = None,
             grid: Optional[Callable] = None, bench: Optional[Callable] = None,
             tiles: Optional[Callable] = None, budget_s: Optional[float] = None,
             budget_configs: Optional[int] = None,
             warm_start: Optional[Dict[str, Dict[str, dict]]] = None,
             **compile_options) -> Autotuned:
    """A kernel family tuned per key of its arguments.

    `template` is a ws.Template (or a source ws.Template reads). Each
    config is a dict: its keys that are template fields render the source,
    "kernel" names the module's kernel to run (else `kernel`), the others
    are ws-pipeline options (``num_stages``, ``overlap``,
    ``max_blocks_per_sm``...). Without `configs`, the planner's own choices
    (planner_configs(): each ring depth and overlap) over the template's
    defaults. `kernel` names the kernel when the module has several; `key`
    maps the call's arguments to what the choice depends on (default: each
    tensor's shape and dtype and each integer); `grid` maps (config, *args)
    to the grid of a kernel that is not persistent; a persistent one runs
    on its resident grid, or, when `tiles` maps (config, *args) to the
    number of tiles its tile loop runs, on Kernel.balanced_grid(tiles):
    the fewest blocks that keep the busiest block's tile count. `bench`
    times a no-argument launch in ms (default: the benchmarks'
    triton.testing.do_bench). `budget_s` (seconds of timing per key) and
    `budget_configs` (members timed per key) bound a tuning: the configs are
    timed in order until either is spent (the first one always), the rest
    skipped with that reason and no run-off held, so put the likeliest
    winner first. `warm_start` maps a GPU's name (ws.tune.gpu_name()) to
    {repr(key): config}: a key this machine has not tuned takes that
    winner without timing (the shipped table of torch.ops.ws.matmul;
    Autotuned.winners() gives a machine's own in that form). Other keyword
    arguments go to ws.compile (chip, smem_budget...).
    """
    for name, value in (("budget_s", budget_s), ("budget_configs", budget_configs)):
        if value is not None and not value > 0:
            raise ValueError("ws.autotune: %s must be positive (got %r)" % (name, value))
    if not isinstance(template, Template):
        template = Template(template)
    if configs is None:
        missing = sorted(template.fields - set(template.defaults))
        if missing:
            raise TemplateError("ws.autotune: no configs given, so it tunes the planner's "
                                "choices (ws.planner_configs()) over the template's "
                                "defaults, and %s %s no default; give configs, or "
                                "Template(..., defaults={...})"
                                % (", ".join(missing), "has" if len(missing) == 1 else "have"))
    configs = planner_configs() if configs is None else list(configs)
    if not configs:
        raise ValueError("ws.autotune: configs is empty")
    for c in configs:
        if not isinstance(c, dict):
            raise TypeError("ws.autotune: each config is a dict (got %r)" % (c,))
        fields, rest = template.split(c)
        template.render(fields, unused=rest)  # a TemplateError now, not at the call
    return Autotuned(template, configs, kernel, key or default_key, grid, compile_options,
                     bench or _bench, tiles, budget_s, budget_configs, warm_start=warm_start)

