"""Bad files as a measured class: makers for every kind of bad file scent meets, beside a few good
files, for tests/test_bad_files.py and scripts/bad_input_figures.py.

`make_folder(root)` writes them all; `KINDS` names each kind, the file (or files) it makes and what
it must come to: "skip" (one line saying why, no units), "index" (indexed, perhaps with a warning
line), or "either" (a file whose outcome depends on the reader's tolerance: only the bounds hold).
Two kinds happen while a run reads: CHILD's hooks delete one file and make another grow just before
it is read, as a person saving or deleting a file during a run would.
"""
from __future__ import annotations

import base64
import functools
import io
import json
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

# Words found only in the good files: each must come back as the top hit after every run.
GOOD = {
    "good/garden.md": ("# Garden\n\nPlant the garlic cloves in October, pointy end up.\n", "garlic cloves October"),
    "good/soup.txt": ("Tomato soup: simmer tomatoes with basil for twenty minutes.\n", "tomato basil simmer"),
    "good/boiler.pdf": (None, "boiler serviced engineer"),
    "good/parse.py": ("def parse_invoice(line):\n    return line.split(';')  # invoice fields\n", "parse_invoice"),
    "good/photo-heron.png": (None, "heron"),
    "zzz-last.txt": ("The very last file of the walk mentions the kingfisher nest.\n", "kingfisher nest"),
}
DEEP_LEVELS = 300
DEEP_FILE = "deep/" + "d/" * DEEP_LEVELS + "bottom.txt"  # a good file 300 folders down
GOOD_DEEP_WORDS = "bottom well bucket"
GROWING, VANISHING = "while-read/growing.log", "while-read/vanishing.txt"
OUTSIDE_WORDS = "outsider secret"  # in a file outside the folder that a link points to


@dataclass(frozen=True)
class Kind:
    name: str
    files: tuple[str, ...]  # paths relative to the folder (as the index shows them)
    outcome: str  # "skip", "index" or "either"
    slow: bool = False


KINDS: list[Kind] = []
_MAKERS: dict[str, callable] = {}


def kind(name, files, outcome, slow=False):
    def register(fn):
        KINDS.append(Kind(name, tuple(files), outcome, slow))
        _MAKERS[name] = fn
        return fn
    return register


# ---- helpers -----------------------------------------------------------------------------------

def pdf_bytes(pages: list[str], password: str | None = None) -> bytes:
    pdf = FPDF()
    if password:
        pdf.set_encryption(owner_password="o", user_password=password)
    pdf.set_font("helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def text_picture(lines: list[str], mode: str = "RGB") -> Image.Image:
    face = ImageFont.load_default(size=36)
    image = Image.new("RGB", (900, 60 + 60 * len(lines)), "white")
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((30, 30 + 60 * i), line, font=face, fill="black")
    return image.convert(mode)


def photo(w: int = 320, h: int = 240, seed: int = 7) -> Image.Image:
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, h)[:, None, None]
    pixels = np.where(y < 0.6, np.array([90, 150, 230]) * (1 - 0.3 * y), np.array([50, 140, 60])) * np.ones((h, w, 3))
    pixels += rng.normal(0, 18, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def write(root: Path, rel: str, data: bytes | str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)
    return path


def zip_of(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


BOMB_BYTES = 1 << 30  # what one bomb member inflates to: 1 GiB, from about 1 MB on disk
_BOMB: tuple[bytes, int] | None = None


def _bomb_stream() -> tuple[bytes, int]:
    """A raw deflate stream of BOMB_BYTES of '<' characters (XML that never parses) and its CRC,
    made once: writing a gigabyte through ZipFile for every bomb would cost seconds each."""
    global _BOMB
    if _BOMB is None:
        block = b"<" * (1 << 24)
        comp = zlib.compressobj(9, zlib.DEFLATED, -15)
        parts, crc = [], 0
        for _ in range(BOMB_BYTES // len(block)):
            parts.append(comp.compress(block))
            crc = zlib.crc32(block, crc)
        parts.append(comp.flush())
        _BOMB = (b"".join(parts), crc)
    return _BOMB


def zip_bomb(members: dict[str, bytes], bomb_member: str) -> bytes:
    """A valid zip holding `members` and `bomb_member`, which inflates to BOMB_BYTES. Written by
    hand from the stored deflate stream (the zip format: local headers, data, central directory)."""
    data, crc = _bomb_stream()
    entries = []  # (name, method, crc, compressed, size, offset)
    out = io.BytesIO()
    for name, raw in [*members.items(), (bomb_member, None)]:
        if raw is None:
            method, c, comp, size = 8, crc, data, BOMB_BYTES
        else:
            method, c, size = 8, zlib.crc32(raw), len(raw)
            co = zlib.compressobj(6, zlib.DEFLATED, -15)
            comp = co.compress(raw) + co.flush()
        offset = out.tell()
        encoded = name.encode()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, c, len(comp), size,
                              len(encoded), 0) + encoded)
        out.write(comp)
        entries.append((encoded, method, c, len(comp), size, offset))
    start = out.tell()
    for encoded, method, c, csize, size, offset in entries:
        out.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, c, csize, size,
                              len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
    end = out.tell()
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), end - start, start, 0))
    return out.getvalue()


def _zipcrypto(data: bytes, password: bytes, crc: int) -> bytes:
    """`data` encrypted as PKWARE's traditional zip encryption does (what `zip -P` writes, and
    zipfile reads with pwd=): a 12-byte header ending in the CRC's high byte, then the bytes."""
    def crc_byte(crc, b):
        return ~zlib.crc32(bytes([b]), ~crc & 0xFFFFFFFF) & 0xFFFFFFFF

    keys = [0x12345678, 0x23456789, 0x34567890]

    def update(b):
        keys[0] = crc_byte(keys[0], b)
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        keys[2] = crc_byte(keys[2], keys[1] >> 24)

    for b in password:
        update(b)
    out = bytearray()
    for b in bytes(11) + bytes([crc >> 24]) + data:
        t = (keys[2] | 2) & 0xFFFF
        out.append(b ^ (((t * (t ^ 1)) >> 8) & 0xFF))
        update(b)
    return bytes(out)


def encrypted_zip(members: dict[str, bytes], password: bytes) -> bytes:
    """A zip whose members are stored and password-protected (flag bit 0), written by hand as
    zip_bomb is: zipfile reads such zips but cannot write them."""
    entries, out = [], io.BytesIO()
    for name, raw in members.items():
        crc = zlib.crc32(raw)
        comp = _zipcrypto(raw, password, crc)
        offset, encoded = out.tell(), name.encode()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 1, 0, 0, 0x21, crc, len(comp), len(raw),
                              len(encoded), 0) + encoded + comp)
        entries.append((encoded, crc, len(comp), len(raw), offset))
    start = out.tell()
    for encoded, crc, csize, size, offset in entries:
        out.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 1, 0, 0, 0x21, crc, csize, size,
                              len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
    end = out.tell()
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), end - start, start, 0))
    return out.getvalue()


def nested_zip(levels: int, fan: int, bottom: bytes) -> bytes:
    """42.zip's shape: `fan` zips in a zip, `levels` deep, a bomb member at the bottom."""
    data = bottom
    for level in range(levels):
        data = zip_of({f"lib {i}.zip" if level else f"book {i}.zip": data for i in range(fan)})
    return data


def evil_tar() -> bytes:
    """A tar.gz with a good note, a member named ../evil.txt, an absolute one, a symlink out of the
    folder, a hard link and a character device (made by tarfile without privileges)."""
    import tarfile

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in {"good.md": b"# Tar\n\nThe osprey nest on the tar island.\n",
                           "../evil.txt": b"evil words that must never land outside\n",
                           "/etc/evil.txt": b"absolute evil\n"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, kind, target in (("link.txt", tarfile.SYMTYPE, "/etc/passwd"), ("hard.txt", tarfile.LNKTYPE, "good.md"),
                                   ("tty.txt", tarfile.CHRTYPE, "")):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, target
            tar.addfile(info)
    return out.getvalue()


# ---- PDFs --------------------------------------------------------------------------------------

@kind("damaged PDF", ["pdf/damaged.pdf"], "skip")
def _(root):
    write(root, "pdf/damaged.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 20)


@kind("truncated PDF", ["pdf/truncated.pdf"], "either")
def _(root):
    whole = pdf_bytes(["The first page of a report cut short.", "Its second page."])
    write(root, "pdf/truncated.pdf", whole[: len(whole) // 2])


@kind("encrypted PDF", ["pdf/encrypted.pdf"], "skip")
def _(root):
    write(root, "pdf/encrypted.pdf", pdf_bytes(["The safe combination is hidden here."], password="u"))


def zero_page_pdf() -> bytes:
    """A well-formed PDF whose page tree is empty (byte offsets computed, so no repair is needed)."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


@kind("zero-page PDF", ["pdf/zero-pages.pdf"], "either")
def _(root):
    write(root, "pdf/zero-pages.pdf", zero_page_pdf())


@kind("PDF that is a JPEG", ["pdf/really-a-jpeg.pdf"], "skip")
def _(root):
    buf = io.BytesIO()
    photo().save(buf, "JPEG")
    write(root, "pdf/really-a-jpeg.pdf", buf.getvalue())


@kind("2,000-page PDF", ["pdf/ledger-2000-pages.pdf"], "index", slow=True)
def _(root):
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for n in range(1, 2001):
        pdf.add_page()
        pdf.cell(text=f"Ledger page {n}: berth fees for mooring pier{n} checked.")
    write(root, "pdf/ledger-2000-pages.pdf", bytes(pdf.output()))


# ---- empty files and binary data under text names ---------------------------------------------

def _zero_names() -> list[str]:
    from scent.extract import _KIND_BY_EXTENSION, _KIND_BY_NAME

    return [f"empty/zero{ext}" for ext in sorted(_KIND_BY_EXTENSION)] + [f"empty/{n}" for n in ("Makefile", "README")]


@kind("zero-byte file of every extension", _zero_names(), "either")
def _(root):
    for rel in _zero_names():
        write(root, rel, b"")


_BINARY = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 16


@kind("binary data under text names", [f"binary/data{e}" for e in (".txt", ".md", ".py", ".json", ".csv",
                                                                 ".html", ".rtf", ".eml", ".log")], "skip")
def _(root):
    for e in (".txt", ".md", ".py", ".json", ".csv", ".html", ".rtf", ".eml", ".log"):
        write(root, f"binary/data{e}", _BINARY)


@kind("random bytes under picture names", ["binary/noise.jpg", "binary/noise.png", "binary/noise.heic"], "skip")
def _(root):
    rng = np.random.default_rng(3)
    for name in ("noise.jpg", "noise.png", "noise.heic"):
        write(root, f"binary/{name}", rng.integers(0, 256, 4096, dtype=np.uint8).tobytes())


# ---- text --------------------------------------------------------------------------------------

@kind("invalid UTF-8 text", ["text/invalid-utf8.txt"], "index")
def _(root):
    write(root, "text/invalid-utf8.txt", b"Caf\xe9 menu: cr\xeape, \xff\xfe broken \xc3\x28 bytes, plain words stay.\n")


@kind("UTF-16 text with a BOM", ["text/utf16-bom.txt"], "index")
def _(root):
    write(root, "text/utf16-bom.txt", "Notes in UTF-16: the otter holt by the weir.\n".encode("utf-16"))


@kind("UTF-16 text without a BOM", ["text/utf16-le.txt"], "either")
def _(root):
    write(root, "text/utf16-le.txt", "Notes in UTF-16LE without a mark.\n".encode("utf-16-le"))


@kind("UTF-16 with a lone surrogate", ["text/utf16-surrogate.txt"], "either")
def _(root):
    write(root, "text/utf16-surrogate.txt", b"\xff\xfe" + "lone ".encode("utf-16-le") + b"\x00\xd8" +
          " surrogate".encode("utf-16-le"))


@kind("50 MB single line", ["text/one-line-50mb.txt"], "index", slow=True)
def _(root):
    word = b"ledger "
    write(root, "text/one-line-50mb.txt", word * ((50 * 1024 * 1024 - 1024) // len(word)))


@kind("NUL bytes in a text file", ["text/nul.md"], "either")
def _(root):
    write(root, "text/nul.md", b"# Title\n\nwords \x00\x00 between NULs\x00 and more words\n")


@kind("CSV with NUL bytes", ["data/nul.csv"], "either")
def _(root):
    write(root, "data/nul.csv", b"name,amount\nrent\x00,1200\nwater,4\x005\n")


@kind("CSV with ragged rows", ["data/ragged.csv"], "index")
def _(root):
    write(root, "data/ragged.csv", "name,amount,note\nrent,1200\nwater,45,paid,late,again\n,,,,,,,,\nx\n")


@kind("CSV with a 10 MB field", ["data/huge-field.csv"], "either")
def _(root):
    write(root, "data/huge-field.csv", 'a,b\n1,"' + "z" * (10 * 1024 * 1024) + '"\n')


@kind("JSON nested 10,000 deep", ["data/deep.json"], "either")
def _(root):
    write(root, "data/deep.json", "[" * 10_000 + "1" + "]" * 10_000)


@kind("JSON objects nested 10,000 deep", ["data/deep-objects.json"], "either")
def _(root):
    write(root, "data/deep-objects.json", '{"a":' * 10_000 + '"leaf"' + "}" * 10_000)


@kind("JSON and a notebook holding a 5,000-digit number", ["data/long-number.json", "notebooks/long-number.ipynb"],
      "index")
def _(root):
    # Past Python's 4,300 digits json.loads refuses the number, and the file was skipped.
    write(root, "data/long-number.json", '{"serial": ' + "7" * 5000 + ', "name": "heron survey"}')
    write(root, "notebooks/long-number.ipynb", _notebook(b"\x89PNG not really")[:-1] + ', "extra": ' + "7" * 5000 + "}")


@kind("JSON Lines with a broken line", ["data/broken.jsonl"], "either")
def _(root):
    write(root, "data/broken.jsonl", '{"a": "fine line"}\n{"b": \n' + "[" * 5000 + "\n")


@kind("HTML with 100,000 nested tags", ["web/deep.html"], "either")
def _(root):
    write(root, "web/deep.html", "<html><body>" + "<div>" * 100_000 + "deep words" + "</div>" * 100_000 + "</body></html>")


@kind("HTML with 100,000 unclosed tags", ["web/unclosed.html"], "either")
def _(root):
    write(root, "web/unclosed.html", "<p><b><i>" * 33_334 + " text at the bottom")


@kind("SVG with an external entity", ["web/entity.svg", "web/entity.html", "web/entity.xhtml"], "either")
def _(root):
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
           '<svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>\n')
    for name in ("entity.svg", "entity.html", "entity.xhtml"):
        write(root, f"web/{name}", xml)


@kind("SVG of billion laughs", ["web/laughs.svg"], "skip")
def _(root):
    entities = "".join(f'<!ENTITY l{n + 1} "{("&l" + str(n) + ";") * 10}">' for n in range(9))
    write(root, "web/laughs.svg", f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY l0 "lol">{entities}]>'
                                  '<svg xmlns="http://www.w3.org/2000/svg"><text>&l9;</text></svg>')


@kind("SVG claiming a billion pixels a side", ["web/huge.svg"], "index")
def _(root):
    write(root, "web/huge.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="1000000000" height="1000000000">'
                                '<circle cx="500000000" cy="500000000" r="400000000"/><text y="9">huge</text></svg>')


@kind("Outlook .msg cut short", ["mail/cut.msg"], "skip")
def _(root):
    from email.message import EmailMessage

    from aspose.email_foss import msg

    message = EmailMessage()
    message["From"], message["Subject"] = "Ann Keeper <ann@harbour.example>", "Lamp repair"
    message.set_content("The new lamp costs 120 euros.")
    path = write(root, "mail/whole.msg", b"")
    msg.MapiMessage.from_email_message(message).save(str(path))
    whole = path.read_bytes()
    path.unlink()
    write(root, "mail/cut.msg", whole[: len(whole) // 3])


@kind("Web archive of billion laughs", ["web/laughs.webarchive"], "skip")
def _(root):
    # An XML property list (Safari writes binary ones; plistlib reads both) declaring entities.
    entities = "".join(f'<!ENTITY l{n + 1} "{("&l" + str(n) + ";") * 10}">' for n in range(9))
    write(root, "web/laughs.webarchive", f'<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY l0 "lol">{entities}]>'
                                         '<plist version="1.0"><dict><key>WebMainResource</key><dict>'
                                         '<key>WebResourceData</key><data>&l9;</data></dict></dict></plist>')


@kind("MHTML page of 100,000 parts", ["web/parts.mhtml"], "either")
def _(root):
    part = "--b\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
    write(root, "web/parts.mhtml", 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
                                   + part * 100_000 + "--b\r\nContent-Type: text/html\r\n\r\n<p>the page last</p>\r\n--b--\r\n")


@kind("Video cut short", ["media/cut.mp4"], "skip")
def _(root):
    import av
    from PIL import Image

    path = write(root, "media/whole.mp4", b"")
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for _ in range(50):
            for packet in stream.encode(av.VideoFrame.from_image(Image.new("RGB", (64, 48), "teal"))):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    whole = path.read_bytes()
    path.unlink()
    write(root, "media/cut.mp4", whole[: len(whole) // 2])  # its index (moov) is at the end


@kind("A note saved as .mp3", ["media/song.mp3"], "skip")
def _(root):
    write(root, "media/song.mp3", "Not a song: lyrics typed into a file named .mp3\n" * 20)


@kind("draw.io page that unpacks to a gigabyte", ["web/bomb.drawio"], "skip")
def _(root):
    import base64
    import zlib

    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    body = b"".join(deflate.compress(b"%20" * (1 << 20)) for _ in range(350)) + deflate.flush()  # 1.05 GB of "%20"
    write(root, "web/bomb.drawio", '<mxfile><diagram name="Page-1">' + base64.b64encode(body).decode()
          + "</diagram></mxfile>")


@kind("KMZ map whose KML inflates to 200 MB", ["maps/bomb.kmz"], "skip")
def _(root):
    import zipfile

    (root / "maps").mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(root / "maps" / "bomb.kmz", "w", zipfile.ZIP_DEFLATED) as z, z.open("doc.kml", "w") as f:
        f.write(b"<kml>")
        for _ in range(200):
            f.write(b" " * (1 << 20))
        f.write(b"</kml>")


_DATA = Path(__file__).parent / "data"


@kind("Kindle book under DRM", ["books/locked.azw"], "skip")
def _(root):
    import struct

    data = bytearray((_DATA / "almanac.mobi").read_bytes())
    struct.pack_into(">H", data, struct.unpack_from(">I", data, 78)[0] + 12, 2)  # encryption: Mobipocket DRM
    write(root, "books/locked.azw", bytes(data))


@kind("DjVu book cut short", ["books/cut.djvu"], "skip")
def _(root):
    write(root, "books/cut.djvu", (_DATA / "lighthouse.djvu").read_bytes()[:600])


@kind("XML export that breaks off", ["data/cut.xml"], "index")
def _(root):
    rows = "".join(f"<record id='{i}'><note>tide gauge reading {i}</note></record>" for i in range(200))
    write(root, "data/cut.xml", f"<export>{rows}<record id='x'><note>half")


@kind("Evernote export cut short", ["notes/cut.enex"], "index")
def _(root):
    notes = "".join(f"<note><title>Tide {i}</title><content><![CDATA[<en-note>gauge reading {i}</en-note>]]></content>"
                    "</note>" for i in range(50))
    write(root, "notes/cut.enex", f"<en-export>{notes}<note><title>half")


@kind("Evernote attachment that is no base64", ["notes/bad.enex#1/lease.pdf"], "skip")
def _(root):
    write(root, "notes/bad.enex", "<en-export><note><title>Scan</title><content><![CDATA[<en-note>the lease scan</en-note>]]>"
                                  "</content><resource><data encoding='base64'>@@not base64!</data><mime>application/pdf</mime>"
                                  "<resource-attributes><file-name>lease.pdf</file-name></resource-attributes></resource>"
                                  "</note></en-export>")


@kind("7-Zip archive cut short", ["arch/cut.7z"], "skip")
def _(root):
    import libarchive

    (root / "arch").mkdir(parents=True, exist_ok=True)
    with libarchive.file_writer(str(root / "arch" / "cut.7z"), "7zip") as archive:
        for i in range(20):
            data = f"# Tide log {i}\n\nHigh water at the harbour mouth, reading {i}.\n".encode()
            archive.add_file_from_memory(f"log{i}.md", len(data), data)
    path = root / "arch" / "cut.7z"
    path.write_bytes(path.read_bytes()[:-10])


@kind("Takeout JSON beside a photo that is no JSON", ["takeout/IMG_0007.jpg"], "index")
def _(root):
    (root / "takeout").mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (64, 48), (30, 90, 160)).save(root / "takeout" / "IMG_0007.jpg")
    write(root, "takeout/IMG_0007.jpg.supplemental-metadata.json", '{"title": "IMG_0007.jpg", "people": [')


@kind("RTF nested 100,000 groups deep", ["text/deep.rtf"], "either")
def _(root):
    write(root, "text/deep.rtf", "{\\rtf1 " + "{" * 100_000 + "deep" + "}" * 100_000 + "}")


# ---- pictures ----------------------------------------------------------------------------------

@kind("truncated JPEG", ["img/cut-short.jpg"], "either")
def _(root):
    buf = io.BytesIO()
    photo(640, 480, seed=3).save(buf, "JPEG", quality=90)
    write(root, "img/cut-short.jpg", buf.getvalue()[: len(buf.getvalue()) // 2])


def bomb_png() -> bytes:
    """30,000 x 30,000 one-bit pixels (900 megapixels) in a few hundred kilobytes."""
    w = h = 30_000
    raw = zlib.compress(b"".join(b"\x00" + b"\x00" * (w // 8) for _ in range(h)), 9)

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


@kind("decompression-bomb PNG", ["img/bomb.png"], "either")
def _(root):
    write(root, "img/bomb.png", bomb_png())


def _notebook(plot: bytes) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# Kite survey\nCounting kites over the dunes."},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "plot(counts)", "outputs": [
            {"output_type": "display_data", "metadata": {},
             "data": {"image/png": base64.b64encode(plot).decode(), "text/plain": "<Figure>"}}]}]})


@kind("Jupyter notebook cut short", ["notebooks/cut-short.ipynb"], "skip")
def _(root):
    whole = _notebook(b"\x89PNG not really")
    write(root, "notebooks/cut-short.ipynb", whole[: len(whole) // 2])


@kind("Jupyter notebook whose plot is a decompression bomb", ["notebooks/bomb-plot.ipynb"], "index")
def _(root):
    write(root, "notebooks/bomb-plot.ipynb", _notebook(bomb_png()))


@kind("PNG claiming 2^31 pixels a side", ["img/huge-header.png"], "either")
def _(root):
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    write(root, "img/huge-header.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2**31 - 1,
          2**31 - 1, 8, 2, 0, 0, 0)) + chunk(b"IEND", b""))


@kind("CMYK TIFF", ["img/proof-cmyk.tif"], "index")
def _(root):
    (root / "img").mkdir(exist_ok=True)
    text_picture(["Print proof for the boathouse poster"], "CMYK").save(root / "img/proof-cmyk.tif",
                                                                        compression="tiff_lzw")


@kind("16-bit TIFF", ["img/strip-16bit.tif"], "index")
def _(root):
    (root / "img").mkdir(exist_ok=True)
    grey = np.asarray(text_picture(["Scanner test strip"], "L"), dtype=np.uint16) * 257
    Image.fromarray(grey).save(root / "img/strip-16bit.tif")


@kind("animated GIF", ["img/hours.gif"], "index")
def _(root):
    (root / "img").mkdir(exist_ok=True)
    frames = [text_picture(["Lighthouse opening hours"]), text_picture(["A second frame"])]
    frames[0].save(root / "img/hours.gif", save_all=True, append_images=frames[1:], duration=400, loop=0)


@kind("damaged HEIC", ["img/damaged.heic"], "skip")
def _(root):
    # An ISO-BMFF 'ftyp heic' box and then garbage.
    write(root, "img/damaged.heic", struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00mif1heic" +
          bytes(range(256)) * 8)


@kind("truncated HEIC", ["img/truncated.heic"], "either")
def _(root):
    import pillow_heif

    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    photo(256, 192).save(buf, "HEIF")
    write(root, "img/truncated.heic", buf.getvalue()[: len(buf.getvalue()) // 2])


@kind("garbled HEIC", ["img/garbled.heic"], "index")
def _(root):
    # Every box whole, the coded picture in its 'mdat' box overwritten: it opens, its pixels do not decode.
    import pillow_heif

    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    photo(256, 192).save(buf, "HEIF")
    from scent.extract.image import iso_boxes

    data = bytearray(buf.getvalue())
    for at, length, box in iso_boxes(io.BytesIO(bytes(data)), len(data)):
        if box == b"mdat":
            data[at + 12:at + length] = b"\xa5" * (length - 12)
    write(root, "img/garbled.heic", bytes(data))


# ---- packages: Office, OpenDocument, EPUB ------------------------------------------------------

_PACKAGES = {  # extension -> (members of a minimal package, the member its reader parses)
    ".docx": ({"[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
               b'package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/'
               b'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
               "_rels/.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
               b'package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/'
               b'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'},
              "word/document.xml"),
    ".xlsx": ({"[Content_Types].xml": b"<Types/>"}, "xl/workbook.xml"),
    ".pptx": ({"[Content_Types].xml": b"<Types/>"}, "ppt/presentation.xml"),
    ".odt": ({"mimetype": b"application/vnd.oasis.opendocument.text"}, "content.xml"),
    ".ods": ({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet"}, "content.xml"),
    ".odp": ({"mimetype": b"application/vnd.oasis.opendocument.presentation"}, "content.xml"),
    ".epub": ({"mimetype": b"application/epub+zip", "META-INF/container.xml":
               b'<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:'
               b'container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"'
               b'/></rootfiles></container>'}, "content.opf"),
}


@kind("damaged package (not a zip)", [f"office/damaged{e}" for e in _PACKAGES], "skip")
def _(root):
    for ext in _PACKAGES:
        write(root, f"office/damaged{ext}", b"PK\x03\x04" + bytes(range(256)) * 8)


@kind("truncated package", [f"office/truncated{e}" for e in _PACKAGES], "skip")
def _(root):
    for ext, (members, main) in _PACKAGES.items():
        whole = zip_of({**members, main: b"<x>" + b"words " * 5000 + b"</x>"})
        write(root, f"office/truncated{ext}", whole[: len(whole) // 2])


@kind("package missing its main part", [f"office/hollow{e}" for e in _PACKAGES], "skip")
def _(root):
    for ext, (members, _) in _PACKAGES.items():
        write(root, f"office/hollow{ext}", zip_of(members))


@kind("zip bomb package (1 GiB member)", [f"office/bomb{e}" for e in _PACKAGES], "skip")
def _(root):
    for ext, (members, main) in _PACKAGES.items():
        write(root, f"office/bomb{ext}", zip_bomb(members, main))


@kind("billion-laughs XML in a package", [f"office/laughs{e}" for e in _PACKAGES], "either")
def _(root):
    lol = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
           "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
           + ']><x>&lol9;</x>').encode()
    for ext, (members, main) in _PACKAGES.items():
        write(root, f"office/laughs{ext}", zip_of({**members, main: lol}))


# ---- iWork, camera raws, files attached to PDFs (session 30) --------------------------------------

def _iwa(text: str) -> bytes:
    """An iWork Index part holding one text flow: a TSWP.StorageArchive (type 2001, its text field 3)
    after its ArchiveInfo, in one raw Snappy chunk (scent.extract.iwork)."""
    import cramjam

    def varint(n: int) -> bytes:
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)

    def field(number: int, raw: bytes) -> bytes:
        return varint(number << 3 | 2) + varint(len(raw)) + raw

    payload = field(3, text.encode())
    info = varint(1 << 3) + varint(7) + field(2, varint(1 << 3) + varint(2001) + varint(3 << 3) + varint(len(payload)))
    chunk = bytes(cramjam.snappy.compress_raw(varint(len(info)) + info + payload))
    return b"\x00" + len(chunk).to_bytes(3, "little") + chunk


@kind("Pages document with a damaged part", ["iwork/trip.pages"], "index")
def _(root):
    write(root, "iwork/trip.pages", zip_of({"Index/Document.iwa": _iwa("Ferry to the islands on Tuesday"),
                                            "Index/Tables/DataList.iwa": b"\x00\x09\x00\x00not snappy"}))


@kind("password-protected Pages document", ["iwork/locked.pages"], "skip")
def _(root):
    write(root, "iwork/locked.pages", zip_of({".iwph": b"\x02" * 64, "Index/Document.iwa": os.urandom(300)}))


@kind("private key named .key (not Keynote)", ["iwork/server.key"], "skip")
def _(root):
    write(root, "iwork/server.key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n")


@kind("camera raw cut short", ["photos/cut.nef"], "either")
def _(root):
    import tifffile

    sensor = np.full((192, 256, 3), 30000, np.uint16)
    out = io.BytesIO()
    tifffile.imwrite(out, sensor, photometric=34892, metadata=None,
                     extratags=[(50706, "B", 4, (1, 4, 0, 0), True), (50708, "s", 0, "Test", True)])
    write(root, "photos/cut.nef", out.getvalue()[:150_000])


@functools.lru_cache(maxsize=4)  # 1 GiB takes 3 s, and three bombs are made of it
def deflated_zeros(size: int) -> bytes:
    """`size` (whole MiB) zero bytes, deflated: about a thousandth of that."""
    packer = zlib.compressobj(9)
    return b"".join(packer.compress(bytes(1 << 20)) for _ in range(size >> 20)) + packer.flush()


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1, the first the catalog) with its cross-reference
    table, written by hand: PDF writers here compress what they are given, not a prepared stream."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def lzw_codes(codes: list[tuple[int, int]]) -> bytes:
    """(code, width in bits) packed high bit first, as PDF's LZWDecode reads them."""
    bits = held = 0
    out = bytearray()
    for code, width in codes:
        bits, held = (bits << width) | code, held + width
        while held >= 8:
            held -= 8
            out.append((bits >> held) & 0xFF)
        bits &= (1 << held) - 1
    return bytes(out + (bytes([(bits << (8 - held)) & 0xFF]) if held else b""))


def lzw_spaces(size: int) -> bytes:
    """`size` spaces as the standard LZW encoder (EarlyChange 1) writes them, without walking them
    byte by byte: each code after the first stands for one space more than the one before, and the
    table is cleared when full. About 1,360 bytes a byte on disk."""
    codes, table, width, left = [(256, 9)], 258, 9, size
    while left:
        run = min(left, table - 257)  # codes 258.. hold runs of 2, 3, ... spaces
        codes.append((32 if run == 1 else 256 + run, width))
        left -= run
        if not left:
            break
        table += 1
        if table >= 1 << width and width < 12:
            width += 1
        if table >= 4094:
            codes.append((256, width))
            table, width = 258, 9
    return lzw_codes(codes + [(257, width)])


def _packed_stream(kind: bytes, inflated: int, lzw: bool = False) -> bytes:
    data, name = (lzw_spaces(inflated), b"/LZWDecode") if lzw else (deflated_zeros(inflated), b"/FlateDecode")
    return b"<< %s/Filter %s /Length %d >>\nstream\n%s\nendstream" % (kind, name, len(data), data)


def pdf_attaching(name: str, inflated: int, lzw: bool = False) -> bytes:
    """A one-page PDF with a file attached whose stream inflates to `inflated` zero bytes (spaces, `lzw`)."""
    return pdf_of([b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(%s) 4 0 R] >> >> >>" % name.encode(),
                   b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
                   b"<< /Type /Filespec /F (%s) /UF (%s) /EF << /F 5 0 R >> >>" % (name.encode(), name.encode()),
                   _packed_stream(b"/Type /EmbeddedFile ", inflated, lzw)])


def pdf_inflating_page(inflated: int, lzw: bool = False) -> bytes:
    """A one-page PDF whose page's content stream inflates to `inflated` zero bytes (spaces, `lzw`)."""
    return pdf_of([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                   _packed_stream(b"", inflated, lzw)])


def pdf_of_page_stream(data: bytes, filters: bytes) -> bytes:
    """A one-page PDF whose page's content stream is `data` under `/Filter filters`."""
    return pdf_of([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                   b"<< /Filter %s /Length %d >>\nstream\n%s\nendstream" % (filters, len(data), data)])


@kind("PDF whose page inflates to 1 GiB (a bomb)", ["pdf/page-bomb.pdf"], "skip")
def _(root):
    write(root, "pdf/page-bomb.pdf", pdf_inflating_page(1 << 30))


@kind("PDF with a 1 GiB attached file (a bomb)", ["pdf/attached-bomb.pdf"], "index")
def _(root):
    write(root, "pdf/attached-bomb.pdf", pdf_attaching("big.txt", 1 << 30))


@kind("PDF whose page decodes from LZW to 1 GiB (a bomb)", ["pdf/lzw-bomb.pdf"], "skip")
def _(root):
    write(root, "pdf/lzw-bomb.pdf", pdf_inflating_page(1 << 30, lzw=True))


@kind("PDF whose page is deflated twice, 2 KB to 1 GiB (a bomb)", ["pdf/twice-bomb.pdf"], "skip")
def _(root):
    write(root, "pdf/twice-bomb.pdf", pdf_of_page_stream(zlib.compress(deflated_zeros(1 << 30), 9),
                                                         b"[/FlateDecode /FlateDecode]"))


@kind("PDF with a 1 GiB attached file in LZW (a bomb)", ["pdf/lzw-attached-bomb.pdf"], "index")
def _(root):
    write(root, "pdf/lzw-attached-bomb.pdf", pdf_attaching("big.txt", 1 << 30, lzw=True))


# ---- archives -----------------------------------------------------------------------------------

@kind("zip bomb (1 GiB member)", ["arch/bomb.zip#big.txt"], "skip")
def _(root):
    write(root, "arch/bomb.zip", zip_bomb({"readme.md": b"# Bomb\n\nthe small readme beside the bomb\n"}, "big.txt"))


@kind("nested zips (42.zip-style)", ["arch/42.zip"], "index")
def _(root):
    write(root, "arch/42.zip", nested_zip(3, 8, zip_of({"0.dll": bytes(100_000_000)})))


@kind("password-protected zip", ["arch/locked.zip"], "index")
def _(root):
    write(root, "arch/locked.zip", encrypted_zip({"secret.md": b"# Secret\n\nthe hidden words\n",
                                                  "plan.txt": b"the hidden plan\n"}, b"hunter2"))


@kind("tar with ../evil, absolute names, links and a device", ["arch/evil.tar.gz"], "index")
def _(root):
    write(root, "arch/evil.tar.gz", evil_tar())


@kind("zip holding a damaged PDF", ["arch/with-bad.zip#damaged.pdf"], "skip")
def _(root):
    write(root, "arch/with-bad.zip", zip_of({"damaged.pdf": b"%PDF-1.4\n" + bytes(range(256)) * 20,
                                             "fine.md": b"# Fine\n\nthe fine member beside a damaged one\n"}))


@kind("damaged zip (not a zip)", ["arch/damaged.zip"], "skip")
def _(root):
    write(root, "arch/damaged.zip", b"PK\x03\x04" + bytes(range(256)) * 8)


@kind("tar.gz cut short", ["arch/cut.tar.gz"], "either")
def _(root):
    out = io.BytesIO()
    import tarfile

    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for i in range(20):
            data = (f"note {i} about the cormorant colony\n" * 400).encode()
            info = tarfile.TarInfo(f"n{i}.txt")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    whole = out.getvalue()
    write(root, "arch/cut.tar.gz", whole[: len(whole) // 2])


# ---- Excel 97-2003 -----------------------------------------------------------------------------

def xls_bytes(rows: int = 200) -> bytes:
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("Ledger")
    for r in range(rows):
        sheet.write(r, 0, f"entry {r}")
        sheet.write(r, 1, r * 1.5)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@kind(".xls cut short", ["office/cut.xls"], "skip")
def _(root):
    whole = xls_bytes()
    write(root, "office/cut.xls", whole[: len(whole) // 2])


@kind("web page exported as .xls", ["office/export.xls"], "skip")
def _(root):
    write(root, "office/export.xls", "<html><body><table><tr><td>Ledger</td><td>12.5</td></tr></table></body></html>")


# ---- Word 97-2003 -------------------------------------------------------------------------------

KEEPER_DOC = Path(__file__).parent / "data" / "keeper.doc"  # saved by LibreOffice (tests/test_formats.py)


@kind(".doc cut short", ["office/cut.doc"], "skip")
def _(root):
    whole = KEEPER_DOC.read_bytes()
    write(root, "office/cut.doc", whole[: len(whole) // 2])


@kind("plain text named .doc", ["office/notes.doc"], "skip")
def _(root):
    write(root, "office/notes.doc", "Minutes of the harbour board, typed in a text editor and saved as notes.doc.")


PLAN_PPT = Path(__file__).parent / "data" / "plan.ppt"  # saved by LibreOffice (tests/test_formats.py)


@kind(".ppt cut short", ["office/cut.ppt"], "skip")
def _(root):
    whole = PLAN_PPT.read_bytes()
    write(root, "office/cut.ppt", whole[: len(whole) // 3])


@kind(".ppt whose records point outside it", ["office/lost.ppt"], "skip")
def _(root):
    # The Current User record's offset to the newest edit (after its headerToken, which is
    # unique in the file), set past the document's end: a file whose last save never finished.
    data = bytearray(PLAN_PPT.read_bytes())
    token = bytes(data).find(struct.pack("<I", 0xE391C05F))
    struct.pack_into("<I", data, token + 4, 0x7FFFFFF0)
    write(root, "office/lost.ppt", bytes(data))


# ---- mail --------------------------------------------------------------------------------------

@kind("e-mail with broken MIME", ["mail/broken.eml"], "either")
def _(root):
    write(root, "mail/broken.eml", b"From: a@example.org\nSubject: =?utf-8?b?broken==?=\nContent-Type: multipart/"
          b"mixed; boundary=\"X\"\n\n--X\nContent-Type: text/plain; charset=nonesuch\nContent-Transfer-Encoding: "
          b"base64\n\n!!!!not base64\n--X\nContent-Type: multipart/alternative\n\n")


@kind("e-mail nested 1,000 parts deep", ["mail/deep.eml"], "either")
def _(root):
    parts = [b"From: a@example.org\nSubject: deep\n"]
    for i in range(1000):
        parts.append(b"Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d\n" % (i, i))
    parts.append(b"Content-Type: text/plain\n\nthe innermost words\n")
    write(root, "mail/deep.eml", b"".join(parts))


def many_messages(n: int) -> bytes:
    return "".join(f"From s{i}@example.org Mon Mar  2 12:00:00 2020\nFrom: s{i}@example.org\nTo: me@example.org\n"
                   f"Subject: message {i}\nDate: Mon, 02 Mar 2020 12:00:00 +0000\n\nBody {i} about the harbour.\n\n"
                   for i in range(n)).encode()


# Each message is a file of the index, read and written one at a time (test_archives reads 100,000).
@kind("mbox of 20,000 messages", ["mail/20k.mbox"], "index", slow=True)
def _(root):
    write(root, "mail/20k.mbox", many_messages(20_000))


@kind("mbox of garbage", ["mail/garbage.mbox"], "either")
def _(root):
    write(root, "mail/garbage.mbox", b"From nobody\n" + _BINARY + b"\nFrom \n\x00\x00\n")


# ---- the file system ---------------------------------------------------------------------------

@kind("FIFO named notes.txt", ["fs/notes.txt"], "skip")
def _(root):
    (root / "fs").mkdir(exist_ok=True)
    os.mkfifo(root / "fs/notes.txt")


@kind("symlink loop", ["fs/loop-a.txt", "fs/loop-b.txt"], "skip")
def _(root):
    (root / "fs").mkdir(exist_ok=True)
    os.symlink("loop-b.txt", root / "fs/loop-a.txt")
    os.symlink("loop-a.txt", root / "fs/loop-b.txt")


@kind("dangling symlink", ["fs/dangling.txt"], "skip")
def _(root):
    (root / "fs").mkdir(exist_ok=True)
    os.symlink(root / "fs/gone.txt", root / "fs/dangling.txt")


@kind("symlink out of the folder", ["fs/outside.txt", "fs/outside-dir"], "either")
def _(root):
    (root / "fs").mkdir(exist_ok=True)
    outside = root.parent / f"{root.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(f"The {OUTSIDE_WORDS} must not be indexed.\n")
    os.symlink(outside / "secret.txt", root / "fs/outside.txt")
    os.symlink(outside, root / "fs/outside-dir")


@kind("symlink to a folder above (a walk loop)", ["fs/up"], "either")
def _(root):
    (root / "fs").mkdir(exist_ok=True)
    os.symlink("..", root / "fs/up")


@kind("name with a newline", ["names/line\nbreak.txt"], "either")
def _(root):
    write(root, "names/line\nbreak.txt", "a note whose name holds a line break, about pelicans\n")


@kind("name with invalid UTF-8 bytes", ["names/caf\\xe9.txt"], "skip")
def _(root):
    (root / "names").mkdir(exist_ok=True)
    with open(os.fsencode(root / "names") + b"/caf\xe9.txt", "wb") as f:
        f.write(b"menu of the cafe\n")


@kind("name with terminal escapes", ["names/\x1b[31mred\x1b[0m.txt"], "either")
def _(root):
    write(root, "names/\x1b[31mred\x1b[0m.txt", "a note with a coloured name, about puffins\n")


@kind("300-level folder tree", [DEEP_FILE], "index")
def _(root):
    bottom = root / "deep"
    bottom.mkdir()
    for _ in range(DEEP_LEVELS):  # one at a time: mkdir(parents=True) recurses
        bottom = bottom / "d"
        bottom.mkdir()
    (bottom / "bottom.txt").write_text(f"The {GOOD_DEEP_WORDS} at the bottom of the tree.\n")


@kind("file deleted while read", [VANISHING], "skip")
def _(root):
    write(root, VANISHING, "this file is deleted after the walk found it\n")


@kind("file growing while read", [GROWING], "index")
def _(root):
    write(root, GROWING, "first line of a growing log about swifts\n")


# ---- good files --------------------------------------------------------------------------------

def make_good(root: Path) -> None:
    for rel, (text, _) in GOOD.items():
        if text is not None:
            write(root, rel, text)
    write(root, "good/boiler.pdf", pdf_bytes(["The boiler was serviced in March by a gas engineer."]))
    img = photo(480, 320)
    img.save(root / "good/photo-heron.png")


def make_folder(root: Path, slow: bool = False, only: list[str] | None = None, good: bool = True) -> list[Kind]:
    """Write the good files (unless not `good`) and every bad kind (the slow ones too with `slow`;
    only the kinds named in `only` when given) under `root`; returns the kinds written."""
    root.mkdir(parents=True, exist_ok=True)
    if good:
        make_good(root)
    made = []
    for k in KINDS:
        if (k.slow and not slow) or (only is not None and k.name not in only):
            continue
        _MAKERS[k.name](root)
        made.append(k)
    return made


def remove_deep(root: Path) -> None:
    """Remove the 300-level tree from the bottom up (shutil.rmtree recurses once a level)."""
    bottom = root / "deep"
    if not bottom.is_dir():
        return
    while (bottom / "d").is_dir():
        bottom = bottom / "d"
    for f in bottom.iterdir():
        f.unlink()
    while bottom != root:
        bottom.rmdir()
        bottom = bottom.parent


# The child process that indexes the folder: `scent index` itself (scent.cli.main), with conftest's
# fake embedder for the volume, a hook that deletes VANISHING and grows GROWING just before they are
# read, and per-file extraction seconds and the peak RSS so far (KiB) appended to $SCENT_BAD_TIMES. It prints its peak RSS last.
CHILD = r'''
import json, os, sys, time
sys.path.insert(0, os.environ["SCENT_TESTS"])
if os.environ.get("SCENT_FAKE_EMBEDDER"):
    import scent.index
    from conftest import FakeEmbedder
    scent.index.E5Embedder = FakeEmbedder
import scent.indexing
real = scent.indexing.extract
log = open(os.environ["SCENT_BAD_TIMES"], "a")

def timed(path, limits):
    rel = os.path.relpath(path, sys.argv[2])
    if rel.endswith("vanishing.txt"):
        os.remove(path)
    if rel.endswith("growing.log") and "martins" not in open(path).read():  # it grows once
        with open(path, "a") as f:
            f.write("a second line appended while the run reads it, about martins\n")
    t = time.perf_counter()
    try:
        return real(path, limits)
    finally:
        hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
        log.write(json.dumps([rel, time.perf_counter() - t, hwm]) + "\n")
        log.flush()

scent.indexing.extract = timed
import atexit
def peak():
    hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
    sys.stderr.write(f"peak-rss-kib {hwm}\n")
atexit.register(peak)
sys.argv = ["scent", *sys.argv[1:]]
from scent.cli import main
main()
'''
