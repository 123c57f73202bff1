"""Extraction speed and peak memory per new format (#15), on generated files.

    PYTHONPATH=src .venv/bin/python scripts/bench_formats.py [--files 200] [--formats xlsx,pptx,...]

Writes --files files of each format into a temporary folder with the same libraries the tests
use, then extracts them in a fresh process per format (so one format's peak RSS is its own), with
the default Limits (no OCR, no picture descriptions). Prints one line per format.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS = 60  # per sheet, 3 sheets a workbook
SLIDES = 5
MESSAGES = 20  # per mbox
WORDS = ("harbour lamp keeper storm tide oil rock beacon night shift ledger repair quote board "
         "gale calm seas rope bell fog").split()


def words(i: int, n: int = 12) -> str:
    return " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(n)) + f" item{i}"


def make_xlsx(path: Path, i: int) -> None:
    import openpyxl
    book = openpyxl.Workbook()
    for s in range(3):
        sheet = book.active if s == 0 else book.create_sheet()
        sheet.title = f"Sheet{s}"
        sheet.append(["day", "what", "cost"])
        for r in range(ROWS):
            sheet.append([r, words(i + r, 4), r * 1.5])
    book.save(path)


def make_ods(path: Path, i: int) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    doc = OpenDocumentSpreadsheet()
    for s in range(3):
        table = Table(name=f"Sheet{s}")
        for r in range(ROWS + 1):
            row = TableRow()
            for value in (str(r), words(i + r, 4), str(r * 1.5)):
                cell = TableCell()
                cell.addElement(P(text=value))
                row.addElement(cell)
            table.addElement(row)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))


def make_pptx(path: Path, i: int, picture: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches
    deck = Presentation()
    for s in range(SLIDES):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"Slide {s} {WORDS[s]}"
        slide.placeholders[1].text = words(i + s, 30)
        slide.notes_slide.notes_text_frame.text = words(i + s + 1, 20)
        if s == 0:
            slide.shapes.add_picture(str(picture), Inches(5), Inches(5))
    deck.save(path)


def make_odp(path: Path, i: int) -> None:
    from odf.draw import Frame, Page, TextBox
    from odf.opendocument import OpenDocumentPresentation
    from odf.style import MasterPage, PageLayout
    from odf.text import P
    doc = OpenDocumentPresentation()
    layout = PageLayout(name="PL")
    doc.automaticstyles.addElement(layout)
    master = MasterPage(name="Default", pagelayoutname=layout)
    doc.masterstyles.addElement(master)
    for s in range(SLIDES):
        page = Page(masterpagename=master, name=f"page{s}")
        frame, box = Frame(width="20cm", height="10cm", x="1cm", y="1cm"), TextBox()
        frame.addElement(box)
        box.addElement(P(text=words(i + s, 30)))
        page.addElement(frame)
        doc.presentation.addElement(page)
    doc.save(str(path))


def make_heic(path: Path, i: int) -> None:
    from PIL import Image
    import pillow_heif
    pillow_heif.register_heif_opener()
    exif = Image.Exif()
    exif[0x010F], exif[0x0110] = "Apple", "iPhone 15"
    exif.get_ifd(0x8769)[0x9003] = f"2025:07:{1 + i % 28:02d} 19:32:00"
    Image.new("RGB", (1024, 768), (i % 256, 80, 160)).save(path, format="HEIF", exif=exif, quality=50)


def make_odt(path: Path, i: int) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P
    doc = OpenDocumentText()
    for h in range(5):
        doc.text.addElement(H(outlinelevel=1, text=f"Part {h} {WORDS[h]}"))
        for p in range(4):
            doc.text.addElement(P(text=words(i + h + p, 40)))
    doc.save(str(path))


def make_rtf(path: Path, i: int) -> None:
    body = "".join(f"{words(i + p, 40)}\\par " for p in range(20))
    path.write_text("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}\\f0 " + body + "}", encoding="ascii")


def make_epub(path: Path, i: int) -> None:
    from ebooklib import epub
    book = epub.EpubBook()
    book.set_identifier(f"book{i}")
    book.set_title(f"Book {i}")
    chapters = []
    for c in range(5):
        chapter = epub.EpubHtml(title=f"Chapter {c}", file_name=f"ch{c}.xhtml")
        chapter.content = "".join(f"<p>{words(i + c + p, 40)}</p>" for p in range(6))
        book.add_item(chapter)
        chapters.append(chapter)
    book.toc, book.spine = chapters, chapters
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)


def _message(i: int):
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"], message["To"] = f"ann{i}@harbour.example", "board@harbour.example"
    message["Subject"], message["Date"] = f"Note {i} {WORDS[i % len(WORDS)]}", "Mon, 14 Jul 2025 19:32:00 +0200"
    message.set_content("\n".join(words(i + p, 20) for p in range(8)))
    return message


def make_eml(path: Path, i: int) -> None:
    path.write_bytes(bytes(_message(i)))


def make_mbox(path: Path, i: int) -> None:
    import mailbox
    box = mailbox.mbox(str(path))
    for m in range(MESSAGES):
        box.add(_message(i * MESSAGES + m))
    box.close()


MAKERS = {"xlsx": make_xlsx, "ods": make_ods, "pptx": make_pptx, "odp": make_odp, "heic": make_heic,
          "odt": make_odt, "rtf": make_rtf, "epub": make_epub, "eml": make_eml, "mbox": make_mbox}


def measure(folder: str) -> None:
    """In the child process: extract every file of the folder, print one JSON line."""
    from scent.extract import extract
    paths = sorted(str(p) for p in Path(folder).iterdir())
    start = time.perf_counter()
    units = sum(len(extract(p).sections) for p in paths)
    seconds = time.perf_counter() - start
    print(json.dumps({"files": len(paths), "sections": units, "seconds": round(seconds, 3),
                      "files_per_s": round(len(paths) / seconds, 1),
                      "peak_rss_mb": _peak_rss_mb()}))


def _peak_rss_mb() -> float:
    # VmHWM is this process's own peak; ru_maxrss would carry the parent's over fork and exec.
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--formats", default=",".join(MAKERS))
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        return measure(args.measure)
    with tempfile.TemporaryDirectory() as tmp:
        from PIL import Image
        picture = Path(tmp) / "picture.png"
        Image.new("RGB", (400, 300), "orange").save(picture)
        for fmt in args.formats.split(","):
            folder = Path(tmp) / fmt
            folder.mkdir()
            for i in range(args.files):
                path = folder / f"file{i:04d}.{fmt}"
                MAKERS[fmt](path, i, picture) if fmt == "pptx" else MAKERS[fmt](path, i)
            size = sum(p.stat().st_size for p in folder.iterdir())
            out = subprocess.run([sys.executable, __file__, "--measure", str(folder)], check=True,
                                 capture_output=True, text=True, env=os.environ).stdout
            result = json.loads(out)
            print(f"{fmt:5s} {result['files']} files ({size / 1e6:.1f} MB), {result['sections']} sections: "
                  f"{result['seconds']} s, {result['files_per_s']} files/s, peak RSS {result['peak_rss_mb']} MB",
                  flush=True)


if __name__ == "__main__":
    main()
