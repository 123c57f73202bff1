"""Views of an `Index` for other programs: the web UI + HTTP API (`app.py`) and the MCP server
(`mcp_server.py`). Importing this package needs nothing beyond scent itself; the modules below
need the `serve` extra, and `require()` says how to install it when it is missing."""
from __future__ import annotations

import errno
import importlib
import ipaddress
import socket

from ..errors import ScentError, UsageError


def require(*modules: str) -> None:
    """Import `modules` now, or raise a ScentError naming the extra to install."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise ScentError(f"this command needs the {name} package; install it with: "
                             "pip install 'scent[serve]'") from None


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
# The Host header values a local server accepts, as the browser sends them (an IPv6 literal in
# brackets; the port is not compared): any other name may be a DNS-rebinding page.
LOCAL_HOST_HEADERS = ["127.0.0.1", "localhost", "[::1]"]


def _is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return str(ipaddress.ip_address(host)) in LOCAL_HOSTS  # "0:0:0:0:0:0:0:1" is ::1 too
    except ValueError:
        return False


def check_host(host: str, allow_remote: bool) -> tuple[list[str] | None, str | None]:
    """For `scent serve --host`: the Host header values to accept (None: any) and a warning to
    print, or a UsageError when a non-local address is asked for without `allow_remote`."""
    if _is_local(host):
        # Only local names in the Host header: a web page elsewhere cannot reach the API by DNS rebinding.
        return list(LOCAL_HOST_HEADERS), None
    if not allow_remote:
        raise UsageError(f"--host {host} would let other machines read your files; "
                         "add --allow-remote if that is what you want (or use 127.0.0.1)")
    return None, (f"scent: warning: serving on {host}: anyone who can reach this address and holds an "
                  "access token can search and read the indexed files (scent token list shows who does)")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening, or a ScentError saying why not and what to
    do. `scent serve` binds before it says where it serves, so a taken port is one clear line."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as err:
        raise UsageError(f"--host {host} is not an address of this machine ({err.strerror})") from None
    sock = socket.socket(family, kind, proto)
    try:
        # As uvicorn does: a restart need not wait out TIME_WAIT (a port another program listens
        # on is still refused on Linux).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise ScentError(f"port {port} on {host} is already in use (another scent serve?); stop that "
                             f"program, or choose another port: scent serve --port {port + 1} "
                             "(--port 0 picks a free one)") from None
        if err.errno == errno.EACCES:
            raise ScentError(f"no permission to listen on port {port} (ports below 1024 need root); "
                             "choose another: scent serve --port 8765") from None
        if err.errno == errno.EADDRNOTAVAIL:
            raise UsageError(f"--host {host} is not an address of this machine") from None
        raise ScentError(f"cannot listen on {host} port {port}: {err.strerror}") from None
    return sock
