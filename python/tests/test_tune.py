# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernel families (ws.Template) and the autotuner (ws.autotune) without a
GPU: fields and their errors, each config compiled with its own budget
check and proof, refusals and repeats skipped with their reasons, the
winner chosen by the timer and kept on disk."""

import os

import pytest
import torch

import ws
from conftest import ROOT
from test_launch_rules import Fake

FAMILY = os.path.join(ROOT, "python", "ws", "kernels", "matmul.mlir")


def family():
    return ws.Template(FAMILY, defaults={"DTYPE": "f16"})


def test_fields_and_render():
    t = ws.Template("// ${A} ${A * B - 1} ${(A + 1) // 2 % 3} ${-B} ${'f' + 'x'}\n")
    assert t.fields == {"A", "B"}
    assert t.render({"A": 5, "B": 4}) == "// 5 19 0 -4 fx\n"
    assert family().fields == {"BM", "BN", "BK", "DTYPE"}
    # an element type switch: the widening op only where there is one to do
    t = ws.Template("${'arith.extf' if DTYPE != 'f32' else 'arith.bitcast'} ${2 if A < 3 else 4}")
    assert t.render({"DTYPE": "bf16", "A": 1}) == "arith.extf 2"
    assert t.render({"DTYPE": "f32", "A": 3}) == "arith.bitcast 4"


def test_render_errors_are_located():
    t = ws.Template("line one\n  x = ${BM - 1} y = ${f(BM)}\n", filename="fam.mlir")
    with pytest.raises(ws.TemplateError) as e:
        t.render({})
    assert str(e.value) == ("fam.mlir:2:7: field ${BM - 1}: BM has no value (give it in the "
                            "config or the template's defaults)")
    with pytest.raises(ws.TemplateError) as e:
        t.render({"BM": 64})
    assert str(e.value).startswith("fam.mlir:2:21: field ${f(BM)}: only names, integers")
    with pytest.raises(ws.TemplateError, match="only names"):
        ws.Template("${1 < 2 < 3}").render()
    with pytest.raises(ws.TemplateError, match=r"fam.mlir:1:1: field \$\{1 \+\} is not an"):
        ws.Template("${1 +}", filename="fam.mlir").render()
    with pytest.raises(ws.TemplateError, match="holds a newline"):
        ws.Template("${X}").render({"X": "a\nb"})
    with pytest.raises(ws.TemplateError, match="division by zero"):
        ws.Template("${X // 0}").render({"X": 1})
    # a value of the wrong type, compared: located, not a bare TypeError
    with pytest.raises(ws.TemplateError, match=r"fam.mlir:1:4: field \$\{8 if BM >= 128 else 4\}"):
        ws.Template("// ${8 if BM >= 128 else 4}", filename="fam.mlir").render({"BM": "128"})


def test_rendered_kernel_compiles_with_lines_of_the_template():
    module = family().compile({"BM": 128, "BN": 128, "BK": 64}, chip="sm_90a")
    assert module.matmul.signature.persistent and not module.matmul_tiled.signature.persistent
    a = module.matmul.signature.args[0]
    assert (a.dtype, a.box) == ("f16", (128, 64))
    with pytest.raises(ws.CompileError) as e:
        family().compile({"BM": 64, "BN": 256, "BK": 64}, chip="sm_90a")
    d = [d for d in e.value.diagnostics if d.severity == "error"][0]
    assert (d.file, d.line) == (FAMILY, 45) and "wgmma needs 64 or 128" in d.message
    # columns are the template's: an error inside a field's value points at
    # the field and names it, one after a field moves back by what its value
    # changed (line 18: tensor<${BM}x${BK}x${DTYPE}> at column 49)
    with pytest.raises(ws.CompileError) as e:
        family().compile({"BM": 128, "BN": 128, "BK": 64, "DTYPE": "half"}, chip="sm_90a")
    d = [d for d in e.value.diagnostics if d.severity == "error"][0]
    assert (d.line, d.column) == (18, 61)
    assert d.message == "expected non-function type (in ${DTYPE}, rendered as 'half')"
    # ws.compile's own keywords in a config go to it, as options do
    chip = family().compile({"BM": 128, "BN": 128, "BK": 64, "chip": "sm_90a",
                             "use_cache": False})
    assert chip.chip == "sm_90a" and not chip.cached
    template = ws.Template("module {\n  func.func @f(%a: ${T}, %b: i33x) { return }\n}\n",
                           filename="t.mlir")
    for value in ("i32", "tensor<4x4xf32>"):  # the same place whatever T's length
        with pytest.raises(ws.CompileError) as e:
            template.compile({"T": value})
        assert [(d.line, d.column, d.message) for d in e.value.diagnostics] == \
            [(2, 29, "expected non-function type")]


def test_planner_configs():
    configs = ws.planner_configs()
    assert configs[0] == {}
    assert {"num_stages": 5} in configs and {"overlap": "cooperative", "num_stages": 2} in configs
    assert len(configs) == 24 and len({repr(sorted(c.items())) for c in configs}) == 24


def test_candidates_skip_refusals_and_repeats():
    configs = [{"BM": 128, "BN": 128, "BK": 64},
               {"BM": 128, "BN": 128, "BK": 64, "num_stages": 8},   # over the budget
               {"BM": 128, "BN": 128, "BK": 64, "num_stages": 5},   # the planner's own depth
               {"BM": 128, "BN": 256, "BK": 64, "overlap": "pingpong"},  # cannot be had
               {"BM": 128, "BN": 128, "BK": 64, "kernel": "matmul_tiled"}]
    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a")
    c = tuned.candidates()
    assert c[0].kernel is not None and c[0].kernel.name == "matmul"
    assert "shared memory plan needs" in c[1].skipped and c[1].kernel is None
    assert c[1].skipped.startswith(FAMILY + ":")
    assert c[2].skipped == "the same code as {BK=64, BM=128, BN=128}"
    assert 'asks for ws.overlap = "pingpong"' in c[3].skipped
    assert c[4].kernel.name == "matmul_tiled"


def test_a_member_compiles_its_kernel_alone():
    """A config names its kernel, and only that kernel is compiled: an
    overlap the persistent kernel refuses does not skip the tiled member
    (which has no overlap to take), and the member's module holds its
    kernel alone, with the same code as in the whole module."""
    config = {"BM": 128, "BN": 256, "BK": 64, "overlap": "pingpong"}
    tuned = ws.autotune(family(), [dict(config, kernel="matmul_tiled"),
                                   dict(config, kernel="matmul")], chip="sm_90a")
    tiled, persistent = tuned.candidates()
    assert tiled.skipped is None and sorted(tiled.kernel.module.kernels) == ["matmul_tiled"]
    assert 'asks for ws.overlap = "pingpong"' in persistent.skipped
    whole = family().compile({"BM": 128, "BN": 256, "BK": 64}, chip="sm_90a")
    assert sorted(whole.kernels) == ["matmul", "matmul_tiled"]
    assert tiled.kernel.signature == whole.kernels["matmul_tiled"].signature
    with pytest.raises(ValueError, match=r"the family has no kernel 'mm' \(it has matmul, "
                                         r"matmul_tiled; config \{BK=64, BM=128, BN=256, "
                                         r"kernel=mm, overlap=pingpong\}\)"):
        ws.autotune(family(), [dict(config, kernel="mm")], chip="sm_90a").candidates()
    with pytest.raises(ValueError, match=r"no kernel 'matmull' \(it has matmul, matmul_tiled; "
                                         r"did you mean 'matmul'\?; config"):
        ws.autotune(family(), [dict(config, kernel="matmull")], chip="sm_90a").candidates()
    # MLIR's spelling names it too
    named = ws.autotune(family(), [dict(config, kernel="@matmul_tiled")], chip="sm_90a")
    assert named.candidates()[0].kernel.name == "matmul_tiled"


def test_l2_keep_is_a_knob():
    base = {"BM": 128, "BN": 128, "BK": 64}
    tuned = ws.autotune(family(), [base, dict(base, l2_keep="a"), dict(base, l2_keep="b"),
                                   dict(base, l2_keep="c")], kernel="matmul", chip="sm_90a")
    plain, keep_a, keep_b, bad = tuned.candidates()
    assert "L2::cache_hint" not in plain.kernel.module.ptx
    for c in (keep_a, keep_b):  # a kernel of its own (alone in its module): A's and B's
        # loads carry a policy
        assert c.skipped is None and c.kernel.module.ptx.count("L2::cache_hint") == 2
    assert keep_a.kernel.module.ptx != keep_b.kernel.module.ptx
    assert "option 'l2_keep' takes \"\", a or b, got 'c'" in bad.skipped


def test_store_boxes_is_a_knob():
    base = {"BM": 128, "BN": 256, "BK": 64}
    tuned = ws.autotune(family(), [base, dict(base, store_boxes=True),
                                   dict(base, store_boxes="maybe")],
                        kernel="matmul_tiled", chip="sm_90a")
    whole, boxes, bad = tuned.candidates()
    assert whole.skipped is None and boxes.skipped is None
    # a kernel of its own: its C tile goes to the store warp in four boxes,
    # each published on a barrier of its own, each stored from its own slot
    entry = boxes.kernel.module.ptx[boxes.kernel.module.ptx.index(".entry matmul_tiled"):]
    plain = whole.kernel.module.ptx[whole.kernel.module.ptx.index(".entry matmul_tiled"):]
    assert entry.count("fence.proxy.async.shared::cta") == 4
    assert plain.count("fence.proxy.async.shared::cta") == 1
    assert entry.count("cp.async.bulk.commit_group") == 4
    assert boxes.kernel.signature.shared_memory_bytes == whole.kernel.signature.shared_memory_bytes + 48
    assert "option 'store_boxes' takes true or false (or 1 or 0), got 'maybe'" in bad.skipped


def test_every_shipped_matmul_config_is_a_kernel_of_its_own():
    from ws.families import MATMUL_CONFIGS
    tuned = ws.autotune(family(), MATMUL_CONFIGS, chip="sm_90a")
    assert [c.skipped for c in tuned.candidates()] == [None] * len(MATMUL_CONFIGS)
    assert tuned.candidates()[0].describe() == "{BK=64, BM=128, BN=256, kernel=matmul}: " \
        "compiled, not timed"


def test_bad_configs_are_refused_at_once():
    with pytest.raises(ws.TemplateError, match="BK has no value"):
        ws.autotune(family(), [{"BM": 128, "BN": 128}])
    with pytest.raises(ValueError, match="configs is empty"):
        ws.autotune(family(), [])
    with pytest.raises(ValueError, match="the family has kernels matmul, matmul_tiled"):
        ws.autotune(family(), [{"BM": 128, "BN": 128, "BK": 64}], chip="sm_90a").candidates()
    # a misspelt field (or option) is neither: ws saw it as an option and
    # refused it; the error names the template's fields and the options
    # the closest of the fields and the options is named
    for key, close in (("BKK", "BK"), ("num_stage", "num_stages")):
        with pytest.raises(ws.TemplateError) as e:
            ws.autotune(family(), [{"BM": 128, "BN": 128, "BK": 64, key: 4}],
                        kernel="matmul", chip="sm_90a").candidates()
        assert str(e.value) == (
            "%s: config key '%s' is neither a field of the template (BK, BM, BN, DTYPE) nor a "
            "ws-pipeline option; did you mean '%s'? (the options: smem_budget, "
            "tmem_budget, max_blocks_per_sm, cuda_path, check_protocol, num_stages, overlap, l2_keep, "
            "store_boxes, split_k, kernel)" % (FAMILY, key, close))
    # a misspelt field whose real name then has no value says where it went
    with pytest.raises(ws.TemplateError,
                       match=r"field \$\{BK\}: BK has no value .*; the config's 'BKK', not a "
                             r"field of the template \(its fields: BK, BM, BN, DTYPE\), would go "
                             r"to the pipeline as an option"):
        ws.autotune(family(), [{"BM": 128, "BN": 128, "BKK": 64, "kernel": "matmul"}])
    # no configs: the planner's choices over the defaults, which must cover every field
    with pytest.raises(ws.TemplateError, match="no configs given, .* BK, BM, BN have no "
                                               "default; give configs"):
        ws.autotune(family())


def matmul_args(m, n, k):
    return (Fake((m, k), dtype=torch.float16), Fake((n, k), dtype=torch.float16),
            Fake((m, n), dtype=torch.float16), m, n, k)


def test_a_kernel_that_needs_a_grid_is_refused_before_any_timing():
    timed = []
    tuned = ws.autotune(family(), [{"BM": 128, "BN": 128, "BK": 64}], kernel="matmul_tiled",
                        chip="sm_90a", bench=lambda launch: timed.append(1) or 1.0)
    with pytest.raises(ValueError, match=r"kernel matmul_tiled \(\{BK=64, BM=128, BN=128\}\) "
                                         r"is not persistent; give grid="):
        tuned.tune(*matmul_args(256, 512, 512))
    assert timed == []


def test_tune_keeps_the_fastest_per_key_on_disk():
    configs = [{"BM": 128, "BN": 128, "BK": 64}, {"BM": 128, "BN": 256, "BK": 64},
               {"BM": 128, "BN": 256, "BK": 64, "num_stages": 8}]
    # a timer that ranks the configs by the shape: 128 wide wins at M = 256
    def bench_for(log):
        def bench(launch):
            launch()
            bn = log["config"]["BN"]
            log["timed"].append(bn)
            m = log["m"]
            return {128: 1.0, 256: 2.0}[bn] if m == 256 else {128: 2.0, 256: 1.0}[bn]
        return bench

    log = {"timed": []}
    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a",
                        bench=bench_for(log))
    # no GPU: the launch the tuner hands the timer records its config
    tuned._launch = lambda kernel, config, args, stream=None: log.update(config=config)
    for m, want in ((256, 128), (4096, 256)):
        log["m"] = m
        args = matmul_args(m, 8192, 8192)
        best = tuned.tune(*args)
        assert best.config["BN"] == want
    assert sorted(log["timed"]) == [128, 128, 256, 256]  # the refused one never ran
    timed = tuned.results[ws.tune.default_key(*matmul_args(256, 8192, 8192))]
    assert "shared memory plan needs" in timed[2].skipped

    # a new process (a new Autotuned) reads the winners back without timing
    again = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a",
                        bench=lambda launch: pytest.fail("timed again"))
    assert again.choose(*matmul_args(256, 8192, 8192)).config["BN"] == 128
    assert again.choose(*matmul_args(4096, 8192, 8192)).config["BN"] == 256
    assert os.listdir(os.path.join(os.environ["WS_CACHE_DIR"], "autotune"))


def test_close_candidates_are_timed_again():
    """A member that looked fastest once by a hair loses the run-off to
    one that is faster every time after."""
    configs = [{"BM": 128, "BN": 128, "BK": 64}, {"BM": 128, "BN": 256, "BK": 64},
               {"BM": 256, "BN": 128, "BK": 64}]
    first = {128: 1.00, 256: 1.01}  # BM 256 is far behind: not in the run-off
    later = {128: 1.05, 256: 1.00}
    log = {"counts": {}}

    def bench(launch):
        launch()
        c = log["config"]
        n = log["counts"][(c["BM"], c["BN"])] = log["counts"].get((c["BM"], c["BN"]), 0) + 1
        if c["BM"] == 256:
            return 2.0
        return (first if n == 1 else later)[c["BN"]]

    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", bench=bench)
    tuned._launch = lambda kernel, config, args, stream=None: log.update(config=config)
    best = tuned.tune(*matmul_args(4096, 4096, 4096))
    assert best.config["BN"] == 256 and best.ms == 1.00
    rounds = 1 + ws.tune.RUNOFF_ROUNDS
    assert log["counts"] == {(128, 128): rounds, (128, 256): rounds, (256, 128): 1}


def test_a_member_whose_speed_swings_loses_the_runoff():
    """A member fastest at first and in every other run-off round (the
    median of all its figures the best) loses to one steady a hair behind:
    the run-off ranks by the mean of its own rounds, the selecting figure
    left out."""
    configs = [{"BM": 128, "BN": 128, "BK": 64}, {"BM": 128, "BN": 256, "BK": 64}]
    log = {"counts": {}}

    def bench(launch):
        launch()
        bn = log["config"]["BN"]
        n = log["counts"][bn] = log["counts"].get(bn, 0) + 1
        if bn == 128:
            return 1.00
        return 0.98 if n % 2 else 1.10  # 0.98 first, then 1.10 and 0.98 in turn

    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", bench=bench)
    tuned._launch = lambda kernel, config, args, stream=None: log.update(config=config)
    best = tuned.tune(*matmul_args(4096, 4096, 4096))
    assert best.config["BN"] == 128 and best.ms == pytest.approx(1.00)
    swinging = next(c for c in tuned.results[tuned.key(*matmul_args(4096, 4096, 4096))]
                    if c.config["BN"] == 256)
    assert swinging.ms == pytest.approx(1.04)  # (5 x 1.10 + 5 x 0.98) / 10: RUNOFF_ROUNDS


def test_arguments_a_candidate_refuses():
    configs = [{"BM": 128, "BN": 128, "BK": 64}, {"BM": 128, "BN": 256, "BK": 64}]
    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a",
                        bench=lambda launch: 1.0)
    tuned._launch = lambda *a, **kw: None
    bad = (Fake((256, 64), dtype=torch.bfloat16),) + matmul_args(256, 256, 64)[1:]
    with pytest.raises(ValueError) as e:
        tuned.tune(*bad)
    assert "no candidate runs these arguments" in str(e.value)
    assert "refuses the arguments: matmul: arg0 (%a): element type must be f16 (got bf16)" \
        in str(e.value)


def test_balanced_blocks():
    from ws.launch import balanced_blocks
    # 512 tiles on 132 SMs: 4 rounds either way, 128 blocks of 4 instead
    # of 116 of 4 and 16 of 3
    assert balanced_blocks(512, 132) == 128
    assert balanced_blocks(2048, 132) == 128  # 16 rounds
    assert balanced_blocks(133, 132) == 67    # 2 rounds: 66 blocks of 2 and 1 of 1
    assert balanced_blocks(132, 132) == 132 and balanced_blocks(100, 132) == 100
    assert balanced_blocks(1, 132) == 1
    assert balanced_blocks(0, 132) == 1 and balanced_blocks(0, 132, cluster=2) == 2
    # a cluster kernel's loop runs over clusters: its rounds are counted
    # in clusters (66 of 2 on 132 SMs), its grid whole clusters
    assert balanced_blocks(50, 132, cluster=2) == 100   # 1 round: 50 clusters
    assert balanced_blocks(133, 132, cluster=2) == 90   # 3 rounds: 45 clusters
    assert balanced_blocks(264, 132, cluster=2) == 132  # 4 rounds of 66
    assert balanced_blocks(100, 132, cluster=4) == 100  # 33 resident: 4 rounds of 25
    for tiles in range(1, 600):
        for resident, cluster in ((132, 1), (132, 2), (132, 4), (66, 1), (7, 1)):
            blocks = balanced_blocks(tiles, resident, cluster)
            assert blocks <= resident and blocks % cluster == 0
            # the busiest block (or cluster) runs as many iterations as on
            # the resident grid, and no fewer blocks would
            units, resident_units = blocks // cluster, resident // cluster
            assert -(-tiles // units) == -(-tiles // resident_units)
            assert units == 1 or -(-tiles // (units - 1)) > -(-tiles // resident_units)


def test_a_persistent_member_runs_on_its_balanced_grid():
    """With tiles=, the tuner launches a persistent member on
    Kernel.balanced_grid(tiles); without, on the resident grid (grid None);
    a split-K member always on the resident one."""
    configs = [{"BM": 128, "BN": 256, "BK": 64},
               {"BM": 128, "BN": 256, "BK": 64, "split_k": "stream"}]
    launches = []

    def counting(config, a, b, c, m, n, k):
        return -(-m // config["BM"]) * -(-n // config["BN"])
    for tiles in (None, counting):
        tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", tiles=tiles)
        for cand in tuned.candidates():
            kernel = cand.kernel
            kernel.resident_grid = lambda: 132  # no GPU: the H200's SMs
            kernel.launch = lambda grid, *args, stream=None, k=kernel: launches.append(
                (tiles is not None, bool(k.signature.workspace_per_block), grid))
            tuned._launch(kernel, cand.config, matmul_args(4096, 4096, 4096))
    assert launches == [(False, False, None), (False, True, None),
                        (True, False, 128), (True, True, 132)]


def test_default_key():
    key = ws.tune.default_key(torch.zeros(2, 3, dtype=torch.float16), 7, 1.5, None)
    assert key == (((2, 3), "torch.float16"), 7, "float", "NoneType")


def test_torch_ops_need_a_recent_torch():
    if hasattr(torch.library, "custom_op"):
        import ws.torch_ops  # registers; its launches are test_gpu.py's
        assert torch.ops.ws.matmul.default is not None
        fake = torch.ops.ws.matmul(torch.empty(3, 8, device="meta", dtype=torch.float16),
                                   torch.empty(5, 8, device="meta", dtype=torch.float16))
        assert fake.shape == (3, 5)
    else:
        with pytest.raises(ImportError, match="needs torch.library.register_fake"):
            import ws.torch_ops  # noqa: F401


def test_a_line_condition_keeps_or_empties_its_line():
    family = ws.Template("a\n${?X and not Y}  keep ${Z}\n  ${?X or Y} %v = ${Z + 1}\nb\n",
                         filename="f.mlir")
    assert family.render({"X": 1, "Y": 0, "Z": 7}) == "a\n  keep 7\n   %v = 8\nb\n"
    # a false condition empties its line (its lines keep their numbers), and
    # its other fields are not evaluated: Z needs no value there
    assert family.render({"X": 0, "Y": 0}) == "a\n\n\nb\n"
    with pytest.raises(ws.TemplateError, match=r"f.mlir:1:3: field \$\{\?X\} is not an "
                                               "expression that begins its line"):
        ws.Template("a ${?X} b\n", filename="f.mlir").render({"X": 1})


def test_a_field_joins_a_string_and_an_integer():
    family = ws.Template('x : tensor<128x${BN}xf32> ${"%t" + BN if BN > 64 else "%u"}\n',
                         filename="f.mlir")
    assert family.render({"BN": 128}) == "x : tensor<128x128xf32> %t128\n"
    assert family.render({"BN": 64}) == "x : tensor<128x64xf32> %u\n"


def test_a_budget_bounds_the_tuning_and_keeps_the_first_choice():
    """Members are timed in order until the budget is spent; the ones left
    are skipped with that reason and no run-off is held."""
    configs = [{"BM": 128, "BN": 256, "BK": 64}, {"BM": 128, "BN": 128, "BK": 64},
               {"BM": 256, "BN": 128, "BK": 64}]
    figures = {(128, 256): 1.00, (128, 128): 0.99, (256, 128): 0.5}
    for budget, timed_count, want in ((dict(budget_configs=1), 1, 256),
                                      (dict(budget_configs=2), 2, 128),
                                      (dict(budget_s=10.0), 2, 128)):
        log, now, log_config = [], [0.0], [None]

        def bench(launch):
            launch()
            now[0] += 6.0  # each figure takes 6 s of the clock
            log.append(log_config[0])
            return figures[(log_config[0]["BM"], log_config[0]["BN"])]

        tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", bench=bench,
                            **budget)
        tuned.clock = lambda: now[0]  # no GPU: a clock that the timer moves
        tuned._launch = lambda kernel, config, args, stream=None: log_config.__setitem__(0, config)
        best = tuned.tune(*matmul_args(512, 4096, 4096))
        assert best.config["BN"] == want and len(log) == timed_count  # no run-off rounds
        results = tuned.results[ws.tune.default_key(*matmul_args(512, 4096, 4096))]
        assert [c.skipped for c in results[timed_count:]] == \
            ["not timed: the tuning budget ran out"] * (3 - timed_count)
    with pytest.raises(ValueError, match="budget_s must be positive"):
        ws.autotune(family(), configs, kernel="matmul", budget_s=0)


def test_matmul_buckets_and_the_budget_knobs():
    from ws.families import m_bucket, matmul_key, tuning_budget
    assert [m_bucket(m) for m in (1, 128, 129, 256, 257, 1000, 8192, 8193)] == \
        [128, 128, 256, 256, 512, 1024, 8192, 16384]
    a = torch.empty(0, dtype=torch.float16)
    # a new batch size within a bucket is the same key: no new tuning
    assert matmul_key(a, a, a, 4 * 2048, 4096, 4096) == matmul_key(a, a, a, 7000, 4096, 4096)
    assert matmul_key(a, a, a, 300, 4096, 4096) != matmul_key(a, a, a, 600, 4096, 4096)
    assert tuning_budget({}) == (None, None)
    assert tuning_budget({"WS_TUNE_BUDGET": "2.5", "WS_TUNE_CONFIGS": "4"}) == (2.5, 4)
    for env, name in (({"WS_TUNE_BUDGET": "0"}, "WS_TUNE_BUDGET"),
                      ({"WS_TUNE_CONFIGS": "x"}, "WS_TUNE_CONFIGS")):
        with pytest.raises(ValueError, match=name + " must be a positive"):
            tuning_budget(env)


def test_a_warm_start_picks_the_tables_winner_without_timing(monkeypatch, tmp_path):
    """A key this machine has not tuned takes the warm start's winner for
    its GPU (a member that compiled), untimed and not written to disk; a
    key or a GPU the table lacks is tuned; winners() gives a machine's own
    in the table's form, and the table merges them per GPU."""
    from ws import tuning_table
    configs = [{"BM": 128, "BN": 128, "BK": 64}, {"BM": 128, "BN": 256, "BK": 64}]
    key = repr(ws.tune.default_key(*matmul_args(256, 8192, 8192)))
    monkeypatch.setattr(ws.tune, "gpu_name", lambda: "NVIDIA H200")
    warm = {"NVIDIA H200": {key: configs[1]}, "NVIDIA H100": {key: configs[0]}}
    timed = []
    tuned = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", warm_start=warm,
                        bench=lambda launch: timed.append(1) or 1.0)
    tuned._launch = lambda kernel, config, args, stream=None: None
    assert tuned.choose(*matmul_args(256, 8192, 8192)).config == configs[1]
    assert timed == [] and tuned.winners() == {}
    tuned.choose(*matmul_args(4096, 8192, 8192))  # not in the table: tuned
    assert len(timed) >= 2 and list(tuned.winners()) == [
        repr(ws.tune.default_key(*matmul_args(4096, 8192, 8192)))]
    monkeypatch.setattr(ws.tune, "gpu_name", lambda: "another GPU")
    other = ws.autotune(family(), configs, kernel="matmul", chip="sm_90a", warm_start=warm,
                        bench=lambda launch: 1.0)
    other._launch = lambda kernel, config, args, stream=None: None
    assert other._warm(ws.tune.default_key(*matmul_args(256, 8192, 8192))) is None
    path = str(tmp_path / "table.json")
    tuning_table.merge(path, "NVIDIA H200", {key: configs[1]})
    tuning_table.merge(path, "NVIDIA H100", {key: configs[0]})
    assert tuning_table.load(path) == warm
    assert tuning_table.load(str(tmp_path / "none.json")) == {}


def test_the_shipped_table_loads_and_names_its_shapes():
    from ws import tuning_table
    assert isinstance(tuning_table.load(), dict)  # the package's own file
    assert (2048, 2048) in tuning_table.linear_shapes(2048)
    assert (4096, 14336) in tuning_table.linear_shapes(4096)
