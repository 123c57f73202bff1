"""Access tokens for `scent serve`: one per user name, for the access rules (--allow-remote), and
the token of the user running a loopback server (`own_token`).

A token is `secrets.token_urlsafe(32)`, shown once when it is made; the file keeps only its
SHA-256, so a copy of the file lets nobody in. The file ($SCENT_HOME/tokens.json) is written
with mode 0600 and refused when others can read or write it, as ssh refuses a loose key.
A request's token is compared with every stored digest in constant time (hmac.compare_digest).
The file is read again when it changes, so `scent token remove` locks a user out of a running
server at once.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
from pathlib import Path
from threading import Lock

from ..errors import ScentError, UsageError
from ..settings import scent_home

USER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.@-]{0,63}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")  # what secrets.token_urlsafe makes (and the page's #token= takes)


def tokens_path() -> Path:
    return scent_home() / "tokens.json"


def own_token_path() -> Path:
    return scent_home() / "serve-token"


def own_token(path: Path | None = None) -> str:
    """The token a loopback `scent serve` asks of every API request: made once and kept in a file
    only its owner can read ($SCENT_HOME/serve-token, 0600), so that another user of this machine,
    who can reach 127.0.0.1 too, cannot search or read the indexed files. Kept, not made per run,
    so a browser's cookie and a script's header stay good when the server restarts; removing the
    file makes a new one (and locks out every browser that held the old)."""
    path = Path(path) if path else own_token_path()
    try:
        token = _read_private(path).strip()
    except UnicodeDecodeError:
        token = ""
    except FileNotFoundError:
        token = None
    except OSError as err:
        raise ScentError(f"cannot read the server's token in {path} ({err.strerror}); make it readable, "
                         "or remove it (a new one is made)") from None
    if token is not None:
        if not TOKEN.fullmatch(token):
            raise ScentError(f"{path} does not hold a scent token; remove it and start scent serve again "
                             "(a new one is made)")
        return token
    token = secrets.token_urlsafe(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another scent serve made it just now: use that one
        return own_token(path)
    except OSError as err:
        raise ScentError(f"cannot keep the server's token in {path} ({err.strerror}); make scent's home "
                         "writable, or set SCENT_HOME to a folder that is") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token


def _read_private(path: Path) -> str:
    """`path`'s text, refused (as ssh refuses a loose key) when other users can read or write it."""
    with open(path, encoding="utf-8") as f:
        _refuse_loose(path, os.fstat(f.fileno()).st_mode)
        return f.read()


def _refuse_loose(path: Path, mode: int) -> None:
    if stat.S_IMODE(mode) & 0o077:
        raise ScentError(f"{path} can be read or written by other users; make it private with: chmod 600 {path}")


def write_private(path: Path, text: str) -> None:
    """Replace `path` with `text` in a file only its owner may read: created 0600 from the start
    (not chmod-ed afterwards, so never readable by others for a moment), then moved into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Tokens:
    """The token file: `add(user)` -> the new token, `remove(user)`, `users()`, `user_for(token)`."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else tokens_path()
        self._lock = Lock()
        self._seen: tuple | None = None  # (mtime_ns, size, inode) of the file as last read
        self._users: dict[str, dict] = {}

    # ---- reading -------------------------------------------------------------------------

    def _load(self) -> dict[str, dict]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return {}
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        with self._lock:
            if key == self._seen:
                return self._users
        _refuse_loose(self.path, st.st_mode)
        try:
            users = json.loads(self.path.read_text(encoding="utf-8"))["users"]
            if not isinstance(users, dict) or not all(isinstance(u.get("sha256"), str) for u in users.values()):
                raise ValueError("each user needs a sha256")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ScentError(f"cannot read the token file {self.path} ({err}); "
                             "remove it and make the tokens again with: scent token add USER") from None
        with self._lock:
            self._seen, self._users = key, users
        return users

    def users(self) -> list[dict]:
        """`[{"user", "created"}]` by name; the tokens themselves are not kept."""
        return [{"user": name, "created": entry.get("created")} for name, entry in sorted(self._load().items())]

    def user_for(self, token: str) -> str | None:
        """The user `token` belongs to, or None. Every digest is compared, in constant time."""
        given = _digest(token)
        found = None
        for name, entry in self._load().items():
            if hmac.compare_digest(given, entry["sha256"]):
                found = name
        return found

    # ---- writing -------------------------------------------------------------------------

    def add(self, user: str) -> str:
        """Make a token for `user` (a new name) and return it: this is the only time it is seen."""
        if not USER_NAME.fullmatch(user or ""):
            raise UsageError(f"a user name is 1-64 letters, digits and _ . @ - (not starting with . @ -), "
                             f"got {user!r}")
        users = dict(self._load())
        if user in users:
            raise UsageError(f"{user} already has a token; to replace it: scent token remove {user}, then add again")
        token = secrets.token_urlsafe(32)
        users[user] = {"sha256": _digest(token), "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        self._write(users)
        return token

    def remove(self, user: str) -> None:
        users = dict(self._load())
        if user not in users:
            known = ", ".join(sorted(users)) or "none"
            raise UsageError(f"{user!r} has no token (users with tokens: {known})")
        del users[user]
        self._write(users)

    def _write(self, users: dict) -> None:
        write_private(self.path, json.dumps({"users": users}, indent=1, sort_keys=True) + "\n")
