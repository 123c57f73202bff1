"""Who may read a file: its readers, recorded at index time, and the principals of a user asking.

A file's readers are a few principals: `*` (everyone), `u:NAME` (a user), `g:NAME` (a group).
By default they come from the file system, as POSIX would decide: the file's read bits and the
search (x) bits of every folder above it. A rules file in the indexed folder (`.scent-access`,
see docs/access.md) can say otherwise for paths or globs, and name groups of its own.

POSIX judges a user by one class only (owner, else group, else other), so "other may read, the
group may not" (mode 604) means everyone except the group. A set of principals cannot say
"except"; such modes are read conservatively: the classes count from the owner outward up to the
first one without the bit (604 -> the owner only). A user is never let in where POSIX would not.

A file or folder with a POSIX ACL (`setfacl`) is judged by its ACL, the same way: the owner, then
the named users, then the owning and named groups, then everyone, each class through the mask,
the count stopping at a class not all of whose entries grant. Its mode's group bits are then the
mask, not the owning group's own: read as plain mode bits, `setfacl -m g::- -m m::r` would have
let the group in.

At query time a user's principals are `*`, `u:NAME` and `g:G` for each of their groups (from
the system's group database and the rules file); a unit is a candidate when its file's readers
hold any of them. root reads everything, as in POSIX: no filter at all.
"""
from __future__ import annotations

import grp
import json
import os
import pwd
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ScentError

RULES_FILE = ".scent-access"
EVERYONE = "*"
NOBODY = ""  # no principal: only an unrestricted reader (root) sees the file
UNRESTRICTED_USERS = frozenset({"root"})
_CLASSES = ((stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH), (stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH))
_KEYWORDS = {"*": EVERYONE, "everyone": EVERYONE}


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def _posix_readers(path: str, st: os.stat_result, bits: tuple[int, int, int]) -> frozenset[str]:
    """Who the file at `path` lets in for `bits` (read, or search for a folder): by its ACL when
    it has one, else by its mode bits."""
    entries = _acl(path)
    if entries is None:
        return _mode_readers(st, bits)
    return _acl_readers(entries, st, bits[2])  # the "other" bit is the ACL's permission bit (4 or 1)


def _mode_readers(st: os.stat_result, bits: tuple[int, int, int]) -> frozenset[str]:
    """The classes `bits` (read, or search for a folder) let in, counted from the owner outward."""
    owner, group, other = bits
    out: set[str] = set()
    if st.st_mode & owner:
        out.add(f"u:{user_name(st.st_uid)}")
        if st.st_mode & group:
            out.add(f"g:{group_name(st.st_gid)}")
            if st.st_mode & other:
                return frozenset({EVERYONE})
    return frozenset(out)


ACL_XATTR = "system.posix_acl_access"  # Linux keeps a file's access ACL in this extended attribute
_ACL_VERSION = 2
_USER_OBJ, _USER, _GROUP_OBJ, _GROUP, _MASK, _OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
MALFORMED_ACL: list = []  # an ACL that cannot be read: it lets nobody in (only root)


def _acl(path: str) -> list[tuple[int, int, int]] | None:
    """The access ACL's entries (tag, permission bits, user or group id), or None when the file
    has none (or the system keeps none: then its mode bits are the whole story)."""
    try:
        raw = os.getxattr(path, ACL_XATTR)
    except (OSError, AttributeError):  # no ACL (ENODATA), a file system without (ENOTSUP), not Linux
        return None
    if len(raw) < 4 or (len(raw) - 4) % 8 or struct.unpack_from("<I", raw)[0] != _ACL_VERSION:
        return MALFORMED_ACL
    return list(struct.iter_unpack("<HHI", raw[4:]))


def _acl_readers(entries: list[tuple[int, int, int]], st: os.stat_result, bit: int) -> frozenset[str]:
    """Who an ACL lets in for permission `bit` (4 read, 1 search), counted from the owner outward
    as the mode bits are: a class not all of whose entries grant stops the count, since POSIX
    denies its members even where a wider class grants (a named user without read is refused
    though everyone may read)."""
    def of(tag):
        return [(perm, ident) for t, perm, ident in entries if t == tag]

    mask = next((perm for perm, _ in of(_MASK)), 7)
    owner = of(_USER_OBJ)
    if not owner or not owner[0][0] & bit:
        return frozenset()
    out = {f"u:{user_name(st.st_uid)}"}
    users = of(_USER)
    out.update(f"u:{user_name(uid)}" for perm, uid in users if perm & mask & bit)
    if not all(perm & mask & bit for perm, _ in users):
        return frozenset(out)
    groups = [(perm, st.st_gid) for perm, _ in of(_GROUP_OBJ)] + of(_GROUP)
    out.update(f"g:{group_name(gid)}" for perm, gid in groups if perm & mask & bit)
    if not all(perm & mask & bit for perm, _ in groups):
        return frozenset(out)
    other = of(_OTHER)
    return frozenset({EVERYONE}) if other and other[0][0] & bit else frozenset(out)


def intersect(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """Who is in both: `*` is everyone; two different principals share nobody known here (a user
    in a group is let in through the group's name only when both sides name it)."""
    if EVERYONE in a:
        return b
    if EVERYONE in b:
        return a
    return a & b


def as_text(readers: frozenset[str]) -> str:
    """How readers are stored: sorted principals, space-separated ("" is nobody)."""
    return " ".join(sorted(readers))


@dataclass(frozen=True)
class Rule:
    """One line of a readers rules file: a path pattern and who may read what it matches."""

    line: int
    pattern: str
    spec: object  # a pathspec.GitIgnoreSpec (imported when a rules file is read)
    readers: frozenset[str]
    posix: bool  # the mode bits' readers are let in too


@dataclass
class Rules:
    """A folder's `.scent-access`: rules (the last that matches a path decides) and groups."""
    rules: list[Rule] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, root: str | Path) -> "Rules":
        path = Path(root) / RULES_FILE
        if not path.is_file():
            return cls()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ScentError(f"cannot read {path}: {err}; fix it or remove it (it says who may read what)") from None
        return cls.parse(text, str(path))

    @classmethod
    def parse(cls, text: str, where: str = RULES_FILE) -> "Rules":
        out = cls()
        for n, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            at = f"{where} line {n}"
            if line.startswith("group "):
                name, sep, members = line[len("group "):].partition(":")
                if not sep or not name.strip() or " " in name.strip():
                    raise ScentError(f"{at}: a group line is 'group NAME: USER USER ...', got {raw.strip()!r}")
                out.groups.setdefault(name.strip(), []).extend(members.split())
                continue
            pattern, *tokens = line.split()
            if not tokens:
                raise ScentError(f"{at}: {pattern!r} names no readers; write PATTERN READER..., where a reader is "
                                 "u:USER, g:GROUP, * (everyone), posix (what the mode bits say) or none")
            readers: set[str] = set()
            posix = False
            for token in tokens:
                if token in _KEYWORDS:
                    readers.add(_KEYWORDS[token])
                elif token == "posix":
                    posix = True
                elif token == "none":
                    pass
                elif token[:2] in ("u:", "g:") and len(token) > 2:
                    readers.add(token)
                else:
                    raise ScentError(f"{at}: unknown reader {token!r}; a reader is u:USER, g:GROUP, * (everyone), "
                                     "posix (what the mode bits say) or none")
            if "none" in tokens and (readers or posix):
                raise ScentError(f"{at}: 'none' cannot stand beside other readers")
            import pathspec  # only a folder with a rules file needs it

            try:
                spec = pathspec.GitIgnoreSpec.from_lines([pattern])
            except ValueError as err:
                raise ScentError(f"{at}: bad pattern {pattern!r} ({err})") from None
            out.rules.append(Rule(n, pattern, spec, frozenset(readers), posix))
        return out

    def decide(self, rel: str, posix: frozenset[str]) -> frozenset[str]:
        for rule in reversed(self.rules):
            if rule.spec.match_file(rel):
                return (rule.readers | posix) if rule.posix else rule.readers
        return posix

    def groups_json(self) -> str:
        return json.dumps({g: sorted(set(m)) for g, m in sorted(self.groups.items())}, sort_keys=True)


class Access:
    """The readers of files under one indexed folder, for one index run (folder bits cached)."""

    def __init__(self, root: str | Path, rules: Rules | None = None):
        self.root = os.path.abspath(root)
        self.rules = rules if rules is not None else Rules.load(self.root)
        self._folders: dict[str, frozenset[str]] = {}

    def _folder(self, path: str) -> frozenset[str]:
        """Who may reach files in folder `path`: its search bits and every folder's above it."""
        # Up to the nearest folder already known, then down again: a loop, not recursion (trees
        # 1,000 folders deep are walked).
        chain = []
        while path not in self._folders:
            chain.append(path)
            parent = os.path.dirname(path)
            if parent == path:
                break
            path = parent
        above = self._folders.get(path)
        for folder in reversed(chain):
            try:
                own = _posix_readers(folder, os.stat(folder), _CLASSES[1])
            except OSError:
                own = frozenset()
            above = own if above is None else intersect(own, above)
            self._folders[folder] = above
        return self._folders[chain[0]] if chain else above

    def readers(self, rel: str, st: os.stat_result | None = None) -> str:
        """The stored readers of the file at `rel` (relative to the folder, POSIX), from `st` (its
        stat) or, when not given, the file's own; a path that cannot be stat'ed gets its
        nearest folder's, read as a file."""
        full = os.path.join(self.root, *rel.split("/"))
        if st is None:
            while True:
                try:
                    st = os.stat(full)
                    break
                except OSError:
                    up = os.path.dirname(full)
                    if up == full or not up.startswith(self.root):
                        return NOBODY
                    full = up
        posix = intersect(_posix_readers(full, st, _CLASSES[0]), self._folder(os.path.dirname(full)))
        return as_text(self.rules.decide(rel, posix))


def principals(user: str | None, groups_json: str | None = None) -> tuple[str, ...] | None:
    """What `user` (None: the user running this process) may be named by in a file's readers;
    None for an unrestricted reader (root). `groups_json` holds the rules file's groups (stored
    in the index at index time). A user name this system does not know still gets its own name,
    the rules' groups and `*`: the rules file may grant to people without an account here."""
    if user is None:
        if os.geteuid() == 0:
            return None
        user = user_name(os.geteuid())
    user = user.strip()
    if not user:
        raise ScentError("the user to search as is empty; give a user name")
    if user in UNRESTRICTED_USERS:
        return None
    out = {EVERYONE, f"u:{user}"}
    try:
        entry = pwd.getpwnam(user)
        out.update(f"g:{group_name(g)}" for g in os.getgrouplist(user, entry.pw_gid))
    except KeyError:
        out.update(f"g:{g.gr_name}" for g in grp.getgrall() if user in g.gr_mem)
    for name, members in json.loads(groups_json or "{}").items():
        if user in members:
            out.add(f"g:{name}")
    return tuple(sorted(out))


def may_read(readers: str, who: tuple[str, ...] | None) -> bool:
    """Whether stored `readers` let in a user with principals `who` (None: unrestricted)."""
    return who is None or bool(set(readers.split()) & set(who))
