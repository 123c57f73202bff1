"""Crash safety as a test: `scent index` itself (a real process, the CLI) killed with SIGKILL at
random moments, on both engines; a full disk; a read-only index folder.

After each kill the index opens, answers, passes PRAGMA integrity_check (and FTS5's own check),
holds for each file exactly the units an uninterrupted run gives it, and the next run ends with
exactly the units of a clean build (unit ids and texts compared). The fake embedder, a little slow,
stands in for the model so that a run lasts long enough to be killed anywhere in it.

The full disk is a size-limited tmpfs where this test may mount one (root in a container that
allows it; SCENT_CRASH_NO_MOUNT=1 forbids it), else RLIMIT_FSIZE on the indexing process; the read-only folder is that tmpfs remounted
read-only, else (not root) a folder without write permission. Each test says which it used (-s).
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import FakeEmbedder
from scent import Index, Settings
from test_robustness import COMMON, N_FILES, check_consistent, write_corpus

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src"
SEED = int(os.environ.get("SCENT_CRASH_SEED", "1207"))

# `scent index` (scent.cli.main) with conftest's fake embedder made slower per text (same model id).
CHILD = r'''
import os, resource, signal, sys, time
sys.path.insert(0, os.environ["SCENT_TESTS"])
import scent.index
from conftest import FakeEmbedder

class Slow(FakeEmbedder):
    def embed_passages(self, texts):
        time.sleep(float(os.environ.get("SCENT_DELAY", "0.004")) * len(texts))
        return super().embed_passages(texts)

scent.index.E5Embedder = Slow
if os.environ.get("SCENT_CRASH_ON"):  # a reader that dies of a fault (SIGSEGV) on a file holding these words
    import scent.extract

    def crashing(path, limits, real=scent.extract.EXTRACTORS["text"]):
        if os.environ["SCENT_CRASH_ON"] in open(path, encoding="utf-8", errors="replace").read():
            os.kill(os.getpid(), signal.SIGSEGV)
        return real(path, limits)

    scent.extract.EXTRACTORS["text"] = crashing
if os.environ.get("SCENT_FSIZE"):  # a full disk without mounting one: writes past this fail (EFBIG)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    n = int(os.environ["SCENT_FSIZE"])
    resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
sys.argv = ["scent", *sys.argv[1:]]
from scent.cli import main
main()
'''


@pytest.fixture
def scent_index(tmp_path):
    child = tmp_path / "scent_index_child.py"
    child.write_text(CHILD)

    def start(folder: Path, index_dir: Path, *extra: str, delay: float = 0.004, env: dict | None = None) -> subprocess.Popen:
        environ = {**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_DELAY": str(delay),
                   "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]), **(env or {})}
        return subprocess.Popen([sys.executable, str(child), "index", str(folder), "--index", str(index_dir), "-q",
                                 *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ)
    return start


def units_of(db_path: Path) -> dict[str, list[tuple[int, str]]]:
    """path -> [(unit id, text)] in place order."""
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        db.execute("SELECT 1 FROM files LIMIT 1")
    except sqlite3.OperationalError:  # on a read-only mount, where not even the -shm file can be made
        db = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        out = {p: [] for (p,) in db.execute("SELECT path FROM files")}
        for path, uid, text in db.execute("SELECT f.path, u.id, u.text FROM units u JOIN files f ON f.id = u.file_id "
                                          "ORDER BY f.path, u.place"):
            out[path].append((uid, text))
    finally:
        db.close()
    return out


def clean_build(folder: Path, tmp_path: Path, settings: Settings, db_name: str) -> dict:
    ref = tmp_path / f"clean-{time.monotonic_ns()}"
    if settings.backend == "qdrant":
        settings = settings.with_values(qdrant_path=str(ref / "qdrant"))
    with Index(folder, index_dir=ref, embedder=FakeEmbedder(), settings=settings) as idx:
        idx.update()
    return units_of(ref / db_name)


def edit(folder: Path, rng: random.Random, round_no: int) -> None:
    """Give the next run deletions, renames and edits to be killed in, too."""
    logs = sorted(folder.rglob("log*.md"))
    victim = rng.choice(logs)
    choice = round_no % 3
    if choice == 0:
        victim.unlink()
    elif choice == 1:
        victim.rename(victim.with_name(f"renamed-{round_no}-{victim.name}"))
    else:
        victim.write_text(f"# Edited {round_no}\n\nA {COMMON} came back in round {round_no}.\n")
    (folder / "d1" / f"new{round_no:02d}.md").write_text(f"# New {round_no}\n\n{COMMON} fledgling {round_no}.\n")


def kill_rounds(folder: Path, index_dir: Path, tmp_path: Path, scent_index, kills: int, extra: tuple[str, ...],
                settings: Settings, db_name: str, check) -> tuple[int, int]:
    """Kill `scent index` `kills` times at random moments; returns (kills survived, kills made)."""
    rng = random.Random(SEED + kills)
    # How long a whole run takes here (start-up included): kills land anywhere in it.
    t = time.perf_counter()
    probe = scent_index(folder, tmp_path / "probe", *probe_args(extra, tmp_path))
    assert probe.wait(timeout=300) == 0, probe.stderr.read()
    whole = time.perf_counter() - t
    made = survived = 0
    for round_no in range(kills):
        if round_no and round_no % 4 == 0:
            edit(folder, rng, round_no)
        proc = scent_index(folder, index_dir, *extra)
        time.sleep(rng.uniform(0.0, whole))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
        made += 1
        check(index_dir)
        survived += 1
    # A plain run finishes the job; the result is exactly a clean build's.
    proc = scent_index(folder, index_dir, *extra)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    got, want = units_of(index_dir / db_name), clean_build(folder, tmp_path, settings, db_name)
    assert {p: [t for _, t in u] for p, u in got.items()} == {p: [t for _, t in u] for p, u in want.items()}
    # Unit ids too, but for renamed files: a rename keeps the file's key, so its units keep their ids
    # (nothing is embedded again), where a clean build keys the file by its new path.
    kept = {p for p in got if Path(p).name.startswith("renamed-")}
    assert {p: u for p, u in got.items() if p not in kept} == {p: u for p, u in want.items() if p not in kept}
    ids = [uid for u in got.values() for uid, _ in u]
    assert len(ids) == len(set(ids))
    return survived, made


def probe_args(extra: tuple[str, ...], tmp_path: Path) -> tuple[str, ...]:
    return tuple(str(tmp_path / "probe" / "qdrant") if a.endswith("/qdrant") else a for a in extra)


def sqlite_kills(tmp_path, scent_index, kills: int) -> None:
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    fake = FakeEmbedder()

    def check(d: Path) -> None:
        if (d / "index.db").exists():
            check_consistent(d, folder, tmp_path, fake)

    survived, made = kill_rounds(folder, index_dir, tmp_path, scent_index, kills, (), Settings(), "index.db", check)
    print(f"\nsqlite: {survived}/{made} kills survived (seed {SEED + kills})")
    assert survived == made == kills


def test_sigkill_scent_index_at_random_moments(tmp_path, scent_index):
    sqlite_kills(tmp_path, scent_index, 4)


@pytest.mark.slow
def test_sigkill_scent_index_24_times(tmp_path, scent_index):
    sqlite_kills(tmp_path, scent_index, 24)


def qdrant_kills(tmp_path, scent_index, kills: int) -> None:
    pytest.importorskip("qdrant_edge")
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    shard = index_dir / "qdrant"
    settings = Settings(backend="qdrant", qdrant_path=str(shard))
    extra = ("--backend", "qdrant", "--qdrant-path", str(shard))

    def check(d: Path) -> None:
        if not (d / "catalog.db").exists():
            return
        catalog = units_of(d / "catalog.db")
        with Index(index_dir=d, embedder=FakeEmbedder(), settings=settings) as idx:
            # Qdrant's own view: every unit the catalog knows is a point (points the catalog does not
            # know yet may exist: they are written first, and again by the next run).
            assert idx.engine.status()["qdrant_mode"] == "edge"
            known = [uid for units in catalog.values() for uid, _ in units]
            assert set(idx.engine.catalog.units(known)) == set(known)
            # The search reads Qdrant alone, which may be ahead of the catalog by the killed run's
            # writes: files of the folder not yet recorded, and a renamed or deleted one already gone.
            hits = {h.path for h in idx.search(COMMON, k=1000, strategy="keyword")}
            on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*.md")}
            assert hits <= set(catalog) | on_disk
            want = {p for p, units in catalog.items() if any(COMMON in t for _, t in units)}
            assert want & on_disk <= hits
            idx.status()

    survived, made = kill_rounds(folder, index_dir, tmp_path, scent_index, kills, extra, settings, "catalog.db", check)
    with Index(index_dir=index_dir, embedder=FakeEmbedder(), settings=settings) as idx:
        st = idx.status()
        assert st["units"] == sum(len(u) for u in units_of(index_dir / "catalog.db").values())
    print(f"\nqdrant edge: {survived}/{made} kills survived (seed {SEED + kills})")
    assert survived == made == kills


def test_sigkill_with_the_qdrant_edge_engine(tmp_path, scent_index):
    qdrant_kills(tmp_path, scent_index, 2)


@pytest.mark.slow
def test_sigkill_with_the_qdrant_edge_engine_8_times(tmp_path, scent_index):
    qdrant_kills(tmp_path, scent_index, 8)


# A process holding a local Qdrant folder starts a reader as an indexing run does, then is killed;
# its reader lives on a moment (it notices its parent is gone twice a second).
HOLD_AND_DIE = r'''
import multiprocessing, os, signal, sys, time
from concurrent.futures import ProcessPoolExecutor
from scent.engines.qdrant import _open_local
from scent.indexing import _reader_started
from pathlib import Path
from qdrant_client import models
client, mode = _open_local(Path(sys.argv[1]))
assert mode == sys.argv[2], mode
if not client.collection_exists("t"):
    client.create_collection("t", {"v": models.VectorParams(size=4, distance=models.Distance.COSINE)})
client.upsert("t", [models.PointStruct(id=1, vector={"v": [1.0, 0.0, 0.0, 0.0]})])
context = multiprocessing.get_context("fork")
pool = ProcessPoolExecutor(1, mp_context=context, initializer=_reader_started, initargs=(context.SimpleQueue(), os.getpid()))
pool.submit(time.sleep, 0).result()
os.kill(os.getpid(), signal.SIGKILL)
'''


@pytest.mark.parametrize("mode", ["edge", "local"])
def test_a_killed_indexers_reader_does_not_keep_the_qdrant_folder_locked(tmp_path, mode):
    pytest.importorskip("qdrant_edge" if mode == "edge" else "qdrant_client")
    from scent.engines.qdrant import _open_local

    folder = tmp_path / "qdrant"
    if mode == "local":  # a folder with something in it stays qdrant-client's local mode
        folder.mkdir()
        (folder / "meta.json").write_text('{"collections": {}, "aliases": {}}')
    for _ in range(3):
        # Output to a file: a pipe would make the wait last until the reader, which shares it, is gone.
        with open(tmp_path / "err", "w+") as err:
            proc = subprocess.run([sys.executable, "-c", HOLD_AND_DIE, str(folder), mode], stdout=err, stderr=err,
                                  env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=120)
            err.seek(0)
            assert proc.returncode == -signal.SIGKILL, err.read()
        client, got = _open_local(folder)  # at once: the reader may not have noticed yet
        assert got == mode
        assert client.count("t", exact=True).count == 1  # the shard loads: its log's lock is free too
        client.close()


# ---- a full disk and a read-only folder --------------------------------------------------------

def mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None or os.environ.get("SCENT_CRASH_NO_MOUNT"):
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def unmount(where: Path) -> None:
    subprocess.run(["umount", str(where)], capture_output=True)


BIG = 150  # files of 600 words: more than half a megabyte of index


def big_corpus(folder: Path) -> None:
    write_corpus(folder)
    for i in range(BIG):
        (folder / "big").mkdir(exist_ok=True)
        (folder / "big" / f"n{i:03d}.md").write_text(" ".join(f"word{j}x{i}" for j in range(600)))


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("scent: error: ") and "Traceback" not in err, err
    return lines[0]


def test_full_disk_is_one_line_and_the_index_stays_whole(tmp_path, scent_index):
    folder = tmp_path / "notes"
    big_corpus(folder)
    disk = tmp_path / "disk"
    mounted = mount_tmpfs(disk, "1m")
    try:
        index_dir = disk / "index"
        proc = scent_index(folder, index_dir, delay=0, env=None if mounted else {"SCENT_FSIZE": str(1 << 20)})
        out, err = proc.communicate(timeout=300)
        how = "a 1 MiB tmpfs" if mounted else "RLIMIT_FSIZE of 1 MiB"
        print(f"\nfull disk ({how}): exit {proc.returncode}: {err.strip()}")
        assert proc.returncode == 1
        line = one_error_line(err)
        assert "the disk is full" in line and "free some space" in line and "keeps every file written" in line
        # What was written before stands: whole, searchable, and a later run (with room) completes it.
        kept = units_of(index_dir / "index.db")
        assert 0 < len(kept) < N_FILES + BIG + 1
        check_consistent(index_dir, folder, tmp_path, FakeEmbedder())
        roomy = tmp_path / "roomy"
        shutil.copytree(index_dir, roomy)
    finally:
        if mounted:
            unmount(disk)
    proc = scent_index(folder, roomy, delay=0)
    assert proc.wait(timeout=300) == 0
    assert units_of(roomy / "index.db") == clean_build(folder, tmp_path, Settings(), "index.db")


def test_an_index_folder_that_cannot_be_made_is_one_line(tmp_path):
    """A file standing where the index folder, or scent's own folder ($SCENT_HOME), would be made:
    a FileNotFoundError or NotADirectoryError traceback before."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("a note\n")
    (tmp_path / "file").write_text("in the way\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    for args, home, said in [(["--index", str(tmp_path / "file" / "idx")], tmp_path / "home", "the index folder"),
                             ([], tmp_path / "file" / "home", "scent's folder")]:
        proc = subprocess.run([sys.executable, "-m", "scent", "index", str(folder), *args], capture_output=True,
                              text=True, env={**env, "SCENT_HOME": str(home)}, timeout=120)
        assert proc.returncode == 1 and f"cannot make {said} " in one_error_line(proc.stderr), proc.stderr


def test_read_only_index_folder_is_one_line_and_still_answers(tmp_path, scent_index):
    folder = tmp_path / "notes"
    write_corpus(folder)
    disk = tmp_path / "ro"
    mounted = mount_tmpfs(disk, "64m")
    try:
        index_dir = disk / "index"
        assert scent_index(folder, index_dir, delay=0).wait(timeout=300) == 0
        before = units_of(index_dir / "index.db")
        (folder / "d0" / "log000.md").write_text(f"# Changed\n\nA {COMMON} changed its mind.\n")
        if mounted:
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
            how = "a tmpfs remounted read-only"
        elif os.geteuid() == 0:
            pytest.skip("no tmpfs can be mounted here, and root ignores a folder's permission bits")
        else:
            os.chmod(index_dir, 0o555)
            how = "chmod 555"
        proc = scent_index(folder, index_dir, delay=0)
        out, err = proc.communicate(timeout=300)
        print(f"\nread-only folder ({how}): exit {proc.returncode}: {err.strip()}")
        assert proc.returncode == 1
        line = one_error_line(err)
        assert "read-only" in line and "searching it still works" in line
        # The previous index answers, unchanged.
        assert units_of(index_dir / "index.db") == before
        with Index(index_dir=index_dir, embedder=FakeEmbedder()) as idx:
            hits = idx.search(COMMON, k=100, strategy="keyword")
            assert {h.path for h in hits} == {p for p, u in before.items() if any(COMMON in t for _, t in u)}
            assert idx.status()["files"] == N_FILES + 1
    finally:
        if mounted:
            unmount(disk)
        elif os.geteuid() != 0:
            os.chmod(index_dir, 0o755)


@pytest.mark.parametrize("files, workers", [(6, 1), (6, 2), (40, 2)])  # read here, one by one; by reader processes
def test_a_file_that_crashes_its_reader_is_skipped_and_the_rest_indexed(tmp_path, scent_index, files, workers):
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(files):
        (folder / f"n{i:02d}.md").write_text(f"note {i} about pears\n")
    poisoned = ["n03b.md", "n04b.md"] + (["n21b.md"] if files >= 32 else [])  # the pool is broken each time
    for name in poisoned:
        (folder / name).write_text("a note of bytes the reader dies on: FAULT HERE\n")
    index_dir = tmp_path / "idx"

    def run():
        proc = scent_index(folder, index_dir, "--index-workers", str(workers), delay=0,
                           env={"SCENT_CRASH_ON": "FAULT HERE"})
        return proc, proc.communicate(timeout=300)[1]

    proc, err = run()
    if workers == 1:  # read in the indexing process: it crashed that run at n03b; the next reads in a
        # reader process, and skips n04b too
        assert proc.returncode == -signal.SIGSEGV, err
        proc, err = run()
    assert proc.returncode == 0, err
    said = [line for line in err.splitlines() if line.startswith("scent: skipped")]
    assert said == [f"scent: skipped {name}: reading it crashed the process reading it (a fault in the library that "
                    "reads .md files, on bytes it could not handle); if it opens in other programs, report it, and "
                    "add it to .scentignore to stop seeing this" for name in poisoned]
    assert len(units_of(index_dir / "index.db")) == files
    proc, err = run()  # said again, without a crash
    assert proc.returncode == 0 and set(said) <= set(err.splitlines()), err


# `scent watch` (threads of its own: its readers come from the fork server, which imports this
# module again in each, so the crashing reader is there too) with conftest's fake embedder.
WATCH_CHILD = r'''
import os, signal, sys
import scent.extract

def crashing(path, limits, real=scent.extract.EXTRACTORS["text"]):
    if "FAULT HERE" in open(path, encoding="utf-8", errors="replace").read():
        os.kill(os.getpid(), signal.SIGSEGV)
    return real(path, limits)

scent.extract.EXTRACTORS["text"] = crashing

if __name__ == "__main__":
    sys.path.insert(0, os.environ["SCENT_TESTS"])
    import scent.index
    from conftest import FakeEmbedder
    scent.index.E5Embedder = FakeEmbedder
    sys.argv = ["scent", *sys.argv[1:]]
    from scent.cli import main
    main()
'''


def test_a_file_that_crashes_its_reader_does_not_end_a_watch(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(40):
        (folder / f"n{i:02d}.md").write_text(f"note {i} about pears\n")
    (folder / "n03b.md").write_text("a note of bytes the reader dies on: FAULT HERE\n")
    child = tmp_path / "watch_child.py"
    child.write_text(WATCH_CHILD)
    proc = subprocess.Popen([sys.executable, str(child), "watch", str(folder), "--index", str(tmp_path / "idx"),
                             "--index-workers", "2"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_HOME": str(tmp_path / "home"),
                                 "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])})
    lines = []
    try:
        while not lines or "watching" not in lines[-1]:
            lines.append(proc.stderr.readline())
            assert lines[-1], (proc.wait(timeout=30), lines)  # the watch ended
        assert lines[-2].startswith("scent: skipped n03b.md: reading it crashed the process reading it"), lines
        assert "(40 files indexed, 40 new, 0 changed, 0 deleted)" in lines[-1]
        (folder / "heron.md").write_text("A grey heron at the pond.\n")
        lines.append(proc.stderr.readline())
        assert lines[-1].startswith("scent: 1 new, 0 changed"), lines
        # A file added while watching is read by the watch's reader processes, as the first update's were
        (folder / "n41b.md").write_text("another note of bytes the reader dies on: FAULT HERE\n")
        lines.append(proc.stderr.readline())
        assert lines[-1].startswith("scent: skipped n41b.md: reading it crashed the process reading it"), lines
        (folder / "egret.md").write_text("A little egret at the pond.\n")
        lines.append(proc.stderr.readline())
        while lines[-1].startswith("scent: 0 new"):  # the refresh of n41b.md
            lines.append(proc.stderr.readline())
        assert lines[-1].startswith("scent: 1 new, 0 changed"), lines
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert proc.returncode == 0, lines


def test_a_quiet_watch_still_says_what_it_skipped(tmp_path):
    """`scent watch -q` leaves out each refresh's line, not the line of a file it could not read
    (`scent index -q` says those too): the refresh of heron.md says nothing, the one of n9b.md its skip."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "n0.md").write_text("note about pears\n")
    child = tmp_path / "watch_child.py"
    child.write_text(WATCH_CHILD)
    proc = subprocess.Popen([sys.executable, str(child), "watch", str(folder), "--index", str(tmp_path / "idx"), "-q"],
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_HOME": str(tmp_path / "home"),
                                 "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])})
    lines = []
    silent = threading.Timer(60, proc.kill)  # a watch that says nothing would leave readline waiting
    silent.start()
    try:
        while not lines or "watching" not in lines[-1]:
            lines.append(proc.stderr.readline())
            assert lines[-1], (proc.wait(timeout=30), lines)
        (folder / "heron.md").write_text("A grey heron at the pond.\n")
        time.sleep(2)
        (folder / "n9b.md").write_text("a note of bytes the reader dies on: FAULT HERE\n")
        lines.append(proc.stderr.readline())
        assert lines[-1].startswith("scent: skipped n9b.md: reading it crashed the process reading it"), lines
    finally:
        silent.cancel()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    assert proc.returncode == 0, lines


def interrupted(tmp_path, args: list[str], delay: str, started, sig=signal.SIGINT) -> tuple[int, str]:
    """(exit status, stderr) of `scent ARGS` (the fake embedder, `delay` s a text), run as a terminal
    runs it (a process group of its own, Ctrl-C at its default), sent Ctrl-C to its group (or `sig`
    to it alone, as `kill` sends it) once `started()` and a second more."""
    child = tmp_path / "scent_index_child.py"
    child.write_text(CHILD)
    proc = subprocess.Popen([sys.executable, str(child), *args], stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            env={**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_DELAY": delay,
                                 "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])})
    try:
        deadline = time.monotonic() + 120
        while not started(proc):
            assert time.monotonic() < deadline and proc.poll() is None, "not started"
            time.sleep(0.1)
        time.sleep(1)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(sig)
        err = proc.communicate(timeout=60)[1]
        return proc.returncode, err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_ctrl_c_ends_an_indexing_run_in_one_line(tmp_path):
    """Ctrl-C reaches every process of the terminal's group, the readers too: they leave the run to
    end them, and the user reads one line, not a traceback from each."""
    folder = tmp_path / "notes"
    write_corpus(folder)

    def readers_at_work(proc) -> bool:
        return len(subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()) >= 2

    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C, and `kill` (it ended the run without a word)
        code, err = interrupted(tmp_path, ["index", str(folder), "--index", str(tmp_path / "idx"), "--index-workers",
                                           "2"], "0.05", readers_at_work, sig)
        assert code == 130, err
        assert "Traceback" not in err and err.rstrip().splitlines()[-1] == (
            f"scent: stopped; the files indexed so far are kept: scent index {folder} goes on from there"), err


def test_ctrl_c_during_a_watchs_first_update_stops_it_at_once(tmp_path):
    """The first update of a watch is a whole folder's (hours, for a large one): Ctrl-C stops it as it
    stops `scent index`, instead of waiting for it to end (a refresh is still written first)."""
    folder = tmp_path / "notes"
    write_corpus(folder)
    code, err = interrupted(tmp_path, ["watch", str(folder), "--index", str(tmp_path / "idx")], "0.2",
                            lambda proc: (tmp_path / "idx" / "index.db").exists())  # the first update has begun
    assert code == 130, err
    assert "watching" not in err and err.rstrip().splitlines()[-1] == "scent: interrupted", err
    with Index(index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.unfinished_run() is not None  # stopped midway: the next run carries on
