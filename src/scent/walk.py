"""Walk a folder: every indexable file, minus default excludes and .scentignore patterns."""
from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .units import FileInfo

# Folders nobody wants searched: tool state, dependencies, virtual environments, caches.
EXCLUDED_DIRS = frozenset({
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache", "site-packages", ".scent",
})
IGNORE_FILE = ".scentignore"
# Folders an application keeps inside the user's own, by (parent, name): Logseq's backups of each
# page it rewrote (logseq/bak/pages/...), which beat the live page with its stale text.
APP_STATE_DIRS = frozenset({("logseq", "bak")})

# Folders macOS shows as one file (packages) that hold nothing a person wrote: applications and
# their plug-ins (icons, compiled code, translated menus), disk images kept in bands, and what media
# applications keep for themselves (Lightroom's previews, Logic's and GarageBand's takes, iMovie's
# and Final Cut's renders). Walked, an application alone adds thousands of files of kinds scent
# does not read, and pictures that are no one's.
SOFTWARE_PACKAGES = frozenset({
    ".app", ".appex", ".framework", ".bundle", ".plugin", ".kext", ".xpc", ".prefpane", ".qlgenerator",
    ".mdimporter", ".saver", ".component", ".vst", ".vst3", ".dsym", ".xcarchive", ".sparsebundle",
    ".musiclibrary", ".tvlibrary", ".imovielibrary", ".fcpbundle", ".logicx", ".band", ".lrdata",
})
# A photo library's pictures are its originals: the rest is resized and edited copies of them (each
# photo found three times over) and the application's database. Photos 5 and later keep them in
# originals/, earlier Photos, iPhoto and Aperture in Masters/ (iPhoto before 9: Originals/).
PHOTO_LIBRARIES = {
    ".photoslibrary": frozenset({"originals", "masters"}),
    ".photolibrary": frozenset({"masters", "originals"}),
    ".aplibrary": frozenset({"masters"}),
}
# Documents macOS saves as a folder (a package) that are one file to a person: an iWork document
# kept as a package (its Index/ or Index.zip), a TextEdit document with pictures (.rtfd: TXT.rtf and
# the pictures), a note app's Markdown export (.textbundle: text.md and assets/). Each is indexed as the file it is, not walked; a folder of that name without
# those parts is a folder.
DOCUMENT_PACKAGES = {".pages": ("Index", "Index.zip"), ".key": ("Index", "Index.zip"),
                     ".numbers": ("Index", "Index.zip"), ".rtfd": ("TXT.rtf",),
                     ".textbundle": ("text.md", "text.markdown", "text.txt")}
MAX_PACKAGE_ENTRIES = 10_000  # files summed for a package's size and time; one with more is passed by
# A name the file system marks hidden (macOS's chflags hidden, as on ~/Library; Windows' hidden
# attribute, as on AppData and $RECYCLE.BIN) is hidden as a dot name is. Linux has no such mark.
_OS_MARKS_HIDDEN = hasattr(os.stat_result, "st_flags") or hasattr(os.stat_result, "st_file_attributes")

if TYPE_CHECKING:
    import pathspec


def stamp(mtime_ns: int) -> int:
    """A modification time as the index keeps it, in SQLite's 64 bits: a file dated after 2262 (a
    camera's clock, a restored backup's garbage) ended every run with an OverflowError."""
    return max(-(1 << 63), min(mtime_ns, (1 << 63) - 1))


def shown(path: str) -> str:
    """A path as text that can be stored and printed: bytes of a name that are not UTF-8 (kept
    by Python as lone surrogates) become \\xNN."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# The index stores paths as UTF-8 text, and a path made up with \\xNN would not open: such
# names are reported, not indexed.
NOT_UTF8 = "its name is not valid UTF-8 (shown as \\xNN); rename it (convmv can) to index {what}"


def _is_virtualenv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def hidden_by_os(st: os.stat_result) -> bool:
    return bool(getattr(st, "st_flags", 0) & stat.UF_HIDDEN
                or getattr(st, "st_file_attributes", 0) & stat.FILE_ATTRIBUTE_HIDDEN)


# A file whose bytes are in the cloud, not on this computer (OneDrive's and Dropbox's online-only
# files, iCloud Drive's evicted ones): opening it downloads it. macOS marks it dataless; Windows
# recalls it on open or on reading (FILE_ATTRIBUTE_RECALL_ON_OPEN, _ON_DATA_ACCESS) or calls it offline.
_DATALESS = 0x40000000  # SF_DATALESS (stat.SF_DATALESS from Python 3.13)
_RECALLED = 0x40000 | 0x400000 | 0x1000
ONLINE_ONLY = ("online only: its bytes are in the cloud (OneDrive, iCloud Drive, Dropbox), not on this computer, "
               "and scent does not download them; keep it on this device to index it")


def online_only(st: os.stat_result | None) -> bool:
    return st is not None and bool(getattr(st, "st_flags", 0) & _DATALESS
                                   or getattr(st, "st_file_attributes", 0) & _RECALLED)


def _suffix(name: str) -> str:
    return os.path.splitext(name)[1].lower()


def is_document_package(path: str) -> bool:
    """Whether the folder at `path` is a document saved as a package (DOCUMENT_PACKAGES)."""
    parts = DOCUMENT_PACKAGES.get(_suffix(path))
    return bool(parts) and os.path.isdir(path) and any(os.path.exists(os.path.join(path, p)) for p in parts)


def package_file(path: str, rel: str) -> FileInfo | None:
    """A document package as one file: the size of all its files together, the time of the latest
    change to any (so an edit inside it is a change of the document); None when it is gone or
    holds more than MAX_PACKAGE_ENTRIES entries."""
    try:
        st = os.stat(path)
        size, latest, entries = 0, stamp(st.st_mtime_ns), 0
        for top, dirs, files in os.walk(path):
            for name in dirs + files:
                entries += 1
                if entries > MAX_PACKAGE_ENTRIES:
                    return None
                inner = os.lstat(os.path.join(top, name))
                latest = max(latest, stamp(inner.st_mtime_ns))
                size += inner.st_size if stat.S_ISREG(inner.st_mode) else 0
    except OSError:
        return None
    return FileInfo(path=path, rel=rel, size=size, mtime_ns=latest, stat=st)


def package_of(rel: str) -> str:
    """The document package `rel` (a path relative to the folder) lies inside, by name, or `rel`
    itself: an event inside a package is a change of the document."""
    parts = rel.split("/")
    for i, part in enumerate(parts[:-1]):
        if _suffix(part) in DOCUMENT_PACKAGES:
            return "/".join(parts[:i + 1])
    return rel


def sidecar_of(name: str, beside: Callable[[str], bool]) -> str | None:
    """The picture or video a sidecar named `name` describes (a Google Takeout JSON: IMG_1.jpg.json,
    IMG_1.jpg.supplemental-metadata.json, or Takeout's cut of it; an .xmp: IMG_1.xmp, IMG_1.CR2.xmp),
    when `beside(that name)` says it lies in the same folder; None for any other file. Its words
    are read with the picture's (scent.extract.sidecar), so it is not a file of its own, nor one
    of a kind scent does not read."""
    from .extract import file_kind  # late: extraction imports this module

    lower = name.lower()
    if lower.endswith(".xmp"):  # IMG_1.CR2.xmp, or IMG_1.xmp beside IMG_1.<a picture's extension>
        stem = name[:-4]
        from .extract.sidecar import media_extensions

        targets = [stem, *(stem + ext for ext in media_extensions()), *(stem + ext.upper() for ext in media_extensions())]
    elif lower.endswith(".json"):
        stem, number = name[:-5], ""
        if numbered := re.fullmatch(r"(.+)(\(\d+\))", stem):  # IMG_1.jpg(1).json describes IMG_1(1).jpg
            stem, number = numbered[1], numbered[2]
        from .extract.sidecar import TAKEOUT

        head, _, tail = stem.rpartition(".")
        targets = [stem, head if tail and TAKEOUT.startswith("." + tail) else ""]
        if number:
            targets = ["{0}{2}{1}".format(*os.path.splitext(t), number) for t in targets if t]
    else:
        return None
    return next((t for t in targets if "." in t and beside(t) and file_kind(t) in ("image", "video")), None)


# Files the system or Office writes beside a person's own, which Windows and macOS hide but a copy
# on another system (a USB stick, a synced or backed-up folder) shows: Explorer's folder settings and
# thumbnail caches, a Mac folder's custom icon ("Icon" and a carriage return).
OS_FILES = frozenset({"desktop.ini", "thumbs.db", "ehthumbs.db", "ehthumbs_vista.db", "icon\r"})


def _os_file(name: str) -> bool:
    """A dot name, one of OS_FILES, a file a build tool wrote (_made_by_tools), or an Office owner
    file: "~$port.docx", kept beside report.docx while it is open (and left behind by a crash), 162
    bytes naming who has it open."""
    lower = name.lower()
    return name.startswith((".", "~$")) or lower in OS_FILES or _made_by_tools(lower)


# Files package managers and bundlers write beside a project's own: a lock file repeats every
# dependency's name and version (package-lock.json came 4th for "retry backoff", 97% sure), and a
# minified bundle holds the source's names, so it came first for the function it copies.
LOCK_FILES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
                        "poetry.lock", "pipfile.lock", "pdm.lock", "uv.lock", "cargo.lock", "gemfile.lock",
                        "composer.lock", "go.sum", "packages.lock.json", "pubspec.lock", "mix.lock"})
MINIFIED = (".min.js", ".min.mjs", ".min.css")


def _made_by_tools(name: str) -> bool:
    return name in LOCK_FILES or name.endswith(MINIFIED)


def left_out(parts: list[str]) -> bool:
    """Whether the walk passes a path by by its names alone (`parts`: its folders' names, then its
    own): a dot name, a file the system or Office writes (_os_file), a tool's folder, an application's
    package or backups (APP_STATE_DIRS), a photo library's copies."""
    *folders, name = parts
    if _os_file(name) or any(d.startswith(".") or d in EXCLUDED_DIRS or _suffix(d) in SOFTWARE_PACKAGES
                                           for d in folders):
        return True
    if any(pair in APP_STATE_DIRS for pair in zip(folders, folders[1:])):
        return True
    return any(_suffix(d) in PHOTO_LIBRARIES and (i + 1 == len(folders) or folders[i + 1].lower() not in
                                                  PHOTO_LIBRARIES[_suffix(d)])
               for i, d in enumerate(folders))


def walk(root: str | Path, *, accept: Callable[[str], bool], skip: Iterator[str] = (),
         on_error: Callable[[str, str], None] | None = None, under: str = "") -> Iterator[FileInfo]:
    """Yield FileInfo for every accepted file under `root`, in a stable order.

    `accept(path)` decides by name whether a file is indexable; `skip` holds absolute folders to
    leave out (the index itself when it lives inside the folder). An unreadable folder or a file
    that vanishes between listing and stat is reported through `on_error` and walked past.
    `under` (a folder's path relative to `root`) limits the walk to the files below it: the way
    there is walked as the whole walk would go, so the same rules keep or leave out what it finds.
    """
    target = f"{under.strip('/')}/".lstrip("/")
    root = os.path.abspath(root)
    real_root = os.path.realpath(root)
    skip = {os.path.abspath(s) for s in skip}
    spec = _load_ignore(root)

    def report(path: str, err: OSError) -> None:
        if on_error:
            on_error(shown(path), f"cannot read ({err.strerror or err}); check its permissions")

    for dirpath, dirnames, filenames in _folders(root, onerror=lambda e: report(e.filename, e)):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
        library = PHOTO_LIBRARIES.get(_suffix(dirpath)) if dirpath != root else None
        if library is not None or not rel_dir.startswith(target):
            filenames = []  # its database's files; or a folder on the way to `under`
        if ".obsidian" in dirnames and dirpath != root:  # a vault below the folder (one at it: _load_ignore)
            skip.update(os.path.join(dirpath, *folder.split("/")) for folder in obsidian_templates(dirpath))
        kept = []
        for d in sorted(dirnames):
            full = os.path.join(dirpath, d)
            if not (rel_dir + d + "/").startswith(target) and not target.startswith(rel_dir + d + "/"):
                continue  # off the way to `under`
            if not d.startswith(".") and is_document_package(full):
                filenames.append(d)  # a file to a person: yielded with the files below, not walked
                continue
            if (d.startswith(".") or d in EXCLUDED_DIRS or _suffix(d) in SOFTWARE_PACKAGES or full in skip
                    or (os.path.basename(dirpath), d) in APP_STATE_DIRS
                    or (library is not None and d.lower() not in library) or _is_virtualenv(full)):
                continue
            if spec.match_file(rel_dir + d + "/"):
                continue
            if not is_utf8(d):
                if on_error:
                    on_error(shown(full), NOT_UTF8.format(what="the files in it"))
                continue
            kept.append(d)
        dirnames[:] = kept  # os.walk descends only into what is left here
        present = set(filenames)
        for name in sorted(filenames):
            if _os_file(name) or spec.match_file(rel_dir + name) or sidecar_of(name, present.__contains__):
                continue
            full = os.path.join(dirpath, name)
            if not accept(full):
                continue
            if not is_utf8(name):
                if on_error:
                    on_error(shown(full), NOT_UTF8.format(what="it"))
                continue
            if _suffix(name) in DOCUMENT_PACKAGES and not os.path.islink(full) and os.path.isdir(full):
                if (package := package_file(full, rel_dir + name)) is not None:
                    yield package
                continue
            link = os.path.islink(full)
            try:
                st = os.stat(full)
            except OSError as err:
                if link and err.errno in _LINK_ERRORS:
                    if on_error:
                        on_error(shown(full), _LINK_ERRORS[err.errno].format(target=shown(os.readlink(full))))
                else:
                    report(full, err)
                continue
            # A link may point anywhere; index it only when its target lies inside the folder,
            # so nothing outside what the user chose to index can show up in results.
            if link and not _inside(os.path.realpath(full), real_root):
                continue
            if not stat.S_ISREG(st.st_mode):
                if on_error and not stat.S_ISDIR(st.st_mode):
                    # Reported from its stat alone: opening a FIFO blocks until something writes to it.
                    on_error(shown(full), f"{_special(st.st_mode)}, not a regular file: scent reads only "
                                          "regular files; add it to .scentignore to stop seeing this")
                continue
            yield _with_sidecars(FileInfo(path=full, rel=rel_dir + name, size=st.st_size, mtime_ns=stamp(st.st_mtime_ns),
                                          stat=st), lambda p: os.path.basename(p) in present)


def _folders(root: str, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk(root) top-down, links to folders not followed, with a stack instead of recursion:
    os.walk recurses once per level before Python 3.12, and a tree 1,000 folders deep stopped the run.
    The caller prunes `dirnames` in place to choose where it goes, as with os.walk."""
    stack = [root]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as it:
                entries = list(it)
        except OSError as err:
            onerror(err)
            continue
        dirnames, filenames = [], []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
                if _OS_MARKS_HIDDEN and hidden_by_os(entry.stat(follow_symlinks=False)):
                    continue
            except OSError:
                is_dir = False
            (dirnames if is_dir else filenames).append(entry.name)
        yield top, dirnames, filenames
        stack.extend(path for d in reversed(dirnames) if not os.path.islink(path := os.path.join(top, d)))


def files_at(root: str | Path, rels: list[str], *, accept: Callable[[str], bool], skip: Iterator[str] = ()) -> list[FileInfo]:
    """FileInfo for those of `rels` (paths relative to `root`) that `walk` would yield: the same
    excludes, ignore patterns and link rule, without walking the whole folder. A rel that is a
    folder stands for the files under it (then the folder is walked, by `walk`'s rules)."""
    root = os.path.abspath(root)
    rels = [package_of(r.replace(os.sep, "/").strip("/")) for r in rels]  # a change inside a package is its own
    rels = [_described(root, r) for r in rels]  # a Takeout JSON's change is its picture's
    folders = [r + "/" for r in rels
               if r and os.path.isdir(full := os.path.join(root, r)) and not is_document_package(full)]
    if folders:
        # A file event comes with its folder's (its list of files changed): the file is the folder's,
        # and so is a folder inside it.
        outer = [d for d in folders if not any(d != o and d.startswith(o) for o in folders)]
        found = [f for d in dict.fromkeys(outer) for f in walk(root, accept=accept, skip=skip, under=d)]
        rest = [r for r in rels if not any((r + "/").startswith(d) for d in folders)]
        return [*found, *files_at(root, rest, accept=accept, skip=skip)]
    real_root = os.path.realpath(root)
    skip = {os.path.abspath(s) for s in skip}
    spec = _load_ignore(root)
    out = []
    for rel in dict.fromkeys(r.replace(os.sep, "/").strip("/") for r in rels):
        parts = rel.split("/")
        full = os.path.join(root, *parts)
        dirs = ["/".join(parts[:i + 1]) for i in range(len(parts) - 1)]
        if (not rel or not is_utf8(rel) or left_out(parts) or _hidden_by_os(root, parts)
                or any(spec.match_file(d + "/") or _is_virtualenv(os.path.join(root, d)) for d in dirs)
                or any(_inside(full, s) for s in skip) or spec.match_file(rel) or not accept(full)):
            continue
        if os.path.islink(full) and not _inside(os.path.realpath(full), real_root):
            continue
        try:
            st = os.stat(full)
        except OSError:
            continue  # gone: the caller treats it as deleted
        if os.path.isfile(full):
            out.append(_with_sidecars(FileInfo(path=full, rel=rel, size=st.st_size, mtime_ns=stamp(st.st_mtime_ns), stat=st),
                                      os.path.isfile))
        elif is_document_package(full) and (package := package_file(full, rel)) is not None:
            out.append(package)
    return out


# Why a link's target cannot be read; any other error is the file system's, reported as such.
_LINK_ERRORS = {
    errno.ENOENT: "broken link: its target {target} does not exist; fix the link or remove it",
    errno.ELOOP: "link loop: {target} leads back to itself through links; fix the link or remove it",
}


def _with_sidecars(f: FileInfo, exists: Callable[[str], bool]) -> FileInfo:
    """A file with its companions' sizes and times counted as its own (scent.extract.companions: a
    picture's sidecars, a Keep note page's JSON): an edit of a companion alone is an edit of it."""
    from .extract import companions  # late: extraction imports this module

    for side in companions(f.path, exists):
        try:
            st = os.stat(side)
        except OSError:
            continue
        f = FileInfo(path=f.path, rel=f.rel, size=f.size + st.st_size, mtime_ns=max(f.mtime_ns, stamp(st.st_mtime_ns)),
                     stat=f.stat)
    return f


def _described(root: str, rel: str) -> str:
    folder, _, name = rel.rpartition("/")
    target = sidecar_of(name, lambda n: os.path.isfile(os.path.join(root, folder, n)))
    return f"{folder}/{target}" if target and folder else target or rel


def _hidden_by_os(root: str, parts: list[str]) -> bool:
    if not _OS_MARKS_HIDDEN:
        return False
    for i in range(len(parts)):
        try:
            if hidden_by_os(os.lstat(os.path.join(root, *parts[:i + 1]))):
                return True
        except OSError:
            return False  # gone: the caller finds out
    return False


def _special(mode: int) -> str:
    for test, what in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return what
    return "a special file"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _load_ignore(root: str) -> pathspec.PathSpec:
    import pathspec  # only a walk needs it; a search imports this module for is_utf8 and shown

    path = os.path.join(root, IGNORE_FILE)
    lines: list[str] = []
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines + [f"/{folder}/" for folder in obsidian_templates(root)])


# Where an Obsidian vault keeps its note templates (core Templates, and the Templater plugin):
# the setting's file under .obsidian, and its key.
_TEMPLATE_SETTINGS = ((".obsidian/templates.json", "folder"),
                      (".obsidian/plugins/templater-obsidian/data.json", "templates_folder"))


def obsidian_templates(root: str) -> list[str]:
    """The template folders of an Obsidian vault at `root`, relative to it: a template is a note's
    blank form ({{date}}, {{title}}), in the results of most questions a vault was asked, and its
    {{date}} front matter was said not valid YAML at every run."""
    import json

    out = []
    for name, key in _TEMPLATE_SETTINGS:
        try:
            with open(os.path.join(root, name), encoding="utf-8") as fh:
                folder = json.load(fh).get(key)
        except (OSError, ValueError, AttributeError):
            continue
        folder = folder.strip().strip("/") if isinstance(folder, str) else ""
        if folder and ".." not in folder.split("/"):
            out.append(folder)
    return out
