"""Files read by several processes at once (index_workers) make the same index as one process
reading them in turn: the same files, units, ids, languages and vectors, written in one order."""
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from scent import Index, Settings

from conftest import EXAMPLES

NOTES = 32  # beside examples/'s 18 files: enough for every reader to have several


def folder_of_every_kind(root):
    """examples/ (text, code, HTML, CSV, JSON, Word, PDF, two photos) and enough notes for a pool."""
    shutil.copytree(EXAMPLES, root)
    for i in range(NOTES):
        (root / "many" / f"n{i:02d}.md").parent.mkdir(exist_ok=True)
        (root / "many" / f"n{i:02d}.md").write_text(f"# Note {i}\n\nThe heron came back on day {i}. "
                                                     f"It stood by the pond for {i + 3} minutes.\n")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")  # skipped the same way in both
    return root


def snapshot(index_dir, embedder):
    with Index(index_dir=index_dir, embedder=embedder) as idx:
        db = idx.engine.catalog.db
        files = db.execute("SELECT id, path, kind, size, hash, date, title, key FROM files ORDER BY id").fetchall()
        # row: the order units were written in; id: the stable id (from the file's key and place)
        units = db.execute("SELECT row, id, place, kind, text, page, start, \"end\", title, lang, text_hash, "
                           "extra, ids FROM units ORDER BY row").fetchall()
        ids = [u[1] for u in units]
        vectors = {name: idx.engine.vectors.get(name, ids) for name in idx.engine.vectors.fields()}
        errors = db.execute("SELECT path, reason FROM errors ORDER BY path").fetchall()
    return files, units, vectors, errors


def test_a_pool_of_readers_makes_the_index_one_reader_makes(tmp_path, fake_embedder):
    folder = folder_of_every_kind(tmp_path / "f")
    reports = {}
    for workers in (1, 2):
        with Index(folder, index_dir=tmp_path / f"w{workers}", embedder=fake_embedder,
                   settings=Settings(index_workers=workers)) as idx:
            reports[workers] = idx.update()
    one, two = reports[1], reports[2]
    assert (one.readers, two.readers) == (1, 2)
    assert (one.added, one.units, one.embedded, one.skipped) == (two.added, two.units, two.embedded, two.skipped)
    assert one.added == NOTES + 18 and [p for p, _ in one.skipped] == ["broken.pdf"]
    files1, units1, vectors1, errors1 = snapshot(tmp_path / "w1", fake_embedder)
    files2, units2, vectors2, errors2 = snapshot(tmp_path / "w2", fake_embedder)
    assert files1 == files2 and errors1 == errors2
    assert units1 == units2
    assert {u[3] for u in units1} >= {"text", "pdf_page", "docx", "image", "code"}  # every kind went through
    assert vectors1.keys() == vectors2.keys() == {"unit", "sentences", "english"}
    for name in vectors1:
        assert vectors1[name].keys() == vectors2[name].keys()
        for uid in vectors1[name]:
            assert np.array_equal(vectors1[name][uid], vectors2[name][uid])


def test_a_few_files_have_as_many_readers(notes, tmp_path, fake_embedder):
    with Index(notes, index_dir=tmp_path / "idx", embedder=fake_embedder, settings=Settings(index_workers=4)) as idx:
        assert idx.update().readers == 3  # 3 files
        (notes / "new.md").write_text("A note about a heron.\n")
        report = idx.update()
    assert (report.readers, report.added) == (1, 1)


def test_the_readers_stages_reach_the_indexing_process(tmp_path, fake_embedder):
    """Pictures are described in the reader processes: their "describing" stage is shown by the
    indexing process's tracker, with the file it is about, and the files done never go back."""
    folder = folder_of_every_kind(tmp_path / "f")
    seen = []
    with Index(folder, index_dir=tmp_path / "idx", embedder=fake_embedder, settings=Settings(index_workers=2)) as idx:
        report = idx.update(progress=seen.append)
    assert report.readers == 2
    described = {p.path for p in seen if p.stage == "describing"}
    assert described and all(path.endswith((".jpg", ".png", ".pdf", ".docx")) for path in described), described
    done = [p.files_done for p in seen]
    assert done == sorted(done)


def test_a_process_with_other_threads_reads_in_reader_processes_too(tmp_path, fake_embedder):
    """A watcher or a server runs threads of its own, where forking is unsafe: its readers come from
    multiprocessing's fork server, and make the index one reader makes."""
    folder = folder_of_every_kind(tmp_path / "f")
    with Index(folder, index_dir=tmp_path / "w1", embedder=fake_embedder, settings=Settings(index_workers=1)) as idx:
        one = idx.update()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        with Index(folder, index_dir=tmp_path / "w2", embedder=fake_embedder,
                   settings=Settings(index_workers=2)) as idx:
            two = idx.update()
    finally:
        stop.set()
        other.join()
    assert (one.readers, two.readers) == (1, 2)
    assert snapshot(tmp_path / "w1", fake_embedder)[:2] == snapshot(tmp_path / "w2", fake_embedder)[:2]


SCRIPT = """
import sys, threading
sys.path.insert(0, {tests!r})
from conftest import FakeEmbedder
from scent import Index, Settings

def main():
    threading.Thread(target=threading.Event().wait, daemon=True).start()
    with Index({folder!r}, index_dir={index!r}, embedder=FakeEmbedder(), settings=Settings(index_workers=2)) as idx:
        print("readers", idx.update().readers)

{call}
"""


@pytest.mark.parametrize("guarded", [True, False])
def test_a_script_with_threads_has_reader_processes_only_if_it_guards_its_main(tmp_path, guarded):
    """The fork server's readers import the main module again: an unguarded script would run again in
    each (here: index again, from each reader), so it reads in its own process, as before."""
    folder = tmp_path / "f"
    folder.mkdir()
    for i in range(NOTES):
        (folder / f"n{i:02d}.md").write_text(f"note {i} about herons\n")
    script = tmp_path / "script.py"
    call = 'if __name__ == "__main__":\n    main()' if guarded else "main()"
    script.write_text(SCRIPT.format(tests=str(Path(__file__).parent), folder=str(folder),
                                    index=str(tmp_path / "idx"), call=call))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"readers {2 if guarded else 1}"], run.stdout + run.stderr


def _asleep(seconds):
    import time
    time.sleep(seconds)


def test_a_stopped_run_ends_its_readers_and_their_pool_before_it_returns():
    """A run stopped by an error (a full disk) lets its reader pool go: the readers at work are ended
    and the pool's manager thread has closed its pipe when _let_go returns. Left running, the
    manager's close raced concurrent.futures' exit hook, which wrote to that pipe: a traceback under
    the error's one line, met once in CI."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from scent.indexing import _let_go

    before = set(threading.enumerate())
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
    busy = [pool.submit(_asleep, 30) for _ in range(4)]
    while not busy[0].running():  # a reader is at work
        threading.Event().wait(0.05)
    readers = list(pool._processes.values())
    _let_go(pool)
    assert [t for t in threading.enumerate() if t not in before and t.is_alive()] == []
    for reader in readers:
        reader.join(timeout=5)
        assert reader.exitcode is not None


def test_the_readers_of_a_killed_run_end_too(tmp_path):
    """A run whose readers a fork server started (a watch, a server) and that is killed (kill -9):
    its readers end within seconds. They watched their parent, the fork server, which lives as
    long as a process holds its pipe, as they do: both lived on for good."""
    import os
    import signal
    import time

    from scent.locking import alive

    script = tmp_path / "run.py"
    script.write_text(
        "import multiprocessing, os, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from scent.indexing import _reader_started\n"
        "if __name__ == '__main__':\n"
        "    context = multiprocessing.get_context('forkserver')\n"
        "    pool = ProcessPoolExecutor(2, mp_context=context, initializer=_reader_started,\n"
        "                               initargs=(context.SimpleQueue(), os.getpid()))\n"
        "    print(*sorted({pool.submit(os.getpid).result() for _ in range(8)}), flush=True)\n"
        "    time.sleep(600)\n")
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        readers = [int(pid) for pid in run.stdout.readline().split()]
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    assert readers

    deadline = time.monotonic() + 20
    while any(map(alive, readers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in readers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []
