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


def _needs_parser(command: str):
    import argparse
    parser = argparse.ArgumentParser(
        prog="python -m ws cache " + command,
        description="%s the kernels torch.ops.ws needs for a model: the matmul family's "
                    "members and the attention members of its head dimensions and masks"
                    % ("List, without compiling," if command == "check" else "Compile"))
    parser.add_argument("--dtype", action="append", choices=("f16", "bf16"),
                        help="an element type (repeatable; default both)")
    parser.add_argument("--head-dim", action="append", type=int, default=[],
                        help="an attention head dimension: 64, 128 or 256 (repeatable; "
                             "default none: no attention)")
    parser.add_argument("--mask", choices=("causal", "full", "both"), default="both",
                        help="the attention masks (default both)")
    parser.add_argument("--softcap", action="store_true", help="attention with a soft cap")
    parser.add_argument("--padded", action="store_true",
                        help="padded batches too (kv_start/kv_end, or a top-left causal "
                             "mask with more queries than keys)")
    parser.add_argument("--packed", action="store_true",
                        help="packed batches too (seq_start: several causal sequences a "
                             "row, as transformers packs them by position_ids)")
    parser.add_argument("--lse", action="store_true",
                        help="the attention members that store the log-sum-exp too "
                             "(torch.ops.ws.attention_lse)")
    parser.add_argument("--backward", action="store_true",
                        help="training as well: the log-sum-exp forward and attention's "
                             "backward (torch.ops.ws.attention_bwd)")
    parser.add_argument("--no-matmul", action="store_true", help="no matmul family")
    parser.add_argument("--missing", action="store_true",
                        help="list only what is missing (check)")
    return parser


def _needs(args):
    from .families import needed_kernels
    causal = {"causal": (True,), "full": (False,), "both": (False, True)}[args.mask]
    return needed_kernels(tuple(args.dtype or ("f16", "bf16")), tuple(args.head_dim), causal,
                          args.softcap, args.padded, not args.no_matmul, args.lse,
                          args.backward, args.packed)


def check_needs(needs):
    """(need, cached) for each of `needs` (ws.families.needed_kernels),
    compiling nothing."""
    return [(n, n.cached()) for n in needs]


def _main(argv) -> int:
    usage = "usage: python -m ws cache clear|dir|check|fill [options] (check --help)"
    if argv == ["clear"]:
        print("ws: removed %d cached module(s) from %s" % (clear(), directory()))
        return 0
    if argv == ["dir"]:
        print(directory())
        return 0
    if argv and argv[0] in ("check", "fill"):
        try:
            args = _needs_parser(argv[0]).parse_args(argv[1:])
            status = check_needs(_needs(args))
        except ValueError as e:
            print("ws: %s" % e, file=sys.stderr)
            return 2
        missing = [n for n, here in status if not here]
        if argv[0] == "check":
            for n, here in status:
                if not here or not args.missing:
                    print("%-8s %s" % ("cached" if here else "missing", n))
            print("ws: %d of %d kernels cached in %s, %d missing%s"
                  % (len(status) - len(missing), len(status), directory(), len(missing),
                     " (python -m ws cache fill with the same options compiles them)"
                     if missing else ""))
            return 1 if missing else 0
        for i, n in enumerate(missing):
            n.compile()
            print("compiled (%d/%d) %s" % (i + 1, len(missing), n), flush=True)
        print("ws: %d kernels compiled, %d were cached, in %s"
              % (len(missing), len(status) - len(missing), directory()))
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
