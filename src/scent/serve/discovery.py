"""How `scent search` finds a running `scent serve` of the same index, and asks it.

A fresh process pays for Python, numpy, the model and the index's first reads before it can
answer; a running server has paid already. So `scent serve` writes SERVER_FILE into the index
directory (its pid, address, port and the token it asks for; removed when it stops), and
`scent search` asks that server when one is running, says so on stderr, and answers in its own
process otherwise (`--no-server` always does).

Safe to trust because: the file is in the index directory (the user's own, under
$SCENT_HOME or --index), only written for a loopback address, and readable by its owner alone
(it holds the token); the client asks only a loopback address; the pid must be alive (a server
killed without cleaning up leaves a stale file that is ignored); and the server's answer must
name this same index directory, so another program that took the port after a crash is not
believed. Nothing here imports numpy, the model or the web framework: the point is a quick start.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from . import _is_local

SERVER_FILE = "server.json"
SQLITE_DB = "index.db"  # scent.engines.sqlite.DB_NAME, named here so finding it imports no engine
TIMEOUT_S = 10.0  # a server slower than this is given up on, and the search runs here


@contextmanager
def announced(index_dir: Path, host: str, port: int, root: str, token: str):
    """While the block runs, SERVER_FILE in `index_dir` says a server answers at host:port to
    requests that carry `token`."""
    # A remote-facing server is not one the CLI should find by itself; nor a second server of the
    # index, beside one already announced: it took the first's place, and removed it when it
    # stopped, and the first (the one that watched the folder) was found no more.
    if not _is_local(host) or _another(index_dir):
        yield
        return
    from .tokens import write_private  # here: finding a server (the CLI's path) needs none of it

    path = Path(index_dir) / SERVER_FILE
    write_private(path, json.dumps({"pid": os.getpid(), "host": host, "port": port, "token": token,  # it holds the token
                                    "index": str(Path(index_dir).resolve()), "root": root}))
    try:
        yield
    finally:
        try:
            if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():  # not a newer server's
                path.unlink()
        except (OSError, ValueError):
            pass


def running(index_dir: Path) -> dict | None:
    """The live server SERVER_FILE in `index_dir` names (pid, host, port, token, index), or None."""
    try:
        info = json.loads((Path(index_dir) / SERVER_FILE).read_text(encoding="utf-8"))
        pid, host, port = int(info["pid"]), str(info["host"]), int(info["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _is_local(host) or not 0 < port < 65536:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # stale: the server died without removing the file
    except PermissionError:
        return None  # another user's process has that pid now
    return {**info, "host": "127.0.0.1" if host == "localhost" else host}


def _another(index_dir: Path) -> bool:
    """Whether another live process's server answers at the address SERVER_FILE names (a pid
    alive after a crash may be another program's by now: then its port is closed)."""
    import socket

    other = running(index_dir)
    if other is None or other["pid"] == os.getpid():
        return False
    try:
        socket.create_connection((other["host"], int(other["port"])), timeout=1).close()
    except OSError:
        return False
    return True


def has_index_or_server(index_dir: Path) -> bool:
    """For scent.location.find_index: the directory the search would use (an SQLite index), or one a
    server announces itself in."""
    return (Path(index_dir) / SQLITE_DB).is_file() or (Path(index_dir) / SERVER_FILE).is_file()


def ask(server: dict, params: list[tuple[str, str]], index_dir: Path) -> dict | None:
    """GET /api/search with `params` from `server`; its answer, or None when it did not give one
    for this index (then the caller searches itself, and any error is reported from there)."""
    import http.client
    from urllib.parse import urlencode

    host = server["host"]
    conn = http.client.HTTPConnection(host, server["port"], timeout=TIMEOUT_S)
    try:
        headers = {"Host": host if ":" not in host else f"[{host}]"}
        if server.get("token"):
            headers["Authorization"] = f"Bearer {server['token']}"
        conn.request("GET", "/api/search?" + urlencode(params), headers=headers)
        response = conn.getresponse()
        if response.status != 200:
            return None
        answer = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()
    if not isinstance(answer, dict) or answer.get("index") != str(Path(index_dir).resolve()):
        return None
    return answer


def url(server: dict) -> str:
    host = server["host"]
    return f"http://{'[' + host + ']' if ':' in host else host}:{server['port']}/"

