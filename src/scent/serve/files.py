"""Which file a client may read, and how to send it. Only paths that are in the index, inside
the indexed folder after resolving symlinks, are ever opened."""
from __future__ import annotations

import io
import mimetypes
import zipfile
from collections import OrderedDict
from pathlib import Path
from threading import Lock

from ..errors import ScentError
from ..walk import is_document_package

# Types a browser shows without running anything the file holds. Everything else that is text
# (HTML, SVG, markdown, code ...) goes out as text/plain, so no script from a user's file runs.
SAFE_TYPES = {"application/pdf", "image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp", "image/tiff",
              "video/mp4", "video/webm", "video/quicktime", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/flac",
              "audio/x-wav", "audio/wav"}
DOWNLOAD_TYPES = {".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}
# Kinds of files that are bytes for a program, not text: shown as text they are garbage, so one a
# browser cannot show (not in SAFE_TYPES) is handed over as a download. A drawing kept as text
# (an SVG, draw.io or Excalidraw file: kind `image`) is still shown as text.
# (A .pdf is sent as application/pdf before this is asked; a "pdf" of another name is a DjVu book.)
BINARY_KINDS = frozenset({"docx", "sheet", "slides", "odt", "epub", "archive", "video", "audio", "image", "pdf"})
TEXT_DRAWINGS = frozenset({".svg", ".svgz", ".drawio", ".dio", ".excalidraw"})
# A user's file shown as a page: sandboxed (no script, no same-origin access even if a browser
# ever took it for HTML), loading nothing, framed only by scent's own page.
FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'self'"
# Chromium's PDF viewer does not run in a sandboxed document; a PDF runs no page script anyway.
PDF_CSP = "frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
THUMB_PX = 320
MAX_PICTURE_PX = 1600  # the largest picture /api/thumb makes (the preview pane's, on a wide screen)
PDF_THUMB_SCALE = 0.6


class Refused(ScentError):
    """A path the client may not read. `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        self.status = status
        super().__init__(message)


def check_rel(rel: str) -> str:
    """`rel` if it is a plain relative POSIX path, else Refused (traversal, absolute, odd bytes).

    `rel` is checked as it is: the server decoded it once already, and a name may hold a literal
    `%2e%2e%2f` (decoding again would refuse that file, and guards nothing the resolve misses)."""
    if not rel:
        raise Refused(400, "path is empty; give a path relative to the indexed folder")
    if "\x00" in rel or "\\" in rel:
        raise Refused(403, "path must not contain NUL bytes or backslashes")
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        raise Refused(403, "path must be relative to the indexed folder")
    if any(part in ("..", ".") for part in rel.split("/")):
        raise Refused(403, "path must not contain '..' or '.' segments")
    return rel


def resolve(root: str, rel: str, indexed: bool) -> Path:
    """The real file behind indexed path `rel`, checked to lie inside `root`."""
    check_rel(rel)
    if not indexed:
        raise Refused(404, f"{rel} is not in the index")
    base = Path(root).resolve()
    path = (base / rel).resolve()
    if not path.is_relative_to(base):
        raise Refused(403, f"{rel} leads outside the indexed folder")
    if not path.is_file() and not is_document_package(str(path)):
        raise Refused(404, f"{rel} is in the index but no longer on disk; re-index the folder")
    return path


def zipped_package(path: Path) -> tuple[bytes, dict[str, str]]:
    """A document saved as a folder (scent.walk.DOCUMENT_PACKAGES) as one zip to download, and its
    headers: a browser can take a file, not a folder. Refused past MAX_SEND_BYTES."""
    from ..extract.members import MAX_SEND_BYTES

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for inner in sorted(path.rglob("*")):
            if inner.is_file() and not inner.is_symlink():
                if out.tell() + inner.stat().st_size > MAX_SEND_BYTES:
                    raise Refused(413, f"{path.name} is over {MAX_SEND_BYTES // 2**20} MB; open it from its folder")
                z.write(inner, f"{path.name}/{inner.relative_to(path).as_posix()}")
    return out.getvalue(), {"Content-Disposition": f'attachment; filename="{_ascii(path.name)}.zip"',
                            "Content-Security-Policy": FILE_CSP}


def locate(root: str, rel: str, indexed: bool) -> tuple[Path, str | None]:
    """(the real file, None) for indexed path `rel`; for a file inside another (CONTAINER#NAME:
    an archive member, a mail attachment) (the container's real file, NAME). Either is checked
    to lie inside `root`."""
    check_rel(rel)
    if not indexed:
        raise Refused(404, f"{rel} is not in the index")
    base = Path(root).resolve()
    path = (base / rel).resolve()
    if path.is_relative_to(base) and path.is_file():
        return path, None
    from ..extract import holds_files

    at = rel.find("#")
    while at != -1:  # a container's own name may hold '#': the first prefix that is a container on disk
        prefix = rel[:at]
        # By its place on disk, as the walk knew it: a Thunderbird folder in the indexed Local Folders
        # itself is a mailbox by its parent's name, which the path relative to it does not hold.
        if holds_files(str(base / prefix)):
            container = (base / prefix).resolve()
            if container.is_relative_to(base) and container.is_file():
                return container, rel[at + 1:]
        at = rel.find("#", at + 1)
    return resolve(root, rel, indexed), None


def member_bytes(container: Path, name: str, max_bytes: int | None = None) -> bytes:
    """The bytes of file `name` inside `container`, bounded; Refused (404) when it cannot be had."""
    from ..errors import ExtractError
    from ..extract.members import MAX_SEND_BYTES, read_member

    try:
        return read_member(str(container), name, max_bytes or MAX_SEND_BYTES)
    except ExtractError as err:
        raise Refused(404, f"{container.name}#{name}: {err.reason}") from None
    except (OSError, ValueError, EOFError) as err:  # the container changed under us, or broke
        raise Refused(404, f"{container.name}#{name} cannot be read out of {container.name} ({err}); "
                           "re-index the folder") from None


def content_type(path: Path) -> tuple[str, dict[str, str]]:
    """The Content-Type to send `path` with, and extra headers."""
    suffix = path.suffix.lower()
    if suffix in DOWNLOAD_TYPES:
        return DOWNLOAD_TYPES[suffix], {"Content-Disposition": f'attachment; filename="{_ascii(path.name)}"',
                                        "Content-Security-Policy": FILE_CSP}
    guessed, _ = mimetypes.guess_type(path.name)
    if guessed in SAFE_TYPES:
        return guessed, {"Content-Security-Policy": PDF_CSP if guessed == "application/pdf" else FILE_CSP}
    from ..extract import file_kind

    if (file_kind(path.name) in BINARY_KINDS and suffix not in TEXT_DRAWINGS) or suffix == ".msg":
        return "application/octet-stream", {"Content-Disposition": f'attachment; filename="{_ascii(path.name)}"',
                                            "Content-Security-Policy": FILE_CSP}
    return "text/plain; charset=utf-8", {"Content-Security-Policy": FILE_CSP}


def _ascii(name: str) -> str:
    return "".join(ch if 32 <= ord(ch) < 127 and ch not in '"\\' else "_" for ch in name)


class Thumbnails:
    """JPEGs of pictures and PDF pages (a result's thumbnail, the preview pane's larger picture), kept
    in an LRU cache keyed by file version and size, bounded in count and in bytes."""

    def __init__(self, size: int = 256, most_bytes: int = 64 << 20):
        self.size, self.most_bytes = size, most_bytes
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = Lock()

    def get(self, path: Path, kind: str, page: int | None, member: str | None = None, px: int = THUMB_PX) -> bytes:
        """The picture of `path`, or of file `member` inside it (an archive member, an attachment),
        at most `px` pixels a side."""
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size, page, member, px)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        data = make_thumbnail(path if member is None else member_bytes(path, member), kind, page, px,
                              name=member or path.name)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = data
                self._bytes += len(data)
            while len(self._cache) > self.size or self._bytes > self.most_bytes:
                self._bytes -= len(self._cache.popitem(last=False)[1])
        return data


def make_thumbnail(path: Path | bytes, kind: str, page: int | None, px: int = THUMB_PX, name: str = "") -> bytes:
    """A JPEG of a picture or PDF page, from its file or (a file inside another) its bytes."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageOps, UnidentifiedImageError

    from ..extract import djvu, raw
    from ..pdfium_lock import PDFIUM

    data = isinstance(path, bytes)
    name = name or (path.name if not data else "the file")
    try:
        if kind == "pdf" and name.lower().endswith(djvu.EXTENSIONS):
            img = djvu.page_picture(path if data else str(path), page or 1, 2 * px)
        elif kind == "pdf":
            with PDFIUM:
                doc = pdfium.PdfDocument(path if data else str(path))
                try:
                    number = page or 1
                    if not 1 <= number <= len(doc):
                        raise Refused(404, f"{name} has no page {number} (it has {len(doc)})")
                    img = doc[number - 1].render(scale=PDF_THUMB_SCALE * px / THUMB_PX).to_pil()
                finally:
                    doc.close()
        elif kind == "image" and name.lower().endswith((".svg", ".svgz")):
            from ..extract import svg

            img = svg.render(path if data else path.read_bytes(), 2 * px)
        elif kind == "video":
            from ..extract import media

            img = media.frame(io.BytesIO(path) if data else str(path), 2 * px)
        elif kind == "image" and name.lower().endswith(raw.EXTENSIONS):
            img = raw.load_picture(io.BytesIO(path) if data else str(path), 2 * px)
        elif kind == "image":
            with Image.open(io.BytesIO(path) if data else path) as src:
                img = ImageOps.exif_transpose(src)
                img.load()
        else:
            raise Refused(404, f"no thumbnail for {kind} files")
        img.thumbnail((px, px))
        out = io.BytesIO()
        from ..ocr import flat_rgb  # transparency onto white: JPEG has none, and converted it was black

        flat_rgb(img).save(out, "JPEG", quality=80)
        return out.getvalue()
    except (OSError, UnidentifiedImageError, ValueError, pdfium.PdfiumError) as err:
        raise Refused(404, f"cannot make a thumbnail of {name}: {err}") from None

