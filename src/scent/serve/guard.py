"""Who may talk to the server, checked before a request reaches the app, and the headers every
answer carries. One ASGI middleware, so a refused request costs no thread and reads no index.

In order, each refusal one JSON line `{"error": ...}`:
1. Host: on a loopback bind only the loopback names (127.0.0.1, localhost, [::1]) are accepted,
   so a page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused: 403.
2. Origin: when a browser sends one, it must be this server's own (`http://` + the Host header);
   `Sec-Fetch-Site: cross-site`/`same-site` on the API is refused too, so a page elsewhere (even
   another port of localhost) cannot use the API, not even by <img> or <script> tags: 403.
   A request that changes state (anything but GET/HEAD) must carry a matching Origin.
3. Body: the API takes no request bodies; one over MAX_BODY bytes is refused early: 413.
4. Token: `Authorization: Bearer TOKEN`, or the `scent_token` cookie the UI gets from POST
   /api/session. A token that is not valid is 401 everywhere; with `require_token` (every
   `scent serve`) a request without one is 401, except the page and its static files, which
   hold no user data. The token is a user's (`scent token add`), or the server's own
   (`own_token`: the user running a loopback server). `request.state.user` is the user's name;
   for the own token, or a request without a token where none is required, the user `scent
   serve --as` names, or None: the user running the server. `request.state.signed_in` says
   whether a valid token came.
"""
from __future__ import annotations

import hmac
import json

from ..errors import ScentError
from .tokens import Tokens

MAX_BODY = 16 * 1024
COOKIE = "scent_token"
COOKIE_DAYS = 30  # how long a browser keeps the token it was given once
# The UI loads nothing but its own files: no inline script, no eval, no CDN, no framing.
UI_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
          "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
# JSON and errors: nothing in them may load or run anything, even if opened as a page.
API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
NEEDS_TOKEN = ("this server needs an access token: open the address `scent serve` printed (with #token=...) "
               "once, or send the header Authorization: Bearer TOKEN (your own: the file serve-token in "
               "scent's home; another person's: scent token add USER)")
# A server for other people (--allow-remote) or as another user (--as) takes no owner's token.
NEEDS_USERS_TOKEN = ("this server needs a person's access token: send the header Authorization: Bearer TOKEN with "
                     "one that `scent token add USER` made (the serve-token of scent's home is not taken here), "
                     "or open the server's address with #token=TOKEN once")
BAD_TOKEN = ("this access token is not valid (it may have been removed, or the server's own token made anew); "
             "open the address `scent serve` printed again, or ask for a new one: scent token add USER")


class Guard:
    def __init__(self, app, *, allowed_hosts: list[str] | None, tokens: Tokens | None, require_token: bool,
                 default_user: str | None = None, own_token: str | None = None):
        self.app = app
        self.own_token = own_token
        self.default_user = default_user  # who a request without a token is (serve --as); None: the server's user
        self.allowed_hosts = {h.lower() for h in allowed_hosts} if allowed_hosts else None
        self.tokens = tokens
        self.require_token = require_token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = _with_security_headers(message.get("headers", []), path)
            await send(message)

        try:
            user, signed_in = self._check(scope)
        except _Refused as err:
            return await _answer(send_with_headers, err.status, err.message, err.headers)
        except ScentError as err:  # the token file went bad under a running server
            return await _answer(send_with_headers, 500, str(err))
        state = scope.setdefault("state", {})
        state["user"] = user if user is not None else self.default_user
        state["signed_in"] = signed_in

        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    raise _Refused(413, _too_big())
            return message

        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _Refused as err:  # a chunked body that grew too big while the app read it
            if started:
                raise
            await _answer(send_with_headers, err.status, err.message)

    def _check(self, scope) -> tuple[str | None, bool]:
        """(the user a token names or None, whether a valid token came), or _Refused."""
        headers = _headers(scope)
        host = headers.get("host", "")
        path = scope.get("path", "")
        if self.allowed_hosts is not None and _host_name(host) not in self.allowed_hosts:
            raise _Refused(403, f"refused: the Host header {host!r} is not this server's address; open it as "
                                f"http://127.0.0.1:PORT/ (a page on another name may be a DNS-rebinding attack)")
        origin = headers.get("origin")
        own = f"{scope.get('scheme', 'http')}://{host}".lower()
        if origin is not None and origin.lower() != own:
            raise _Refused(403, f"refused: a request from the page {origin!r}; this server answers only its "
                                f"own pages ({own})")
        if scope["method"] not in SAFE_METHODS and origin is None:
            raise _Refused(403, f"refused: a {scope['method']} request must come from this server's own page "
                                f"(no Origin header)")
        public = _public(path)
        if not public and headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            raise _Refused(403, "refused: a request made by a page of another site; open scent's own page")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                raise _Refused(400, f"Content-Length {length!r} is not a number of bytes")
            if int(length) > MAX_BODY:
                raise _Refused(413, _too_big())

        token = _token(headers)
        if token is not None:
            if token and self.own_token and hmac.compare_digest(token.encode(), self.own_token.encode()):
                return None, True
            user = self.tokens.user_for(token) if self.tokens is not None and token else None
            if user is None and not public:  # a stale cookie must not lock the page itself away
                raise _Refused(401, BAD_TOKEN, [(b"www-authenticate", b'Bearer error="invalid_token"')])
            return user, user is not None
        if self.require_token and not public:
            raise _Refused(401, NEEDS_TOKEN if self.own_token else NEEDS_USERS_TOKEN, [(b"www-authenticate", b"Bearer")])
        return None, False


class _Refused(Exception):
    def __init__(self, status: int, message: str, headers: list | None = None):
        self.status, self.message, self.headers = status, message, headers or []
        super().__init__(message)


def _public(path: str) -> bool:
    """The page and its static files: they hold no user data, so they load without a token."""
    return path == "/" or path.startswith("/static/")


def _too_big() -> str:
    return f"request body too large: the API takes none over {MAX_BODY:,} bytes"


def _headers(scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        key = name.decode("latin-1").lower()
        text = value.decode("latin-1")
        # A repeated Host/Origin/Authorization is suspicious: keep the first, compare that one.
        if key == "cookie" and key in out:
            out[key] += "; " + text
        else:
            out.setdefault(key, text)
    return out


def _host_name(host: str) -> str:
    """`host` without its port: "[::1]:8765" -> "[::1]", "localhost:8765" -> "localhost"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _token(headers: dict[str, str]) -> str | None:
    """The bearer token, or the session cookie's; "" for a malformed Authorization header (refused)."""
    auth = headers.get("authorization")
    if auth is not None:
        scheme, _, value = auth.strip().partition(" ")
        return value.strip() if scheme.lower() == "bearer" else ""
    values = {value.strip() for name, _, value in (part.strip().partition("=")
                                                   for part in headers.get("cookie", "").split(";"))
              if name == COOKIE}
    if len(values) > 1:
        return ""  # two different scent cookies (one planted by a neighbouring site?): neither is trusted
    return values.pop() if values else None


def _with_security_headers(headers, path: str) -> list:
    names = {name.lower() for name, _ in headers}
    out = list(headers)
    api = not _public(path)
    defaults = [
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-resource-policy", b"same-origin"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"content-security-policy", (API_CSP if api else UI_CSP).encode()),
    ]
    if api:
        defaults.append((b"cache-control", b"no-store"))
    for name, value in defaults:
        if name not in names:
            out.append((name, value))
    return out


async def _answer(send, status: int, message: str, headers: list | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
