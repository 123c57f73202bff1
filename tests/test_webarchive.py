"""Web pages saved whole by a browser: MHTML (.mhtml, .mht) and Safari's .webarchive."""
from __future__ import annotations

import datetime as dt
import plistlib

import pytest

from scent import Index
from scent.extract import extract, file_kind

from conftest import FakeEmbedder
from test_formats import reason_of

# As Chrome writes a page saved as "Webpage, Single File" (Page.captureSnapshot): the page's charset
# only in its own <meta>, its lines quoted-printable with soft breaks, a picture in a part of its own.
CHROME = """From: <Saved by Blink>
Snapshot-Content-Location: https://bread.example/starter
Subject: =?utf-8?Q?Sourdough=20starter=20=E2=80=93=20feeding=20guide?=
Date: Sat, 14 Mar 2026 09:30:00 GMT
MIME-Version: 1.0
Content-Type: multipart/related;
\ttype="text/html";
\tboundary="----MultipartBoundary--abc----"


------MultipartBoundary--abc----
Content-Type: text/html
Content-ID: <frame-1@mhtml.blink>
Content-Transfer-Encoding: quoted-printable
Content-Location: https://bread.example/starter

<!DOCTYPE html><html><head><meta http-equiv=3D"Content-Type" content=3D"tex=
t/html; charset=3DUTF-8"><title>Sourdough starter =E2=80=93 feeding guide</=
title></head>
<body><nav>Home | Recipes</nav><h1>Feeding your starter</h1><p>Feed the sta=
rter every 12 hours with flour and water =E2=80=94 50 g each.</p>
<h2>Signs it is ready</h2><p>Doubled in 4=E2=80=936 hours. Cr=C3=A8me fra=C3=AEche.</p>
<img src=3D"https://bread.example/jar.png"></body></html>
------MultipartBoundary--abc----
Content-Type: image/png
Content-Transfer-Encoding: base64
Content-Location: https://bread.example/jar.png

iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==
------MultipartBoundary--abc------
""".replace("\n", "\r\n")


def test_a_chrome_mhtml_is_read_as_its_page(tmp_path):
    (tmp_path / "starter.mhtml").write_bytes(CHROME.encode("ascii"))
    got = extract(str(tmp_path / "starter.mhtml"))
    assert got.kind == "html" and file_kind("starter.mhtml") == file_kind("a.mht") == "html"
    assert got.title == "Sourdough starter \u2013 feeding guide"
    assert [(s.title, s.text) for s in got.sections] == [
        # the page's opening heading's section titled by the page, "sourdough" in it
        ("Sourdough starter \u2013 feeding guide", "Feeding your starter\nFeed the starter every 12 hours with "
                                                  "flour and water \u2014 50 g each."),
        ("Signs it is ready", "Signs it is ready\nDoubled in 4\u20136 hours. Cr\u00e8me fra\u00eeche.")]
    assert got.date == dt.datetime(2026, 3, 14, 9, 30, tzinfo=dt.timezone.utc).timestamp()
    assert got.meta == {"encoding": "utf-8", "url": "https://bread.example/starter"}


def test_the_page_is_the_part_start_names_in_the_charset_its_part_says(tmp_path):
    # As Internet Explorer and Word save "Web Archive, single file": the page in windows-1252, said
    # by its part only, base64; here a style sheet comes first and `start` names the page.
    page = "<html><body><p>Caf\u00e9 cr\u00e8me 2,50 \u20ac</p></body></html>"  # no <title>: the archive's
    import base64

    body = base64.b64encode(page.encode("cp1252")).decode("ascii")
    mht = (
        'MIME-Version: 1.0\r\nSubject: =?utf-8?Q?Caf=C3=A9_prices?=\r\nContent-Type: multipart/related; boundary="b"; '
        'start="<page@x>"; type="text/html"\r\n\r\n'
        '--b\r\nContent-Type: text/html; charset="us-ascii"\r\nContent-ID: <other@x>\r\n\r\n<p>Not the page</p>\r\n'
        f'--b\r\nContent-Type: text/html; charset="windows-1252"\r\nContent-ID: <page@x>\r\n'
        f'Content-Transfer-Encoding: base64\r\n\r\n{body}\r\n--b--\r\n')
    (tmp_path / "prices.mht").write_bytes(mht.encode("ascii"))
    got = extract(str(tmp_path / "prices.mht"))
    assert [s.text for s in got.sections] == ["Caf\u00e9 cr\u00e8me 2,50 \u20ac"]
    assert got.title == "Caf\u00e9 prices" and got.meta == {"encoding": "windows-1252"} and got.date is None


def _webarchive(path, page: bytes, charset="UTF-8", kind="text/html"):
    """A page saved by Safari: a binary property list whose main resource is the page's bytes."""
    main = {"WebResourceData": page, "WebResourceMIMEType": kind, "WebResourceTextEncodingName": charset,
            "WebResourceURL": "https://bread.example/starter", "WebResourceFrameName": ""}
    sub = [{"WebResourceData": b"\x89PNG", "WebResourceMIMEType": "image/png",
            "WebResourceURL": "https://bread.example/jar.png"}]
    path.write_bytes(plistlib.dumps({"WebMainResource": main, "WebSubresources": sub}, fmt=plistlib.FMT_BINARY))
    return path


def test_a_safari_webarchive_is_read_as_its_page(tmp_path):
    page = "<html><head><title>Starter</title></head><body><h1>Feeding</h1><p>Every 12 hours.</p></body></html>"
    got = extract(str(_webarchive(tmp_path / "starter.webarchive", page.encode("utf-16"), charset="UTF-16")))
    assert got.kind == "html" and file_kind("starter.webarchive") == "html"
    assert [(s.title, s.text) for s in got.sections] == [("Starter", "Feeding\nEvery 12 hours.")]
    assert got.title == "Starter" and got.meta == {"encoding": "utf-16", "url": "https://bread.example/starter"}


def test_a_saved_page_is_found_by_its_words(tmp_path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "starter.mhtml").write_bytes(CHROME.encode("ascii"))
    _webarchive(tmp_path / "web" / "kiln.webarchive", b"<p>Bisque firing at 1000 degrees, glaze at 1240.</p>")
    with Index(tmp_path / "web", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        assert [r.path for r in idx.search("sourdough feeding", strategy="keyword")][:1] == ["starter.mhtml"]
        assert [r.path for r in idx.search("glaze firing", strategy="keyword")][:1] == ["kiln.webarchive"]


@pytest.mark.parametrize("name, data, start", [
    ("cut.webarchive", None, "not a readable Safari web archive ("),
    ("junk.webarchive", b"<html>renamed</html>", "not a readable Safari web archive ("),
    ("picture.webarchive", "image", "the web archive holds image/png, not a web page"),
    ("mail.mhtml", b"From: a@b.example\r\nContent-Type: text/plain\r\n\r\nhello\r\n", "not a saved web page"),
    ("junk.mht", b"\x89PNG\r\n\x1a\n\0\0", "not a saved web page"),
])
def test_a_damaged_or_foreign_saved_page_is_one_line(tmp_path, name, data, start):
    path = tmp_path / name
    if data is None:
        whole = _webarchive(tmp_path / "whole.webarchive", b"<p>x</p>").read_bytes()
        path.write_bytes(whole[:len(whole) // 2])
    elif data == "image":
        _webarchive(path, b"\x89PNG", kind="image/png")
    else:
        path.write_bytes(data)
    reason = reason_of(path)
    assert reason.startswith(start) and "\n" not in reason, reason
