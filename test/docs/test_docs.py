# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The documents' code blocks, run as a reader would run them.

Every fenced block of README.md, CONTRIBUTING.md and docs/**/*.md is a test
case named FILE:LINE. A block runs in a scratch folder of its document
(blocks of one document run in order, in the same folder), in which the
checkout's top-level entries are symlinked, so that `build/bin/ws-opt` and
`integration/add.mlir` resolve and what a block writes stays out of the
checkout. By its info string:

  sh       run with bash -euo pipefail; the package's venv and build/bin
           first on PATH (ws-opt as an installed ws has it)
  python   run with the package's venv python
  mlir     a kernel is compiled, `ws-opt --emit=ptx`: a block holding a
           gpu.module, or a whole gpu.func (put in an sm_90a gpu.module);
           a block that elides with `...`, or holds no gpu.func, is an
           excerpt and only listed
  others   (c, cmake, text, output) excerpts, only listed

A comment on the line before the fence changes that:

  <!-- doc-test: skip REASON -->  not run here, for the reason given
  <!-- doc-test: gpu -->          needs a GPU: skipped ("skipped: no GPU")
  <!-- doc-test: file NAME -->    written to NAME in the scratch folder (a
                                  kernel is compiled too)
  <!-- doc-test: excerpt -->      an outline or a piece of a kernel: listed
  <!-- doc-test: error -->        an mlir block ws must refuse with an error

Beside the blocks: every relative link of a document names a file of the
checkout, and every repository path integration/RESULTS.md cites exists.

Run from the top of the checkout with the package installed (tools/ws-dev
test does): build/venv/bin/python -m pytest test/docs"""
import os
import re
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WS_OPT = os.environ.get("WS_OPT", os.path.join(ROOT, "build", "bin", "ws-opt"))
TIMEOUT = 300
MARK = re.compile(r"^\s*<!--\s*doc-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)")


def documents():
    docs = [f for f in ("README.md", "CONTRIBUTING.md") if os.path.exists(os.path.join(ROOT, f))]
    for top, dirs, files in os.walk(os.path.join(ROOT, "docs")):
        dirs.sort()
        docs += sorted(os.path.relpath(os.path.join(top, f), ROOT) for f in files if f.endswith(".md"))
    return docs


def blocks(doc):
    """(line, language, mark, argument, text) of each fenced block of doc."""
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        lines = f.read().splitlines()
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group(1), m.group(2), m.group(3).lower()
        prev = i - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        mark = MARK.match(lines[prev]) if prev >= 0 else None
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            line = lines[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        found.append((i + 1, lang, mark.group(1) if mark else "", mark.group(2) if mark else "",
                      "\n".join(body) + "\n"))
        i = j + 1
    return found


CASES = [(doc,) + b for doc in documents() for b in blocks(doc)]
_scratch = {}


def scratch(doc):
    """The scratch folder of a document, with the checkout's entries in it."""
    if doc not in _scratch:
        d = tempfile.mkdtemp(prefix="ws-doc-")
        for entry in os.listdir(ROOT):
            if entry != ".git":
                os.symlink(os.path.join(ROOT, entry), os.path.join(d, entry))
        _scratch[doc] = d
    return _scratch[doc]


def environment():
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.path.dirname(WS_OPT),
                                   env.get("PATH", "")])
    env.setdefault("WS_CACHE_DIR", os.path.join(tempfile.gettempdir(), "ws-doc-cache"))
    return env


def run(argv, cwd, stdin=None):
    return subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, env=environment())


KERNEL_MODULE = """module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
%s  }
}
"""


def has_gpu():
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False


def report(r):
    return "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (r.returncode, r.stdout[-4000:],
                                                        r.stderr[-4000:])


@pytest.mark.parametrize("doc,line,lang,mark,arg,text", CASES,
                         ids=["%s:%d" % (c[0], c[1]) for c in CASES])
def test_block(doc, line, lang, mark, arg, text):
    cwd = scratch(doc)
    if mark == "skip":
        pytest.skip("skipped: " + (arg or "marked skip"))
    if mark == "gpu" and not has_gpu():
        pytest.skip("skipped: no GPU")
    if mark == "excerpt":
        return
    if mark == "file":
        path = os.path.join(cwd, arg)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        if lang != "mlir":
            return
    elif mark and mark not in ("gpu", "error"):
        pytest.fail("%s:%d: unknown doc-test mark %r" % (doc, line, mark))
    if lang in ("sh", "bash", "shell"):
        r = run(["bash", "-euo", "pipefail", "-c", text], cwd)
        assert r.returncode == 0, "%s:%d: the shell block failed\n%s" % (doc, line, report(r))
    elif lang == "python":
        r = run([sys.executable, "-c", text], cwd)
        assert r.returncode == 0, "%s:%d: the python block failed\n%s" % (doc, line, report(r))
    elif lang == "mlir" and "gpu.func" in text and "..." not in text:
        if mark != "file":
            path = os.path.join(cwd, "doc-%d.mlir" % line)
            with open(path, "w") as f:
                f.write(text if "gpu.module" in text else KERNEL_MODULE % text)
        r = run([WS_OPT, path, "--emit=ptx", "-o", os.devnull], cwd)
        if mark == "error":
            assert r.returncode != 0 and "error:" in r.stderr, \
                "%s:%d: ws accepted a block marked error\n%s" % (doc, line, report(r))
        else:
            assert r.returncode == 0, "%s:%d: ws-opt refused the kernel\n%s" % (doc, line, report(r))
    else:
        assert mark != "error", "%s:%d: only an mlir kernel can be marked error" % (doc, line)


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


@pytest.mark.parametrize("doc", documents() + ["integration/RESULTS.md", "CHANGELOG.md"])
def test_links(doc):
    """Every relative link names a file or folder of the checkout."""
    path = os.path.join(ROOT, doc)
    if not os.path.exists(path):
        pytest.skip("skipped: %s does not exist" % doc)
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code is not a link
    text = re.sub(r"`[^`\n]*`", "", text)
    missing = [t for t, _ in LINK.findall(text) if not re.match(r"[a-z]+:", t)
               and not os.path.exists(os.path.join(os.path.dirname(path), t))]
    assert not missing, "%s links to missing files: %s" % (doc, ", ".join(missing))


PATH = re.compile(r"`((?:integration|python|tools|test|passes|capi|dialect|docs|cmake)/[\w./-]+)")


def test_results_paths():
    """RESULTS.md's commands and files are in the repository."""
    text = open(os.path.join(ROOT, "integration", "RESULTS.md"), encoding="utf-8").read()
    missing = sorted({p.rstrip(".") for p in PATH.findall(text)
                      if not os.path.exists(os.path.join(ROOT, p.rstrip(".")))})
    assert not missing, "integration/RESULTS.md names paths not in the repository: %s" % missing
