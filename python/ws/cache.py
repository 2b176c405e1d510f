# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The disk cache of compiled modules.

Where: ``$WS_CACHE_DIR``, else ``~/.cache/ws``. An entry is keyed by the
SHA-256 of the source text, the pipeline options (sorted), the chip, the
linker, the record's format, ws's version and its build identity
(ws.compiler.build_id(): a hash of the compiler's sources, so a rebuilt ws with other code misses
rather than reading the old one's modules; not the file name: a diagnostic read back names
the file of the compile that asked), and holds the module's data as JSON, its PTX and,
when nvJitLink made one, its cubin; or a refusal's diagnostics (a compile
refused once is refused again without compiling). The autotuner's winners
are JSON records in its ``autotune`` folder (load_record, store_record). A warm ``ws.compile`` reads two files
(three with a cubin). ``ws.cache.clear()`` or
``python -m ws cache clear`` empties it.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile


def directory() -> str:
    """The cache's folder (it may not exist yet)."""
    return os.environ.get("WS_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "ws")


def key(*parts: str) -> str:
    """The SHA-256 of the parts, each length-prefixed so that no two lists
    of parts hash alike."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(b"%d:" % len(data))
        h.update(data)
    return h.hexdigest()


def _entry(k: str) -> str:
    return os.path.join(directory(), k[:2], k)


def load(k: str):
    """The entry under key `k`: (its JSON data, its PTX, its cubin or
    None), or None."""
    path = _entry(k)
    try:
        with open(os.path.join(path, "module.json")) as f:
            data = json.load(f)
        with open(os.path.join(path, "module.ptx")) as f:
            ptx = f.read()
        cubin = None
        if data.get("cubin"):
            with open(os.path.join(path, "module.cubin"), "rb") as f:
                cubin = f.read()
    except (OSError, ValueError):
        return None
    return data, ptx, cubin


def store(k: str, data: dict, ptx: str, cubin) -> None:
    """Writes an entry whole or not at all: into a fresh folder, then
    renamed into place (a racing writer's entry is as good)."""
    final = _entry(k)
    if os.path.isdir(final):
        return
    parent = os.path.dirname(final)
    try:
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".tmp-", dir=parent)
        with open(os.path.join(tmp, "module.ptx"), "w") as f:
            f.write(ptx)
        if cubin is not None:
            with open(os.path.join(tmp, "module.cubin"), "wb") as f:
                f.write(cubin)
        with open(os.path.join(tmp, "module.json"), "w") as f:
            json.dump(dict(data, cubin=cubin is not None), f)
        try:
            os.rename(tmp, final)
        except OSError:  # another process stored it first
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        pass  # a cache that cannot be written is no cache, not an error


RECORDS = "autotune"  # the folder of the JSON records below


def _record(name: str) -> str:
    return os.path.join(directory(), RECORDS, name + ".json")


def load_record(name: str):
    """The JSON record `name` (the autotuner's winners of one family), or
    None."""
    try:
        with open(_record(name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def store_record(name: str, data) -> None:
    """Writes record `name` whole: a temporary file renamed into place."""
    path = _record(name)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written is no cache, not an error


def clear() -> int:
    """Removes every entry and record; returns how many modules there
    were."""
    root = directory()
    count = 0
    if not os.path.isdir(root):
        return 0
    for shard in os.listdir(root):
        path = os.path.join(root, shard)
        if not os.path.isdir(path):
            continue
        if shard != RECORDS:
            count += sum(1 for e in os.listdir(path) if not e.startswith("."))
        shutil.rmtree(path, ignore_errors=True)
    return count


def _main(argv) -> int:
    usage = "usage: python -m ws cache clear|dir"
    if argv == ["clear"]:
        print("ws: removed %d cached module(s) from %s" % (clear(), directory()))
        return 0
    if argv == ["dir"]:
        print(directory())
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
