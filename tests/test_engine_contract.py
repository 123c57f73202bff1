"""The contract every storage engine keeps: the same writes give the same answers.

Each test runs against every engine in ENGINES (see engine_factories); an engine that cannot
run here is skipped with the reason. Expectations are worked out by hand from the few units
written, never read back from an engine.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from scent.errors import IndexVersionError
from scent.filters import Filters
from scent.query import extra_tokens, id_tokens, parse
from scent.settings import Settings
from scent.storage import StoredSuggestion, VectorField, text_key, unit_id
from scent.units import FileRecord, FileState, FileWrite, Suggestion, UnitRecord

DIMS = 4


def engine_factories():
    """Every engine, the sqlite engine once more reading through snapshots and its approximate
    index (written after every write, used for every search, whatever the size), and the qdrant
    engine in both its local folders: qdrant-client's local mode and the embedded edge shard."""
    from scent.engines import ENGINES

    return sorted(ENGINES) + ["sqlite:snapshots", "qdrant:edge"]


@pytest.fixture(params=engine_factories())
def engine(request, tmp_path, monkeypatch):
    from scent.engines import engine_class
    from scent.engines.sqlite import vectors

    name, _, variant = request.param.partition(":")
    values = {}
    if name == "qdrant":
        pytest.importorskip("qdrant_client")
        # A local folder here; a server when SCENT_QDRANT_URL names one (a collection per test).
        values = {"qdrant_url": os.environ.get("SCENT_QDRANT_URL", ""), "qdrant_collection": f"contract-{tmp_path.name}"}
        if variant == "edge":
            pytest.importorskip("qdrant_edge")
        elif not values["qdrant_url"]:
            made_by_local_mode(tmp_path / "index" / "qdrant")
    if variant == "snapshots":
        monkeypatch.setattr(vectors, "SNAPSHOT_ROWS", 1)
        monkeypatch.setattr(vectors, "EXACT_ROWS", 0)
        values["vector_index_threshold"] = 0
    eng = engine_class(name)(tmp_path / "index", Settings(backend=name, **values))
    if name == "qdrant" and not values["qdrant_url"]:
        assert eng.mode == (variant or "local")
    eng.snapshot_each_write = variant == "snapshots"
    eng.vectors.add_field(VectorField("unit", "test/axes", DIMS))
    eng.vectors.add_field(VectorField("sentences", "test/axes", DIMS, multi=True))
    yield eng
    eng.close()


def made_by_local_mode(folder):
    """A folder qdrant-client's local mode made (as an index from before the edge mode has): it stays
    in that mode."""
    from qdrant_client import QdrantClient

    folder.mkdir(parents=True)
    QdrantClient(path=str(folder)).close()


def axis(*weights: float) -> np.ndarray:
    v = np.zeros(DIMS, np.float32)
    v[:len(weights)] = weights
    return v / np.linalg.norm(v)


def unit(key: str, place: int, text: str, kind: str = "text", page: int | None = None, lang: str | None = "en",
         parts: tuple[str, ...] = ()) -> UnitRecord:
    return UnitRecord(kind=kind, text=text, text_hash=text_key(text), page=page, start=0, end=len(text), title="",
                      lang=lang, extra=extra_tokens(text), ids=id_tokens(text), parts=parts, id=unit_id(key, place))


def write(engine, path: str, kind: str, units: list[UnitRecord], vectors: dict[int, np.ndarray],
          date: float = 0.0, sentences: dict[int, np.ndarray] | None = None, suggestions=(), warnings=(),
          access: str = "", regions: dict[int, np.ndarray] | None = None, digest: str = "", part_of: str = ""):
    key = engine.catalog.file_key(path)
    fields = {"unit": vectors}
    if sentences:
        fields["sentences"] = sentences
    if regions:
        fields["regions"] = regions
    record = FileRecord(path, kind, 10, 1, digest or "hash-" + path, date, path.rsplit("/", 1)[-1], key, access,
                        part_of=part_of)
    engine.write_files([FileWrite(record, units, fields, list(suggestions), list(warnings))])
    if engine.snapshot_each_write:
        engine.finish_run()
    return units


@pytest.fixture
def three_files(engine):
    """lease.md (a text unit), notes/garden.md (two units, one in French) and scan.pdf (two pages)."""
    lease = write(engine, "lease.md", "text",
                  [unit("lease.md", 0, "The deposit refund is due within 30 days. Ticket LD-2026-0417.")],
                  {unit_id("lease.md", 0): axis(1, 0, 0, 0)}, date=100.0,
                  suggestions=[Suggestion("Lease"), Suggestion("deposit refund", None, "topic")])
    garden = write(engine, "notes/garden.md", "text",
                   [unit("notes/garden.md", 0, "Spray neem oil on the jasmine before seven."),
                    unit("notes/garden.md", 1, "Arroser le basilic chaque matin.", lang="fr")],
                   {unit_id("notes/garden.md", 0): axis(0, 1, 0, 0), unit_id("notes/garden.md", 1): axis(0, 1, 1, 0)},
                   date=200.0)
    scan = write(engine, "scan.pdf", "pdf",
                 [unit("scan.pdf", 0, "Invoice K7Q2ZP for the boiler repair.", kind="pdf_page", page=1),
                  unit("scan.pdf", 1, "The boiler was serviced in March.", kind="pdf_page", page=2)],
                 {unit_id("scan.pdf", 0): axis(0, 0, 1, 0), unit_id("scan.pdf", 1): axis(0, 0, 1, 1)}, date=300.0,
                 suggestions=[Suggestion("K7Q2ZP", 1, "detail"), Suggestion("boiler service", 2, "topic")])
    return {"lease": lease, "garden": garden, "scan": scan}


def keyword(engine, text: str, filters: Filters = Filters(), mode: str = "or", limit: int = 10) -> list[int]:
    return [uid for uid, _ in engine.keywords.search(parse(text), mode, "3<30%", filters, limit)]


def dense(engine, vector, filters: Filters = Filters(), field: str = "unit", limit: int = 10):
    return engine.vectors.search(field, vector, filters, limit)


# ---- catalog ---------------------------------------------------------------------------------

def test_units_come_back_as_written(engine, three_files):
    [u] = three_files["lease"]
    got = engine.catalog.units([u.id])[u.id]
    assert (got.id, got.path, got.file_kind, got.kind, got.page, got.text, got.date) == \
        (u.id, "lease.md", "text", "text", None, u.text, 100.0)
    pages = engine.catalog.file_units("scan.pdf")
    assert [(p.page, p.kind) for p in pages] == [(1, "pdf_page"), (2, "pdf_page")]
    assert engine.catalog.file_units("missing.md") is None
    assert engine.catalog.units([12345]) == {}
    assert got.line is None  # written without one, as a PDF's pages are


def test_a_units_line_comes_back_as_written(engine):
    from dataclasses import replace

    first, second = (replace(unit("main.py", n, text), line=line)
                     for n, (text, line) in enumerate((("def parse(raw):", 1), ("def main():", 40))))
    write(engine, "main.py", "code", [first, second], {first.id: axis(1), second.id: axis(0, 1)})
    assert [u.line for u in engine.catalog.file_units("main.py")] == [1, 40]
    assert engine.catalog.units([second.id])[second.id].line == 40


def test_copies_are_the_files_of_the_same_bytes_a_reader_may_read(engine, three_files):
    for path, access in (("downloads/lease.md", "u:ann u:bob"), ("old/lease.md", "u:ann")):
        write(engine, path, "text", [unit(path, 0, "The deposit refund is due within 30 days.")],
              {unit_id(path, 0): axis(1, 0, 0, 0)}, access=access, digest="hash-lease.md")
    catalog = engine.catalog
    assert catalog.copies(["lease.md", "scan.pdf"]) == {"lease.md": ["downloads/lease.md", "old/lease.md"]}
    assert catalog.copies(["downloads/lease.md"]) == {"downloads/lease.md": ["lease.md", "old/lease.md"]}
    assert catalog.copies(["lease.md"], ("u:bob",)) == {"lease.md": ["downloads/lease.md"]}
    assert catalog.copies(["lease.md"], ()) == {} and catalog.copies([]) == {}


def test_skipped_files_are_found_by_how_their_reason_begins(engine):
    catalog = engine.catalog
    catalog.record_error("a.pdf", "reading it crashed the process reading it (pdfium)")
    catalog.record_error("b.pdf", "encrypted PDF")
    catalog.record_error("c.pdf", "reading it crashed the process reading it (pdfium)")
    assert catalog.skipped_like("reading it crashed") == {"a.pdf", "c.pdf"}
    assert catalog.skipped_like("encrypted") == {"b.pdf"} and catalog.skipped_like("zip") == set()


def test_a_live_photos_two_files_are_each_others_copies(engine, three_files):
    write(engine, "2024/IMG_1234.HEIC", "image", [unit("2024/IMG_1234.HEIC", 0, "cat on a sofa")],
          {unit_id("2024/IMG_1234.HEIC", 0): axis(0, 0, 0, 1)})
    write(engine, "2024/IMG_1234.MOV", "video", [unit("2024/IMG_1234.MOV", 0, "video, 3 seconds")],
          {unit_id("2024/IMG_1234.MOV", 0): axis(0, 0, 0, 1)}, part_of="2024/IMG_1234.HEIC", access="u:ann")
    catalog = engine.catalog
    assert catalog.copies(["2024/IMG_1234.HEIC", "2024/IMG_1234.MOV", "lease.md"]) == {
        "2024/IMG_1234.HEIC": ["2024/IMG_1234.MOV"], "2024/IMG_1234.MOV": ["2024/IMG_1234.HEIC"]}
    assert catalog.copies(["2024/IMG_1234.HEIC"], ("u:bob",)) == {}  # the moving part is Ann's alone
    engine.rename_file("2024/IMG_1234.HEIC", FileState("2024/cat.HEIC", 10, 1, "hash-2024/IMG_1234.HEIC"))
    assert catalog.copies(["2024/IMG_1234.MOV"]) == {"2024/IMG_1234.MOV": ["2024/cat.HEIC"]}
    engine.delete_files(["2024/cat.HEIC"])
    assert catalog.copies(["2024/IMG_1234.MOV"]) == {}


def test_file_states_touch_and_errors(engine, three_files):
    states = engine.catalog.file_states()
    assert set(states) == {"lease.md", "notes/garden.md", "scan.pdf"}
    assert states["lease.md"] == FileState("lease.md", 10, 1, "hash-lease.md")
    engine.catalog.touch_files([FileState("lease.md", 11, 2, "hash-lease.md"),
                                FileState("scan.pdf", 12, 3, "hash-scan.pdf")])
    states = engine.catalog.file_states()
    assert (states["lease.md"], states["scan.pdf"]) == (FileState("lease.md", 11, 2, "hash-lease.md"),
                                                        FileState("scan.pdf", 12, 3, "hash-scan.pdf"))
    engine.catalog.record_error("broken.pdf", "damaged")
    engine.catalog.record_error("gone.pdf", "damaged")
    engine.catalog.prune_errors({"broken.pdf"})
    assert [(e["path"], e["level"]) for e in engine.status()["errors"]] == [("broken.pdf", "skipped")]


def test_a_file_inside_another_keeps_its_container(engine, three_files):
    """A member (CONTAINER#NAME) records its container: a rename moves both, errors inside follow it."""
    key = engine.catalog.file_key("a.zip#q3/plan.md")
    member = unit(key, 0, "The quarterly plan for the orchard.")
    record = FileRecord("a.zip#q3/plan.md", "text", 10, 1, "hash-member", 0.0, "plan.md", key, "*", "a.zip")
    engine.write_files([FileWrite(record, [member], {"unit": {member.id: axis(0, 0, 0, 1)}})])
    assert engine.catalog.file_states()["a.zip#q3/plan.md"].container == "a.zip"
    assert engine.catalog.file_states()["lease.md"].container == ""
    engine.rename_file("a.zip#q3/plan.md", FileState("b.zip#q3/plan.md", 10, 2, "hash-member", "*", "b.zip"))
    states = engine.catalog.file_states()
    assert "a.zip#q3/plan.md" not in states and states["b.zip#q3/plan.md"].container == "b.zip"
    assert keyword(engine, "orchard") == [member.id]
    assert engine.catalog.units([member.id])[member.id].path == "b.zip#q3/plan.md"
    engine.catalog.record_error("b.zip#x.pdf", "unreadable PDF")
    engine.catalog.record_error("b.zipper.txt", "binary data")
    assert engine.catalog.errors_inside({"b.zip"}) == [("b.zip#x.pdf", "unreadable PDF")]
    engine.catalog.prune_errors(set(), {"b.zip"})
    assert [e["path"] for e in engine.catalog.status()["errors"]] == ["b.zip#x.pdf"]
    engine.catalog.forget_errors_inside("b.zip")
    assert engine.catalog.status()["errors"] == []


def test_unit_ids_survive_a_rename_and_a_rewrite(engine, three_files):
    [u] = three_files["lease"]
    engine.rename_file("lease.md", FileState("old/lease.md", 10, 5, "hash-lease.md"))
    if engine.snapshot_each_write:
        engine.finish_run()
    assert engine.catalog.units([u.id])[u.id].path == "old/lease.md"
    assert keyword(engine, "deposit") == [u.id]
    assert keyword(engine, "old") == [u.id]  # folders are keywords too
    assert [uid for uid, _ in dense(engine, axis(1, 0, 0, 0), limit=1)] == [u.id]
    # The key stays with the renamed file; a new file at the old path gets its own.
    assert engine.catalog.file_key("old/lease.md") == "lease.md"
    assert engine.catalog.file_key("lease.md") != "lease.md"
    assert engine.catalog.unit_hashes("old/lease.md") == {u.text_hash: u.id}


def test_rewritten_file_replaces_its_units_everywhere(engine, three_files):
    new = unit("scan.pdf", 0, "A receipt for the chimney sweep.", kind="pdf_page", page=1)
    write(engine, "scan.pdf", "pdf", [new], {new.id: axis(0, 0, 0, 1)}, date=300.0)
    assert [u.text for u in engine.catalog.file_units("scan.pdf")] == ["A receipt for the chimney sweep."]
    assert new.id == three_files["scan"][0].id  # the same place keeps its id
    assert keyword(engine, "boiler") == []
    assert keyword(engine, "chimney") == [new.id]
    assert engine.keywords.id_search(("K7Q2ZP",), Filters(), 10) == []
    hits = dense(engine, axis(0, 0, 1, 1))
    assert unit_id("scan.pdf", 1) not in {uid for uid, _ in hits}
    assert engine.vectors.get("unit", [new.id, unit_id("scan.pdf", 1)]).keys() == {new.id}


def test_deleted_files_leave_every_role(engine, three_files):
    engine.delete_files(["scan.pdf", "notes/garden.md"])
    if engine.snapshot_each_write:
        engine.finish_run()
    [u] = three_files["lease"]
    assert set(engine.catalog.file_states()) == {"lease.md"}
    assert keyword(engine, "boiler neem deposit") == [u.id]
    assert [uid for uid, _ in dense(engine, axis(1, 1, 1, 1))] == [u.id]
    assert engine.status()["units"] == 1


def test_suggestions_and_meta(engine, three_files):
    # kinds in turn (pdf, text), each file's in the order written: round one the first of each
    assert engine.catalog.suggestions(5) == [
        {"text": "K7Q2ZP", "path": "scan.pdf", "page": 1, "aspect": "detail"},
        {"text": "Lease", "path": "lease.md", "page": None, "aspect": "file"},
        {"text": "boiler service", "path": "scan.pdf", "page": 2, "aspect": "topic"},
        {"text": "deposit refund", "path": "lease.md", "page": None, "aspect": "topic"}]
    assert engine.catalog.suggestions(1) == [{"text": "K7Q2ZP", "path": "scan.pdf", "page": 1, "aspect": "detail"}]
    assert engine.catalog.meta("nothing") is None
    engine.catalog.set_meta("root", "/home/me/notes")
    assert engine.catalog.meta("root") == "/home/me/notes"
    assert engine.catalog.has_units(("pdf_page",)) and not engine.catalog.has_units(("image",))


def test_generated_queries_come_with_their_file_page_and_aspect(engine, three_files):
    assert engine.catalog.generated_queries() == [
        StoredSuggestion("lease.md", "text", "lease.md", "Lease", None, "file"),
        StoredSuggestion("lease.md", "text", "lease.md", "deposit refund", None, "topic"),
        StoredSuggestion("scan.pdf", "pdf", "scan.pdf", "K7Q2ZP", 1, "detail"),
        StoredSuggestion("scan.pdf", "pdf", "scan.pdf", "boiler service", 2, "topic")]
    write(engine, "scan.pdf", "pdf", three_files["scan"][:1], {three_files["scan"][0].id: axis(0, 0, 1, 0)},
          suggestions=[Suggestion("boiler repair", 1, "topic")])  # written again: its queries replaced
    assert [(q.path, q.text) for q in engine.catalog.generated_queries()] == [
        ("lease.md", "Lease"), ("lease.md", "deposit refund"), ("scan.pdf", "boiler repair")]
    engine.delete_files(["lease.md"])  # and gone with their file
    assert [q.text for q in engine.catalog.generated_queries()] == ["boiler repair"]


def test_status_counts(engine, three_files):
    st = engine.status()
    assert (st["files"], st["units"]) == (3, 5)
    assert st["files_by_kind"] == {"pdf": 1, "text": 2}
    assert st["units_by_kind"] == {"pdf_page": 2, "text": 3}
    assert st["vectors"] == 5 and st["units_without_vector"] == 0


# ---- keywords --------------------------------------------------------------------------------

def test_keyword_matching_modes(engine, three_files):
    deposit = three_files["lease"][0].id
    boiler1, boiler2 = (u.id for u in three_files["scan"])
    assert keyword(engine, "deposit") == [deposit]
    assert set(keyword(engine, "boiler")) == {boiler1, boiler2}
    assert set(keyword(engine, "deposit boiler")) == {deposit, boiler1, boiler2}
    assert keyword(engine, "deposit boiler", mode="and") == []
    assert keyword(engine, "boiler march", mode="and") == [boiler2]
    # min_share "3<30%": up to three words all must match.
    assert keyword(engine, "boiler serviced march", mode="min_share") == [boiler2]
    # min_share_or (the keyword profile): those first, then the rest of the or list in its order,
    # as `or` ranks them: the same as asking min_share, then or.
    either = keyword(engine, "boiler serviced march", mode="min_share_or")
    assert either[0] == boiler2 and set(either) == {boiler1, boiler2}
    from scent.engines.matching import then_or

    two_asks = then_or(engine.keywords.search, parse("boiler serviced march"), "min_share", "3<30%", Filters(), 10)
    assert either == [uid for uid, _ in two_asks]


def test_keyword_alternatives_are_one_term(engine, three_files):
    """`boiler jasmine OR invoice`: boiler, and one of jasmine and invoice (an ID or a phrase too)."""
    deposit = three_files["lease"][0].id
    boiler1, boiler2 = (u.id for u in three_files["scan"])

    def matching(text, *groups, mode="min_share"):
        return set(uid for uid, _ in engine.keywords.search(parse(text, alternatives=groups), mode, "3<30%",
                                                             Filters(), 10))

    assert matching("boiler", ("jasmine", "invoice")) == {boiler1}
    assert matching("boiler", ("jasmine", "invoice"), mode="and") == {boiler1}
    assert matching("boiler", ("LD-2026-0417", "K7Q2ZP")) == {boiler1}
    assert matching("", ("LD-2026-0417", "K7Q2ZP")) == {deposit, boiler1}
    assert matching("boiler", ("neem oil", "serviced in march")) == {boiler2}
    assert engine.keywords.holds(parse("xyzzyplugh", alternatives=(("qqq", "neem"),)), Filters()) == [False, True]


def test_keyword_a_translated_query_matches_the_english_words(engine, three_files):
    """translate_query's alternatives reach both engines: Spanish marzo and aceite find March and oil."""
    from scent.gloss import translate_query

    boiler2 = three_files["scan"][1].id
    neem = three_files["garden"][0].id
    spanish = translate_query(parse("marzo aceite"), "es", "to_english")
    assert [t.also for t in spanish.terms] == [("march",), ("oil",)]
    found = {uid for uid, _ in engine.keywords.search(spanish, "or", "3<30%", Filters(), 10)}
    assert found == {boiler2, neem}
    assert engine.keywords.holds(spanish, Filters()) == [True, True]


def test_keyword_a_name_with_symbols_ranks_its_notes_first(engine):
    """C++ and C# were the letter c to the tokenizer: each note held it alike."""
    notes = {name: write(engine, f"{name}.md", "text", [unit(f"{name}.md", 0, text)], {unit_id(f"{name}.md", 0): axis(1)})[0].id
             for name, text in (("c", "Macros and templates in C."), ("cs", "Templates and generics in C#."),
                                ("cpp", "Templates and traits in C++."))}
    first, *others = keyword(engine, "C++ templates")
    assert first == notes["cpp"] and set(others) == {notes["c"], notes["cs"]}  # an older index's notes still match
    first, *others = keyword(engine, "C#")
    assert first == notes["cs"] and set(others) == {notes["c"], notes["cpp"]}


def test_keyword_an_identifier_finds_it_in_another_style(engine):
    snake = write(engine, "client.py", "code", [unit("client.py", 0, "def parse_http_header(raw): pass")],
                  {unit_id("client.py", 0): axis(1)})[0].id
    camel = write(engine, "client.js", "code", [unit("client.js", 0, "class TokenBucket { refill() {} }")],
                  {unit_id("client.js", 0): axis(0, 1)})[0].id
    assert keyword(engine, "parseHttpHeader") == [snake]
    assert keyword(engine, "token_bucket") == [camel]


def test_keyword_an_iban_in_groups_and_whole_find_each_other(engine):
    grouped = write(engine, "invoice.md", "text", [unit("invoice.md", 0, "Pay to IBAN GB33 BUKB 2020 1555 5555 55.")],
                    {unit_id("invoice.md", 0): axis(1)})[0].id
    whole = write(engine, "note.md", "text", [unit("note.md", 0, "Standing order to DE89370400440532013000 monthly.")],
                  {unit_id("note.md", 0): axis(0, 1)})[0].id
    assert keyword(engine, "GB33BUKB20201555555555") == [grouped]
    assert keyword(engine, "DE89 3704 0044 0532 0130 00") == [whole]
    assert [uid for uid, _ in engine.keywords.id_search(parse("GB33BUKB20201555555555").ids, Filters(), 10)] == [grouped]


def test_keyword_ranking_prefers_the_rarer_word_and_denser_match(engine, three_files):
    boiler1, boiler2 = (u.id for u in three_files["scan"])
    # "invoice" is in one unit only: the unit with both words ranks first.
    assert keyword(engine, "boiler invoice")[0] == boiler1


def test_keyword_filters(engine, three_files):
    boiler1, boiler2 = (u.id for u in three_files["scan"])
    assert set(keyword(engine, "boiler deposit", Filters.build(kinds=["pdf"]))) == {boiler1, boiler2}
    assert keyword(engine, "boiler deposit", Filters(after=50.0, before=150.0)) == [three_files["lease"][0].id]
    assert set(keyword(engine, "neem basilic deposit", Filters.build(path="notes/"))) == \
        {u.id for u in three_files["garden"]}
    assert keyword(engine, "neem basilic", Filters.build(path="notes/", lang="fr")) == [three_files["garden"][1].id]
    assert keyword(engine, "neem", Filters.build(path="*.pdf")) == []
    # **/ is any folders or none: lease.md at the top, notes/garden.md a folder down.
    assert set(keyword(engine, "deposit neem", Filters.build(path="**/*.md"))) == \
        {three_files["lease"][0].id, three_files["garden"][0].id}
    assert keyword(engine, "neem", Filters.build(path="notes/**/garden.md")) == [three_files["garden"][0].id]
    assert keyword(engine, "boiler", Filters(exclude=("pdf_page",))) == []


def test_keyword_holds_says_which_terms_exist_under_the_filters(engine, three_files):
    from scent.query import parse

    assert engine.keywords.holds(parse("boiler xyzzyplugh deposit"), Filters()) == [True, False, True]
    assert engine.keywords.holds(parse("boiler deposit"), Filters.build(kinds=["pdf"])) == [True, False]
    assert engine.keywords.holds(parse(""), Filters()) == []


def test_keyword_word_counts_count_the_units_holding_each_word(engine, three_files):
    # Words as the index keeps them: "boilers" is held as boiler's stem; words none holds are left out.
    words = ["boiler", "boilers", "deposit", "xyzzyplugh"]
    assert engine.keywords.word_counts(words, Filters(), 10) == {"boiler": 2, "boilers": 2, "deposit": 1}
    assert engine.keywords.word_counts(words, Filters.build(kinds=["pdf"]), 10) == {"boiler": 2, "boilers": 2}
    assert engine.keywords.word_counts(["boiler"], Filters(), 1) == {"boiler": 1}
    assert engine.keywords.word_counts([], Filters(), 10) == {}


def test_ids_exact_and_one_character_off(engine, three_files):
    deposit = three_files["lease"][0].id
    boiler1 = three_files["scan"][0].id
    assert engine.keywords.id_search(("LD20260417",), Filters(), 10) == [(deposit, 2.0)]
    # An OCR slip: K7QZZP for K7Q2ZP is one character off.
    assert engine.keywords.id_search(("K7QZZP",), Filters(), 10) == [(boiler1, 1.0)]
    assert engine.keywords.id_search(("K7QZZP",), Filters.build(kinds=["text"]), 10) == []
    assert engine.keywords.id_search(("ZZZZZZZZ",), Filters(), 10) == []
    # The ID one off that a unit holds, for spelling to say: none where the ID is held as typed
    assert engine.keywords.near_ids("K7QZZP", Filters()) == ["K7Q2ZP"]
    assert engine.keywords.near_ids("K7Q2ZP", Filters()) == []
    assert engine.keywords.near_ids("K7QZZP", Filters.build(kinds=["text"])) == []
    assert engine.keywords.near_ids("K7QZ", Filters()) == []  # too short to guess at


def run_query(engine, text: str, vector=None) -> list[tuple[str, int | None]]:
    """The whole search pipeline over `engine`, the query language included: (path, page) results."""
    from scent import search as pipeline
    from scent.syntax import combine, parse as parse_syntax

    parsed = parse_syntax(text)
    # The query's vector is made by hand (every unit in the dense list): feedback would move it.
    s = Settings(other_language_stand_in=False, feedback_units=0)
    request = pipeline.Request(parsed.text, parse(parsed.keyword_text, alternatives=parsed.alternatives),
                               combine(Filters(), parsed.filters), s, engine,
                               lambda _: vector if vector is not None else axis(1, 1, 1, 1), None, parsed.constraints)
    return [(r.path, r.page) for r in pipeline.run(request, 10)[0]]


def test_phrases_and_exclusions(engine, three_files):
    # Every unit is in the dense list (4 dims, 5 units), so only the constraints leave any out.
    assert sorted(run_query(engine, "boiler")) == [("lease.md", None), ("notes/garden.md", None), ("scan.pdf", 2)]
    assert run_query(engine, '"boiler repair"') == [("scan.pdf", 1)]          # page 1 says it, page 2 does not
    assert run_query(engine, '"repair boiler"') == []                        # not in that order
    assert run_query(engine, '"the BOILER was"') == [("scan.pdf", 2)]         # case and spacing do not matter
    assert sorted(run_query(engine, '"boiler repair" OR "neem oil"')) == [("notes/garden.md", None), ("scan.pdf", 1)]
    # -march: page 2 says March, so the whole file goes, page 1 too
    assert sorted(run_query(engine, "boiler -march")) == [("lease.md", None), ("notes/garden.md", None)]
    assert sorted(run_query(engine, 'boiler -"chaque matin" ext:md')) == [("lease.md", None)]
    assert run_query(engine, "boiler dir:notes lang:fr") == [("notes/garden.md", None)]


# ---- vectors ---------------------------------------------------------------------------------

def test_dense_ranks_by_cosine_under_filters(engine, three_files):
    lease, = (u.id for u in three_files["lease"])
    g0, g1 = (u.id for u in three_files["garden"])
    s0, s1 = (u.id for u in three_files["scan"])
    hits = dense(engine, axis(0, 1, 1, 0))
    assert hits[0][0] == g1 and {uid for uid, _ in hits[1:3]} == {g0, s0}  # 1.0, then 0.707 twice
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert len(hits) == 5 and hits[-1][0] == lease and hits[-1][1] == pytest.approx(0.0, abs=1e-5)
    assert [uid for uid, _ in dense(engine, axis(0, 1, 1, 0), Filters.build(kinds=["pdf"]))] == [s0, s1]
    assert [uid for uid, _ in dense(engine, axis(0, 1, 1, 0), Filters(after=250.0))] == [s0, s1]
    assert [uid for uid, _ in dense(engine, axis(0, 1, 1, 0), Filters.build(lang="fr"))] == [g1]
    assert dense(engine, axis(1, 0, 0, 0), limit=2)[0][0] == lease


def test_a_unit_that_lasts_passes_an_after_filter_while_it_runs(engine):
    """A unit's span (UnitRecord.until: a repeating event's last occurrence) reaches every list:
    `after` lets it through while it still runs, `before` goes by its start."""
    from dataclasses import replace

    series = replace(unit("cal.ics", 0, "weekly pottery class"), page=1, date=100.0, until=500.0)
    once = replace(unit("cal.ics", 1, "pottery fair"), page=2, date=100.0)
    later = replace(unit("cal.ics", 2, "pottery exhibition"), page=3, date=400.0)
    write(engine, "cal.ics", "calendar", [series, once, later],
          {series.id: axis(1, 0, 0, 0), once.id: axis(1, 1, 0, 0), later.id: axis(1, 0, 1, 0)}, date=50.0,
          sentences={series.id: np.stack([axis(0, 0, 0, 1)])})
    for filters, want in ((Filters(after=300.0), {series.id, later.id}),
                          (Filters(after=300.0, before=450.0), {series.id, later.id}),
                          (Filters(after=500.0), {series.id}),  # its last moment counts
                          (Filters(after=600.0), set()),
                          (Filters(before=150.0), {series.id, once.id})):
        assert set(keyword(engine, "pottery", filters)) == want, filters
        assert {uid for uid, _ in dense(engine, axis(1, 0, 0, 0), filters)} == want, filters
    assert [uid for uid, _ in dense(engine, axis(0, 0, 0, 1), Filters(after=300.0), field="sentences")] == [series.id]
    # Shown by its start, as before.
    assert {uid: u.date for uid, u in engine.catalog.units([series.id, once.id]).items()} == \
        {series.id: 100.0, once.id: 100.0}


def test_a_unit_is_found_by_its_best_sentence(engine):
    a = unit("notes.md", 0, "garden note", parts=("water before seven", "spray neem oil"))
    b = unit("notes.md", 1, "tax note")
    write(engine, "notes.md", "text", [a, b], {a.id: axis(1, 0, 0, 0), b.id: axis(0, 0, 0.6, 0.8)},
          sentences={a.id: np.stack([axis(0, 1, 0, 0), axis(0, 0, 1, 0)])})
    # a's own vector is orthogonal to the query, but its sentence "spray neem oil" is the query.
    [(uid, score)] = dense(engine, axis(0, 0, 1, 0), field="sentences")
    assert uid == a.id and score == pytest.approx(1.0, abs=1e-5)
    assert [h[0] for h in dense(engine, axis(0, 0, 1, 0))] == [b.id, a.id]
    got = engine.vectors.get("sentences", [a.id, b.id])
    assert set(got) == {a.id} and got[a.id].shape == (2, DIMS)
    assert np.allclose(engine.vectors.get("unit", [a.id])[a.id], axis(1, 0, 0, 0), atol=1e-6)
    # The file rewritten without a: its sentences go too.
    write(engine, "notes.md", "text", [unit("notes.md", 0, "tax note")], {a.id: axis(0, 0, 0.6, 0.8)})
    assert dense(engine, axis(0, 0, 1, 0), field="sentences") == []
    assert engine.status()["sentence_vectors"] == 0


def test_pages_rank_by_maxsim_of_many_query_vectors(engine):
    """Late interaction (scent.multivector): each query vector meets its best region, summed."""
    engine.vectors.add_field(VectorField("regions", "test/axes", DIMS, multi=True, storage="binary"))
    a, b, c = (unit("deck.pdf", i, f"page {i + 1}", kind="pdf_page", page=i + 1) for i in range(3))
    d = unit("chart.png", 0, "a chart", kind="image")
    write(engine, "deck.pdf", "pdf", [a, b, c], {u.id: axis(0, 0, 0, 1) for u in (a, b, c)},
          regions={a.id: np.stack([axis(1, 0, 0, 0), axis(0, 1, 0, 0)]), b.id: np.stack([axis(1, 1, 0, 0)]),
                   c.id: np.stack([axis(0, 0, 1, 0), axis(0, 0, 1, 1)])})
    write(engine, "chart.png", "image", [d], {d.id: axis(0, 0, 0, 1)},
          regions={d.id: np.stack([axis(1, 0, 0, 0), axis(0, 0, 1, 0)])})
    queries = np.stack([axis(1, 0, 0, 0), axis(0, 1, 0, 0)])
    got = engine.vectors.multi_search("regions", queries, Filters(), 10, first_phase=100)
    # a: 1 + 1; d: 1 + 0; b: 2 x cos 45 degrees; c: 0 + 0.
    assert [uid for uid, _ in got] == [a.id, b.id, d.id, c.id]
    assert [s for _, s in got] == pytest.approx([2.0, 2 ** 0.5, 1.0, 0.0], abs=1e-3)
    only_pdf = engine.vectors.multi_search("regions", queries, Filters.build(kinds=["pdf"]), 2)
    assert [uid for uid, _ in only_pdf] == [a.id, b.id]
    assert engine.vectors.get("regions", [c.id])[c.id].shape == (2, DIMS)
    # A field of one vector a unit: the sum of the queries' cosines with it (c: 0 + 0; a, b: 0 + 0 too).
    [(_, top)] = engine.vectors.multi_search("unit", np.stack([axis(0, 0, 0, 1), axis(0, 0, 1, 1)]), Filters(), 1)
    assert top == pytest.approx(1 + 2 ** -0.5, abs=1e-3)


def test_fields_refuse_another_model(engine):
    with pytest.raises(IndexVersionError):
        engine.vectors.add_field(VectorField("unit", "another/model", DIMS))
    with pytest.raises(IndexVersionError):
        engine.vectors.add_field(VectorField("unit", "test/axes", DIMS * 2))
    engine.vectors.add_field(VectorField("unit", "test/axes", DIMS))  # the same again: fine
    assert set(engine.vectors.fields()) == {"unit", "sentences"}
    assert engine.vectors.fields()["sentences"].multi


def test_newest_lists_the_kept_files_by_date_with_their_first_kept_unit(engine, three_files):
    lease, garden, scan = (three_files[name] for name in ("lease", "garden", "scan"))
    # dates: lease.md 100, notes/garden.md 200, scan.pdf 300
    assert engine.catalog.newest(Filters(), 10) == [scan[0].id, garden[0].id, lease[0].id]
    assert engine.catalog.newest(Filters(), 2) == [scan[0].id, garden[0].id]
    assert engine.catalog.newest(Filters(kinds=("text",)), 10) == [garden[0].id, lease[0].id]
    assert engine.catalog.newest(Filters(lang="fr"), 10) == [garden[1].id]  # the first unit it keeps
    assert engine.catalog.newest(Filters(path="notes/"), 10) == [garden[0].id]
    assert engine.catalog.newest(Filters(before=150.0), 10) == [lease[0].id]
    assert engine.catalog.newest(Filters(after=400.0), 10) == []
    assert engine.catalog.newest(Filters(path="nowhere/*.md"), 10) == []


def test_an_empty_engine_answers_nothing(engine):
    assert engine.catalog.newest(Filters(), 10) == []
    assert dense(engine, axis(1, 0, 0, 0)) == []
    assert keyword(engine, "anything") == []
    assert engine.keywords.id_search(("LD20260417",), Filters(), 10) == []
    assert engine.status()["files"] == 0


def test_fields_read_ahead_still_see_later_writes(engine, three_files):
    """`prepare` (a fresh search reads the fields while the model computes the query's vector)
    takes fields that do not exist, and what it read is no stale copy."""
    engine.vectors.prepare(("unit", "sentences", "no such field"))
    before = dense(engine, axis(1, 1, 1, 1))
    extra = unit("new.md", 0, "a new note about the deposit")
    write(engine, "new.md", "text", [extra], {extra.id: axis(1, 1, 1, 1)})
    engine.vectors.prepare(("unit",))
    hits = dense(engine, axis(1, 1, 1, 1))
    assert len(hits) == len(before) + 1 and hits[0][0] == extra.id


def test_writes_are_seen_by_a_second_reader(engine, three_files, tmp_path):
    from scent.engines import engine_class

    if engine.name != "sqlite":
        pytest.skip("a second reader of a local folder is the sqlite engine's case")
    other = engine_class(engine.name)(tmp_path / "index", Settings(backend=engine.name))
    before = len(dense(other, axis(1, 1, 1, 1)))  # the reader holds the field now
    for path in ("scan.pdf",):
        engine.delete_files([path])
    if engine.snapshot_each_write:
        engine.finish_run()
    try:
        assert len(dense(other, axis(1, 1, 1, 1))) == before - 2  # the deleted pages are gone for it too
        extra = unit("new.md", 0, "a new note about the deposit")
        write(engine, "new.md", "text", [extra], {extra.id: axis(1, 1, 1, 1)})
        hits = dense(other, axis(1, 1, 1, 1))
        assert len(hits) == before - 1 and hits[0][0] == extra.id
        assert [h[0] for h in dense(other, axis(0, 0, 1, 1), Filters.build(kinds=["pdf"]))] == []
    finally:
        other.close()


# ---- who may read what (scent.access) ------------------------------------------------------------
# Readers are stored principals; a search names the asker's. Here: lease.md is alice's alone,
# notes/garden.md the team's (and root's), scan.pdf everyone's; bob is in no group, carol in team.
BOB = Filters(readers=("*", "u:bob"))
CAROL = Filters(readers=("*", "g:team", "u:carol"))
ALICE = Filters(readers=("*", "u:alice"))


@pytest.fixture
def guarded(engine):
    """The three files of `three_files`, each with its readers, and a sentence vector on lease.md."""
    lease = unit("lease.md", 0, "The deposit refund is due within 30 days. Ticket LD-2026-0417.",
                 parts=("The deposit refund is due within 30 days.",))
    write(engine, "lease.md", "text", [lease], {lease.id: axis(1, 0, 0, 0)}, date=100.0,
          sentences={lease.id: np.stack([axis(1, 0, 0, 0)])}, suggestions=[Suggestion("Lease")], access="u:alice")
    garden = [unit("notes/garden.md", 0, "Spray neem oil on the jasmine before seven.")]
    write(engine, "notes/garden.md", "text", garden, {garden[0].id: axis(0, 1, 0, 0)}, date=200.0,
          suggestions=[Suggestion("Garden")], access="g:team u:root")
    scan = [unit("scan.pdf", 0, "Invoice K7Q2ZP for the boiler repair.", kind="pdf_page", page=1)]
    write(engine, "scan.pdf", "pdf", scan, {scan[0].id: axis(0, 0, 1, 0)}, date=300.0,
          suggestions=[Suggestion("Invoice"), Suggestion("boiler repair", 1, "topic")], access="*")
    engine.catalog.record_error("lease.md", "a picture was not read", "u:alice")
    engine.catalog.record_error("locked.pdf", "damaged", "u:alice")
    return {"lease": lease.id, "garden": garden[0].id, "scan": scan[0].id}


def visible(engine, filters: Filters) -> dict[str, set[str]]:
    """What each way out shows a reader: the paths of every candidate list, of the catalog's reads."""
    paths = lambda ids: {engine.catalog.units([i])[i].path for i in ids}  # noqa: E731
    return {
        "newest": paths(engine.catalog.newest(filters, 10)),
        "keyword": paths(keyword(engine, "deposit neem boiler", filters)),
        "ids": paths(uid for uid, _ in engine.keywords.id_search(("LD20260417", "K7Q2ZP"), filters, 10)),
        "dense": paths(uid for uid, _ in dense(engine, axis(1, 1, 1, 0), filters)),
        "sentences": paths(uid for uid, _ in dense(engine, axis(1, 0, 0, 0), filters, field="sentences")),
        "file_units": {p for p in ("lease.md", "notes/garden.md", "scan.pdf")
                       if engine.catalog.file_units(p, filters.readers) is not None},
        "suggestions": {s["path"] for s in engine.catalog.suggestions(10, filters.readers)},
        "generated_queries": {q.path for q in engine.catalog.generated_queries(filters.readers)},
        "status_errors": {e["path"] for e in engine.status(filters.readers)["errors"]},
    }


def test_spelling_corrects_only_to_words_the_reader_may_read(engine, guarded):
    # deposit is only in lease.md, which bob may not read: naming it would tell him what the file holds.
    from scent.spelling import corrections

    query = parse("boilr repair deposti refund")
    assert corrections(engine, query, BOB) == {"boilr": "boiler"}
    assert corrections(engine, query, ALICE) == {"boilr": "boiler", "deposti": "deposit"}


def test_spelling_reads_a_joined_word_as_files_hyphenate_it_for_the_reader(engine):
    # "second-hand" only in alice's note; "sign on" with a space is no hyphenated word
    from scent.spelling import corrections

    note = unit("shop.md", 0, "A second-hand bike with a read-only lock code. The sign on the door says closed.")
    write(engine, "shop.md", "text", [note], {note.id: axis(1, 0, 0, 0)}, access="u:alice")
    flyer = unit("flyer.md", 0, "Pop-up shop on Saturday, on-call staff.")
    write(engine, "flyer.md", "text", [flyer], {flyer.id: axis(0, 1, 0, 0)}, access="*")
    if engine.snapshot_each_write:
        engine.finish_run()
    query = parse("secondhand readonly popup signon")
    assert corrections(engine, query, ALICE) == {"secondhand": "second-hand", "readonly": "read-only",
                                                 "popup": "pop-up"}
    assert corrections(engine, query, BOB) == {"popup": "pop-up"}


def test_each_reader_sees_only_what_they_may_read(engine, guarded):
    assert visible(engine, BOB) == {"newest": {"scan.pdf"}, "keyword": {"scan.pdf"}, "ids": {"scan.pdf"}, "dense": {"scan.pdf"},
                                    "sentences": set(), "file_units": {"scan.pdf"}, "suggestions": {"scan.pdf"},
                                    "generated_queries": {"scan.pdf"},
                                    "status_errors": set()}
    assert visible(engine, CAROL) == {"newest": {"scan.pdf", "notes/garden.md"},
                                      "keyword": {"scan.pdf", "notes/garden.md"},
                                      "ids": {"scan.pdf"}, "dense": {"scan.pdf", "notes/garden.md"},
                                      "sentences": set(), "file_units": {"scan.pdf", "notes/garden.md"},
                                      "suggestions": {"scan.pdf", "notes/garden.md"},
                                      "generated_queries": {"scan.pdf", "notes/garden.md"}, "status_errors": set()}
    every = {"scan.pdf", "notes/garden.md", "lease.md"}
    assert visible(engine, ALICE) == {"newest": {"scan.pdf", "lease.md"}, "keyword": {"scan.pdf", "lease.md"}, "ids": {"scan.pdf", "lease.md"},
                                      "dense": {"scan.pdf", "lease.md"}, "sentences": {"lease.md"},
                                      "file_units": {"scan.pdf", "lease.md"}, "suggestions": {"scan.pdf", "lease.md"},
                                      "generated_queries": {"scan.pdf", "lease.md"},
                                      "status_errors": {"lease.md", "locked.pdf"}}
    # No principals at all: nothing; unrestricted (root): everything, as before readers existed.
    assert all(not v for v in visible(engine, Filters(readers=())).values())
    assert visible(engine, Filters()) == {"newest": every, "keyword": every, "ids": {"scan.pdf", "lease.md"}, "dense": every,
                                          "sentences": {"lease.md"}, "file_units": every, "suggestions": every,
                                          "generated_queries": every,
                                          "status_errors": {"lease.md", "locked.pdf"}}
    st = engine.status(BOB.readers)
    assert (st["files"], st["units"], st["files_by_kind"]) == (1, 1, {"pdf": 1})


def test_readers_combine_with_other_filters(engine, guarded):
    assert keyword(engine, "deposit neem boiler", Filters(kinds=("text",), readers=ALICE.readers)) == \
        [guarded["lease"]]
    assert dense(engine, axis(1, 1, 1, 0), Filters(after=150.0, readers=ALICE.readers))[0][0] == guarded["scan"]
    assert keyword(engine, "deposit neem", Filters(path="notes/", readers=BOB.readers)) == []
    assert [uid for uid, _ in dense(engine, axis(0, 1, 0, 0), Filters(path="notes/", readers=CAROL.readers))] == \
        [guarded["garden"]]


def test_new_readers_reach_every_list(engine, guarded):
    """A chmod: the bytes stay, the readers change. A reader that searched before sees the change."""
    assert visible(engine, BOB)["dense"] == {"scan.pdf"}  # the reader's vectors are loaded now
    engine.set_access({"lease.md": "*", "scan.pdf": "u:alice"})
    if engine.snapshot_each_write:
        engine.finish_run()
    for _ in range(2):  # again after the next snapshot: the rows written again are in it
        seen = visible(engine, BOB)
        assert seen["keyword"] == seen["dense"] == seen["ids"] == seen["sentences"] == seen["file_units"] == \
            {"lease.md"}
        assert seen["status_errors"] == {"lease.md"}  # its warning follows its readers; locked.pdf's stays alice's
        engine.finish_run()
    # The vectors are the same vectors: scores did not move.
    [(uid, score)] = dense(engine, axis(1, 0, 0, 0), BOB, limit=1)
    assert uid == guarded["lease"] and score == pytest.approx(1.0, abs=1e-2)
    assert engine.catalog.file_states()["lease.md"].access == "*"
