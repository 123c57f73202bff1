"""Archives: .zip and tars (.tar, .tar.gz, .tgz, .tar.bz2, .tar.xz) read with the standard library's
zipfile and tarfile; 7-Zip (.7z) and RAR (.rar) archives with libarchive (the system's library,
through libarchive-c), one member after another as they are stored (a solid archive is inflated
in order, never all at once).

Each member scent reads becomes a file of the index of its own (scent.extract.members); the
archive itself gets one `archive` section listing its members' names, so "the zip with the
invoices" finds it, and so do members scent does not read (a .psd, an .exe), by name.

A tar member is never extracted by tarfile (no `extract`, no `extractall`): its bytes are copied
from `extractfile` to a path scent chose, and only regular files are read; links, devices and
names with '..' or a leading '/' are counted and said, never followed. A tar.gz must be inflated
to reach each header, so the bytes passed over count against the container's limits too, and a
stream that inflates beyond max_ratio stops there.
"""
from __future__ import annotations

import os
import stat
import tarfile
import time
import zipfile
import zlib
from contextlib import contextmanager

from scent.errors import ExtractError
from scent.units import Extracted, Section
from .base import Limits, _size, named, unreadable
from .members import RATIO_FLOOR, Entry, MemberReader, Spool, attach, bounded
from .package import zip_entries

# .jex: a Joplin export, a tar of its notes (Markdown) and their resources.
_TARS = (".tar", ".tgz", ".tar.gz", ".tbz2", ".tar.bz2", ".txz", ".tar.xz", ".jex")
_LIBARCHIVE = (".7z", ".rar", ".cb7", ".cbr")
# .cbz, .cbr, .cb7: comic books, a zip, RAR or 7-Zip archive of its pages' pictures.
EXTENSIONS = (".zip", ".cbz", *_TARS, *_LIBARCHIVE)
NAMES_LISTED = 200  # member names in the archive's own unit; the rest are counted
# zipfile lists every entry of the central directory before the first is read (~0.5 KB each):
# past this many, the listing alone would take half a gigabyte.
MAX_ZIP_ENTRIES = 1_000_000


def is_tar(path: str) -> bool:
    return path.lower().endswith(_TARS)


def _by_libarchive(path: str) -> bool:
    return path.lower().endswith(_LIBARCHIVE)


def extract(path: str, limits: Limits) -> Extracted:
    """The archive's listing, and its members, read one at a time. Where the indexer gives a spool
    folder (Limits.spool) they are handed over in a spool as each is read (members.Spool): the
    indexer embeds the first while the rest are read (a zip of scans to OCR), and holds a few."""
    name = os.path.basename(path)
    with MemberReader(path, limits, "archive", Spool(limits.spool) if limits.spool else None) as reader:
        for entry in _entries(path, limits, reader):
            if not reader.add(entry):
                break
        names = reader.tally.names
        text = f"{name}: archive of {len(names)} file(s)\n" + "\n".join(names[:NAMES_LISTED])
        if len(names) > NAMES_LISTED:
            text += f"\n... and {len(names) - NAMES_LISTED} more"
        got = Extracted(kind="archive", sections=[Section(text=text, kind="archive", title=name)], title=name)
        return attach(got, reader)


def _entries(path: str, limits: Limits, reader: MemberReader):
    """The archive's members as Entry records, by the library that reads its format."""
    if _by_libarchive(path):
        with _open_libarchive(path) as archive:
            yield from _libarchive_entries(archive, path, limits, reader)
    elif is_tar(path):
        with _open_tar(path) as tar:
            yield from _tar_entries(tar, path, limits, reader)
    else:
        with _open_zip(path) as z:
            yield from _zip_entries(z, reader)


def _open_zip(path: str) -> zipfile.ZipFile:
    declared = zip_entries(path)
    if declared is not None and declared > MAX_ZIP_ENTRIES:
        raise ExtractError(path, f"the zip archive lists {declared:,} files (over {MAX_ZIP_ENTRIES:,}): reading its "
                                 "list alone would take gigabytes of memory; unpack it yourself, or add it to "
                                 ".scentignore")
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, NotImplementedError) as e:
        raise unreadable(path, "zip archive", named(e), "it may be damaged, cut short, or another format renamed",
                         "add it to .scentignore") from e


def _zip_date(info: zipfile.ZipInfo) -> float | None:
    try:
        return time.mktime((*info.date_time, 0, 0, -1))  # a zip's times are local, as the zipping machine's clock
    except (OverflowError, ValueError):
        return None


def _zip_entries(z: zipfile.ZipFile, reader: MemberReader):
    for info in z.infolist():
        if info.is_dir():
            continue
        mode = info.external_attr >> 16
        if mode and not stat.S_ISREG(mode) and stat.S_IFMT(mode):  # a symlink stored by Info-ZIP
            reader.tally.refused.append(f"{info.filename!r} (a link)")
            continue
        if info.flag_bits & 0x1:
            reader.tally.encrypted.append(info.filename)
            continue
        yield Entry(info.filename, info.file_size, lambda info=info: z.open(info), date=_zip_date(info),
                    packed=info.compress_size)


def _open_tar(path: str) -> tarfile.TarFile:
    try:
        return tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
        raise unreadable(path, "tar archive", named(e), "it may be damaged, cut short, or another format renamed",
                         "add it to .scentignore") from e


def _tar_entries(tar: tarfile.TarFile, path: str, limits: Limits, reader: MemberReader):
    """The regular files of the tar, in order. Reaching a header means inflating every byte before
    it, so what is passed over is bounded as what is read is: by max_archive_mb and max_ratio."""
    packed = max(os.path.getsize(path), 1)
    passed = 0
    info = _first(tar, reader)
    while info is not None:
        passed += 512 + -(-info.size // 512) * 512 if info.isreg() else 512
        if _too_far(passed, packed, limits, reader):
            return
        if info.isreg():
            yield Entry(info.name, info.size, lambda info=info: tar.extractfile(info),
                        date=float(info.mtime) if info.mtime else None)
        elif not info.isdir():
            what = "a link" if info.issym() or info.islnk() else "a device or special file"
            reader.tally.refused.append(f"{info.name!r} ({what})")
        try:
            info = tar.next()
        except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
            reader.tally.damaged = (f"it is damaged after {len(reader.tally.names)} file(s) ({type(e).__name__}: {e}); "
                                    "those before are indexed")
            return


@contextmanager
def _open_libarchive(path: str):
    try:
        import libarchive
    except (ImportError, OSError, AttributeError):  # libarchive-c finds no libarchive.so
        raise ExtractError(path, f"{os.path.splitext(path)[1].lower()} archives are read by libarchive, which is not "
                                 "installed here; sudo apt-get install libarchive13") from None
    opened = libarchive.file_reader(path)
    try:
        archive = opened.__enter__()  # where libarchive reads the file's head
    except libarchive.ArchiveError as e:
        raise _unreadable_libarchive(path, e) from None
    try:
        yield archive
    finally:
        opened.__exit__(None, None, None)


def _unreadable_libarchive(path: str, e) -> ExtractError:
    what = "7-Zip archive" if path.lower().endswith((".7z", ".cb7")) else "RAR archive"
    return unreadable(path, what, _said(e), "it may be damaged, cut short, encrypted, or another format renamed",
                      "add it to .scentignore")


def _said(e) -> str:
    """libarchive's own words for an error (not its pointers and return codes)."""
    return getattr(e, "msg", None) or "its data does not decode"


def _libarchive_entries(archive, path: str, limits: Limits, reader: MemberReader):
    """The regular files of a 7-Zip or RAR archive, in stored order, bounded as a tar's are (reaching
    a member of a solid archive means inflating those before it)."""
    import libarchive

    packed = max(os.path.getsize(path), 1)
    passed = 0
    entries = iter(archive)
    while True:
        try:
            entry = next(entries)
        except StopIteration:
            return
        except libarchive.ArchiveError as e:
            if not reader.tally.names:
                raise _unreadable_libarchive(path, e) from None
            reader.tally.damaged = (f"it is damaged after {len(reader.tally.names)} file(s) ({_said(e)}); "
                                    "those before are indexed")
            return
        passed += max(entry.size or 0, 0)
        if _too_far(passed, packed, limits, reader):
            return
        if entry.isreg:
            yield Entry(entry.pathname, entry.size or 0, lambda entry=entry: _Blocks(entry),
                        date=float(entry.mtime) if entry.mtime else None)
        elif not entry.isdir:
            what = "a link" if entry.issym or entry.islnk else "a device or special file"
            reader.tally.refused.append(f"{entry.pathname!r} ({what})")


class _Blocks:
    """A libarchive member's bytes as the file object members.py reads: at most what is asked (the
    rest of a block kept for the next read), and libarchive's errors (an encrypted member, a
    damaged block) as the OSError a read raises."""

    def __init__(self, entry):
        self._blocks = entry.get_blocks()
        self._rest = b""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass

    def read(self, n: int = -1) -> bytes:
        import libarchive

        out, got = [self._rest], len(self._rest)
        try:
            while n < 0 or got < n:
                block = next(self._blocks, None)
                if block is None:
                    break
                out.append(block)
                got += len(block)
        except libarchive.ArchiveError as e:
            raise OSError(f"it cannot be inflated ({_said(e)})") from None
        data = b"".join(out)
        data, self._rest = (data, b"") if n < 0 else (data[:n], data[n:])
        return data


def _too_far(passed: int, packed: int, limits: Limits, reader: MemberReader) -> bool:
    """Whether an archive read in order (a tar, a solid 7-Zip) has inflated, up to the member now
    reached, past max_archive_mb or max_ratio times its own size; then the tally says so."""
    if passed > limits.max_member_bytes:
        reader.tally.stopped = (f"only the files within its first {_size(limits.max_member_bytes)} were read "
                                "(max_archive_mb); raise max_archive_mb to read the rest")
        return True
    if passed > RATIO_FLOOR and passed > limits.max_ratio * packed:
        reader.tally.stopped = (f"it inflates over {limits.max_ratio}x its size (a bomb?): files past "
                                f"{_size(passed)} were not read; unpack it yourself if it is genuine")
        return True
    return False


def _first(tar: tarfile.TarFile, reader: MemberReader):
    try:
        return tar.next()  # the member TarFile read on opening
    except (tarfile.TarError, OSError, EOFError, zlib.error) as e:
        reader.tally.damaged = f"it is damaged ({type(e).__name__}: {e})"
        return None


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name` (bounded); ExtractError when it is not there or not a regular file."""
    if _by_libarchive(path):
        import libarchive

        with _open_libarchive(path) as archive:
            try:
                for entry in archive:
                    if entry.pathname == name and entry.isreg:
                        return bounded(_Blocks(entry), path, name, entry.size or 0, max_bytes)
            except libarchive.ArchiveError as e:
                raise ExtractError(path, f"{name} cannot be read out of the archive ({_said(e)})") from None
            except OSError as e:
                raise ExtractError(path, f"{name} cannot be read out of the archive ({e})") from None
        raise ExtractError(path, f"the archive holds no file {name} (any more); re-index the folder")
    if is_tar(path):
        with _open_tar(path) as tar:
            try:
                info = tar.getmember(name)
            except (KeyError, tarfile.TarError, OSError, EOFError, zlib.error):
                raise ExtractError(path, f"the archive holds no file {name} (any more); re-index the folder") from None
            if not info.isreg():
                raise ExtractError(path, f"{name} is not a regular file of the archive")
            return bounded(tar.extractfile(info), path, name, info.size, max_bytes)
    with _open_zip(path) as z:
        try:
            info = z.getinfo(name)
        except KeyError:
            raise ExtractError(path, f"the archive holds no file {name} (any more); re-index the folder") from None
        if info.flag_bits & 0x1:
            raise ExtractError(path, f"{name} is password-protected (encrypted)")
        try:
            return bounded(z.open(info), path, name, info.file_size, max_bytes)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as e:
            raise ExtractError(path, f"{name} cannot be read out of the archive ({type(e).__name__}: {e})") from None
