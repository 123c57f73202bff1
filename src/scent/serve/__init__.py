"""Views of an `Index` for other programs: the web UI + HTTP API (`app.py`) and the MCP server
(`mcp_server.py`). Importing this package needs nothing beyond scent itself; the modules below
need the `serve` extra, and `require()` says how to install it when it is missing."""
from __future__ import annotations

import importlib
import ipaddress

from ..errors import ScentError


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
    from ..errors import UsageError

    if _is_local(host):
        # Only local names in the Host header: a web page elsewhere cannot reach the API by DNS rebinding.
        return list(LOCAL_HOST_HEADERS), None
    if not allow_remote:
        raise UsageError(f"--host {host} would let other machines read your files; "
                         "add --allow-remote if that is what you want (or use 127.0.0.1)")
    return None, (f"scent: warning: serving on {host}: anyone who can reach this address can search "
                  "and read the indexed files; there is no password")
