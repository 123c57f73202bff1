"""Files inside files: an archive's members and a message's attachments, each read by the
extractor of its own extension and indexed as a file of its own at path `CONTAINER#NAME`
(`papers/2024.zip#q3/report.pdf`, `mail.mbox#3/invoice.pdf`, `note.eml#invoice.pdf`).

A member is copied to a private temporary file (a folder of its own that only this user may
enter, removed after) under a name scent chose, and `extract()` reads it there: every format
works inside an archive, and nothing a member's name says decides where bytes are written.
Limits (scent.extract.base.Limits) bound each container: how many members are read, how many
bytes are inflated in all, how far one member may inflate (a zip bomb), and how deep files inside
files are opened (a zip inside a zip is listed by its names, not opened).

The formats (archive.py, mail.py) give `MemberReader.add` one Entry at a time, as they find them,
so a mailbox of 100,000 messages never holds more than one attachment's bytes at once; and an
archive or a mailbox hands its members over in a `Spool`, a file they wait in, so neither its
reader nor the indexer ever holds more than a few of them.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import shutil
import struct
import tarfile
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import BinaryIO

from scent.errors import ExtractError
from scent.units import Extracted, Member, Picture
from .base import Limits, _size

RATIO_FLOOR = 8 * 1024 * 1024  # small members may inflate as much as they like (as package.py)
NAMES_SHOWN = 5  # names quoted in one line about several members
_UNSAFE = re.compile(r"[^\w.\- ()+,=@]")
# What reading a member's bytes can raise besides OSError: zipfile's and tarfile's own errors, a
# broken deflate stream, an encrypted or unsupported member.
_READ_ERRORS = (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zipfile.BadZipFile,
                tarfile.TarError, zlib.error)


@dataclass
class Entry:
    """One file a container holds, before it is read."""
    name: str  # its path inside the container, as the index will show it
    size: int  # bytes, uncompressed, as the container declares them
    open: Callable[[], BinaryIO | bytes]  # its bytes: a file object (read at most size + 1 bytes) or bytes
    date: float | None = None
    packed: int | None = None  # bytes it takes compressed (zip), for the ratio check


def attachment_name(raw: str, n: int, mime: str, seen: set[str]) -> str:
    """How attachment `n` of a message or note is named inside it: its own file name (a slash made
    "_"), else `attachment-N` and its type's extension; a name used twice gets " (2)" before its
    extension. `seen` holds the names given so far, and gets this one."""
    import mimetypes

    name = " ".join(raw.split()).replace("/", "_").replace("\\", "_")
    if not name:  # an attached message is .eml whatever the system's MIME table says
        name = f"attachment-{n}{'.eml' if mime == 'message/rfc822' else mimetypes.guess_extension(mime) or ''}"
    stem, ext = os.path.splitext(name)
    k = 1
    while name in seen:
        k += 1
        name = f"{stem} ({k}){ext}"
    seen.add(name)
    return name


def unsafe_name(name: str) -> str | None:
    """Why a member's name cannot be a path inside its container (absolute, '..', a backslash or
    NUL, not UTF-8), or None. Such a member is never read: its name may be an attack on unpackers."""
    if not name or "\x00" in name or "\\" in name:
        return "its name holds a NUL byte or a backslash"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "its name is an absolute path"
    if any(part == ".." for part in name.split("/")):
        return "its name leads outside the archive ('..')"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "its name is not valid UTF-8"
    return None


def safe_name(name: str) -> str:
    """The name the temporary copy of member `name` gets: its last part, odd characters replaced,
    its end (the extension, which picks the extractor) kept."""
    base = _UNSAFE.sub("_", name.rsplit("/", 1)[-1]).lstrip(".") or "member"
    return base[-120:]


def quoted(names: list[str]) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    return shown + (f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else "")


class Spool:
    """Members written to a file as they are read, and read back one at a time, in that order.

    Why: a mailbox's messages are read in a reader process and written by the indexer; a list of
    them crossed between the two whole, and the indexer queued them all at once (about 14 KB a
    message: 448 MiB for 20,000), so a mailbox was cut to its newest 5,000. A spool holds one.
    Each member is a record of its own (its length, then its pickle), flushed as it is written, so
    the indexer can take them while the reader still reads (`follow`): the model embeds a mailbox's
    first messages while the rest are read. Pickled, it is its file's name: the process it is sent
    to reads what the reader wrote, and the file is that copy's to remove (`discard`, or when it is
    no longer used). One left by a killed run is removed by the next (scent.indexing's spool folder)."""

    def __init__(self, folder: str | None = None):
        if folder is not None:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, self.path = tempfile.mkstemp(prefix="scent-members-", suffix=".pickle", dir=folder)
        self._out = os.fdopen(fd, "wb")
        self.count = 0
        self._owned = True

    def append(self, member: Member) -> None:
        self._write(member)
        self.count += 1

    def extend(self, members) -> None:
        for m in members:
            self.append(m)

    def expect(self, n: int) -> None:
        """Say that about `n` more members will come (a mailbox's messages, before they are read):
        whoever follows the spool counts them in its progress before they arrive."""
        self._write(n)

    def _write(self, item: Member | int) -> None:
        data = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
        self._out.write(_RECORD.pack(len(data)) + data)
        self._out.flush()

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        self._close()
        with open(self.path, "rb") as f:
            while (item := _next_record(f)) is not _NOT_YET:
                if isinstance(item, Member):
                    yield item

    @staticmethod
    def follow(path: str, done: Callable[[], bool], wait: Callable[[], None]):
        """The records of the spool at `path` while its writer still writes it: each member, and
        each count `expect` announced, as they are written; past the last one written, `wait()`,
        until `done()` says the writer has finished (then what it wrote last is read too). None
        where the writer removed it first (it failed: its answer says why)."""
        try:
            f = open(path, "rb")
        except FileNotFoundError:
            return
        with f:
            while True:
                finished = done()
                item = _next_record(f)
                if item is not _NOT_YET:
                    yield item
                elif finished:
                    return
                else:
                    wait()

    def _close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    def discard(self) -> None:
        self._close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def __getstate__(self) -> dict:
        # Sent away (a reader process's answer): the copy that arrives removes the file, not this one.
        self._close()
        self._owned = False
        return {"path": self.path, "count": self.count, "_out": None, "_owned": True}

    def __del__(self):
        if getattr(self, "_owned", False):
            self.discard()


_RECORD = struct.Struct("<Q")  # a spool record's length, before its pickle
_NOT_YET = object()


def _next_record(f: BinaryIO):
    """The next whole record of a spool file open at `f`, or _NOT_YET where what follows is not
    written yet (or not whole: `f` is left where the record begins, to try again)."""
    at = f.tell()
    head = f.read(_RECORD.size)
    if len(head) == _RECORD.size:
        (size,) = _RECORD.unpack(head)
        data = f.read(size)
        if len(data) == size:
            return pickle.loads(data)
    f.seek(at)
    return _NOT_YET


class Dates:
    """How many files a container holds (a mailbox's messages, an export's notes), and the first and
    last of their dates: the container's own line says them."""

    def __init__(self):
        self.count, self.first, self.last = 0, None, None

    def add(self, date: float | None) -> None:
        self.count += 1
        if date is not None:
            self.first = date if self.first is None else min(self.first, date)
            self.last = date if self.last is None else max(self.last, date)

    def line(self, name: str, what: str, noun: str, verb: str) -> str:
        """"inbox.mbox: mailbox of 2 messages, sent 2019-03-04 to 2024-03-05"."""
        nouns = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
        line = f"{name}: {what} of {self.count} {noun if self.count == 1 else nouns}"
        if self.first is not None:
            first, last = (time.strftime("%Y-%m-%d", time.gmtime(d)) for d in (self.first, self.last))
            line += f", {verb} {first}" if first == last else f", {verb} {first} to {last}"
        return line


@dataclass
class Tally:
    """What reading a container left out, for its warning lines."""
    names: list[str] = field(default_factory=list)  # every file entry seen, in order
    not_read: int = 0  # members of kinds scent does not read: counted, no line
    encrypted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # links, devices, unsafe or repeated names
    unopened: int = 0  # members not read because this container is itself inside another
    nested: list[str] = field(default_factory=list)  # containers inside this one, listed but not opened
    stopped: str = ""  # why reading stopped before the end (a limit), as a line
    damaged: str = ""  # the container broke part way: what was read before stays


class MemberReader:
    """Reads the members of one container at `path` into Member records, within `limits`."""

    def __init__(self, path: str, limits: Limits, what: str = "archive", spool: Spool | None = None):
        """`spool`: the members go there as each is read (handed over in it: `attach`), not in a list;
        the container's reader may add its own (a mailbox's messages), and it is removed if reading fails."""
        from . import file_kind

        self.path, self.limits, self.what = path, limits, what
        self._kind = file_kind
        self.members: list[Member] | Spool = spool if spool is not None else []
        self.given = 0  # members this reader read or failed (a spool also holds its container's own)
        self.tally = Tally()
        self._seen: set[str] = set()
        self._inflated = 0
        self._dir: str | None = None
        # A mailbox attached to a message spools its own messages apart: the container's folder holds
        # the container's spool alone (scent.indexing follows the file it finds there).
        self._inner = replace(limits, member_depth=limits.member_depth - 1, indexed=(),
                              spool=limits.spool and os.path.join(limits.spool, "inside"))

    def __enter__(self) -> MemberReader:
        return self

    def __exit__(self, *exc) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        if exc[0] is not None and isinstance(self.members, Spool):
            self.members.discard()

    def add(self, entry: Entry) -> bool:
        """Read one member (or count why not); False once a limit says to stop."""
        t, limits = self.tally, self.limits
        why = unsafe_name(entry.name)
        if why is None and entry.name in self._seen:
            why = "another member has the same name"
        if why is not None:
            t.refused.append(f"{entry.name!r} ({why})")
            return True
        self._seen.add(entry.name)
        t.names.append(entry.name)
        if self._kind(entry.name) is None:
            t.not_read += 1
            return True
        if limits.member_depth <= 0:
            t.unopened += 1
            return True
        if self.given >= limits.max_members:
            # A mailbox is read newest first (mail.py): its first files are its latest mail's.
            which = "the files of its newest messages" if self.what == "mailbox" else "its first files"
            t.stopped = (f"only {which}, {limits.max_members}, were read (max_archive_members); raise "
                         "max_archive_members to read the rest")
            return False
        if entry.packed is not None and entry.size > RATIO_FLOOR and entry.size > limits.max_ratio * max(entry.packed, 1):
            self._failed(entry, f"it would inflate {_size(entry.packed)} to {_size(entry.size)} (over {limits.max_ratio}x: "
                                "a zip bomb?); not read")
            return True
        left = limits.max_member_bytes - self._inflated
        if entry.size > left:
            self._failed(entry, f"it is {_size(entry.size)} uncompressed, more than the {_size(max(left, 0))} left of "
                                f"max_archive_mb for this {self.what}; raise max_archive_mb or unpack it to index it")
            return True
        self._read(entry)
        return True

    def _failed(self, entry: Entry, reason: str) -> None:
        self._give(Member(entry.name, reason=reason, date=entry.date, size=entry.size))

    def _give(self, member: Member) -> None:
        self.members.append(member)
        self.given += 1

    def _read(self, entry: Entry) -> None:
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="scent-member-")  # mode 0700: this user's alone
        folder = tempfile.mkdtemp(dir=self._dir)
        target = os.path.join(folder, safe_name(entry.name))
        try:
            try:
                digest, size = _copy(entry, target)
            except _TooLong:
                self._failed(entry, f"it inflates past the {_size(entry.size)} its {self.what} declares (damaged, or "
                                    "built to exhaust readers); not read")
                return
            except _READ_ERRORS as err:
                self._failed(entry, f"cannot be read out of the {self.what} ({type(err).__name__}: {err}); it may be "
                                    "damaged")
                return
            self._inflated += size
            from . import extract

            try:
                got = extract(target, replace(self._inner, root=folder))
            except ExtractError as err:
                self._failed(entry, err.reason)
                return
            got.sections = [_rebound(s, self.path, entry.name, target) for s in got.sections]
            if got.meta.pop("unopened", 0):  # said once, by this container, for all the ones inside it
                self.tally.nested.append(entry.name)
            self._give(Member(entry.name, got, date=entry.date, size=size, hash=digest))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def left_out(self) -> list[str]:
        """One line for each kind of thing the container's reading left out (the lines of its warning)."""
        t, lines = self.tally, []
        if t.encrypted:
            lines.append(f"{len(t.encrypted)} file(s) in it are password-protected (encrypted): scent cannot read "
                         f"them ({quoted(t.encrypted)}); unpack them with the password to index them")
        if t.refused:
            lines.append(f"{len(t.refused)} entr(ies) were not read: links, devices and names that lead outside the "
                         f"{self.what} are never followed ({quoted(t.refused)})")
        if t.nested:
            lines.append(f"{len(t.nested)} file(s) inside it hold files of their own, indexed by their names only "
                         f"({quoted(t.nested)}): files inside files are read one level deep; unpack them to index "
                         "what they hold")
        if t.stopped:
            lines.append(t.stopped)
        if t.damaged:
            lines.append(t.damaged)
        return lines


class _TooLong(Exception):
    pass


def _copy(entry: Entry, target: str) -> tuple[str, int]:
    """Write the member's bytes to `target` (at most its declared size); (sha1, bytes)."""
    h, n = hashlib.sha1(), 0
    source = entry.open()
    with open(target, "xb") as out:
        if isinstance(source, bytes):
            if len(source) > entry.size:
                raise _TooLong
            h.update(source)
            out.write(source)
            return h.hexdigest(), len(source)
        with source:
            while block := source.read(1 << 20):
                n += len(block)
                if n > entry.size:
                    raise _TooLong
                h.update(block)
                out.write(block)
    return h.hexdigest(), n


def _rebound(section, container: str, name: str, copy: str):
    """A section whose picture is read from the member's temporary copy reads it, when it is
    needed again (an image-text model), from the container instead: the copy is gone by then."""
    picture = section.picture
    if picture is None:
        return section
    load = picture.load
    if isinstance(load, partial) and load.args and load.args[0] == copy:
        section.picture = Picture(picture.locator, partial(
            _member_picture, container, name, load.func, load.args[1:], dict(load.keywords or {})))
    else:
        section.picture = None  # no way back to its pixels: the unit keeps its words
    return section


def _member_picture(container: str, name: str, func, rest: tuple, keywords: dict, side: int):
    data = read_member(container, name)
    folder = tempfile.mkdtemp(prefix="scent-member-")
    try:
        target = os.path.join(folder, safe_name(name))
        with open(target, "xb") as out:
            out.write(data)
        return func(target, *rest, side, **keywords)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# A member sent to the web UI or re-read for its pictures; the file itself is one click away.
MAX_SEND_BYTES = 256 * 1024 * 1024


def read_member(container: str, name: str, max_bytes: int = MAX_SEND_BYTES) -> bytes:
    """The bytes of member `name` of the container file at `container`; ExtractError when it has
    no such member (any more), or it is larger than `max_bytes`."""
    from . import file_kind, holds_files, reader_module

    if not holds_files(container):
        raise ExtractError(container, f"{file_kind(container) or 'this kind of'} files hold no other files")
    return reader_module(container).read_member(container, name, max_bytes)


def bounded(source: BinaryIO, path: str, name: str, size: int, max_bytes: int) -> bytes:
    """At most max_bytes of a member's bytes, or ExtractError saying it is larger."""
    if size > max_bytes:
        raise ExtractError(path, f"{name} is {_size(size)}, over the {_size(max_bytes)} that is sent of a file inside "
                                 "another; open the archive itself")
    with source:
        data = source.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise ExtractError(path, f"{name} is over {_size(max_bytes)}; open the archive itself")
    return data


def attach(got: Extracted, reader: MemberReader) -> Extracted:
    """The container's record with its members and what their reading left out."""
    got.members = reader.members
    if reader.tally.unopened:
        got.meta["unopened"] = reader.tally.unopened  # the container this one is inside says so
    lines = reader.left_out()
    if lines:  # one line for the container, however many kinds of thing were left out
        got.meta.setdefault("left_out", []).append("; ".join(lines))
    got.meta["members_not_read"] = reader.tally.not_read
    return got
