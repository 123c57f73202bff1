"""Late interaction (scent.multivector): regions, query phrases, the two-phase MaxSim, the
profiles that fuse its list, and the multi-vector model plug-in point with a tiny model made
here (random weights, numpy only: plumbing, nothing about how well a real ColPali finds pages).

Expectations are worked out by hand from the few vectors written."""
from __future__ import annotations

import zlib
from importlib.metadata import EntryPoint

import numpy as np
import pytest
from PIL import Image

from scent import multivector as mv
from scent.chunk import MAX_REGIONS, regions
from scent.errors import IndexVersionError, ScentError, UsageError
from scent.filters import Filters
from scent.index import Index
from scent.settings import Settings

# ---- regions and query phrases --------------------------------------------------------------------


def test_regions_are_lines_short_ones_joined_lists_split():
    text = ("Partisan optimism about the 2014 elections\nRepublicans\n62%\nDemocrats\n41%\n"
            "drawing, chart, bar chart, blue, white")
    assert regions(text) == [
        "Partisan optimism about the 2014 elections",
        "Republicans 62% Democrats",       # three short lines make one region of 3 words
        "41%, drawing, chart",             # ... the rest joins the description's first parts
        "bar chart, blue, white",
    ]
    assert regions("") == [] and regions("one") == ["one"]
    long = " ".join(f"w{i}" for i in range(30))
    assert regions(long) == [" ".join(f"w{i}" for i in range(24)), " ".join(f"w{i}" for i in range(24, 30))]
    assert len(regions("\n".join(f"line number {i}" for i in range(100)))) == MAX_REGIONS


def test_query_phrases_are_the_query_and_windows_of_its_content_words():
    assert mv.query_phrases("map of the survey zones") == ["map of the survey zones", "map survey", "survey zones"]
    assert mv.query_phrases("invoice") == ["invoice"]
    q = "alpha beta gamma delta epsilon"
    assert mv.query_phrases(q, most=3) == [q, "alpha beta", "beta gamma", "gamma delta"]


# ---- scoring ----------------------------------------------------------------------------------------

def test_sign_bits_hamming_and_exact_maxsim_by_hand():
    rows = np.array([[1, -1, 1, -1, 1, 1, 1, 1], [-1] * 8, [1] * 8], np.float32)
    bits = mv.sign_bits(rows)
    assert bits.tolist() == [[0b10101111], [0], [0xFF]]
    order, starts, uids = mv.groups(np.array([7, 3, 7]))
    assert order.tolist() == [1, 0, 2] and starts.tolist() == [0, 1] and uids.tolist() == [3, 7]
    q = mv.sign_bits(np.array([[1] * 8, [-1] * 8], np.float32))
    # unit 3 (row 1, all negative): 1 - 2*8/8 = -1 for q1, 1 for q2 -> 0.
    # unit 7 (rows 0, 2): q1 best is row 2 (distance 0) -> 1; q2 best is row 0 (distance 6) -> 1 - 12/8 = -0.5.
    assert mv.hamming_maxsim(mv.words(q), mv.words(bits[order]), starts, 8).tolist() == [0.0, 0.5]
    # In blocks of one row (each unit whole, the two-row unit alone in its block): the same.
    assert mv.hamming_maxsim(mv.words(q), mv.words(bits[order]), starts, 8, block=1).tolist() == [0.0, 0.5]
    vectors = np.array([[1, 0], [0, 1], [0.6, 0.8]], np.float32)
    queries = np.array([[1, 0], [0, 1]], np.float32)
    # unit at rows 0-1: 1 + 1; unit at row 2: 0.6 + 0.8.
    assert mv.maxsim(queries, vectors, np.array([0, 2])) == pytest.approx([2.0, 1.4])


def test_the_hamming_pass_in_blocks_scores_as_in_one():
    rng = np.random.default_rng(5)
    rows = rng.standard_normal((3_000, 64)).astype(np.float32)
    order, starts, _ = mv.groups(rng.integers(0, 400, size=len(rows)))
    words = mv.words(mv.sign_bits(rows[order]))
    q = mv.words(mv.sign_bits(rng.standard_normal((5, 64)).astype(np.float32)))
    whole = mv.hamming_maxsim(q, words, starts, 64, block=len(rows))
    for block in (1, 7, 100, 2_999):
        assert np.array_equal(mv.hamming_maxsim(q, words, starts, 64, block=block), whole)


def test_the_first_phase_passes_only_its_best_units_on(tmp_path):
    """sqlite: with first_phase 1, only the unit the sign codes rank first is scored exactly."""
    from scent.engines.sqlite import SqliteEngine
    from test_engine_contract import axis, unit, write

    engine = SqliteEngine(tmp_path / "ix", Settings())
    engine.snapshot_each_write = False
    from scent.storage import VectorField

    engine.vectors.add_field(VectorField("unit", "test/axes", 4))
    engine.vectors.add_field(VectorField("regions", "test/axes", 4, multi=True, storage="binary"))
    a, b = unit("a.pdf", 0, "a", kind="pdf_page", page=1), unit("a.pdf", 1, "b", kind="pdf_page", page=2)
    write(engine, "a.pdf", "pdf", [a, b], {a.id: axis(1), b.id: axis(1)},
          regions={a.id: np.stack([axis(1, 0, 0, 0)]), b.id: np.stack([axis(1, 0.9, 0, 0)])})
    q = np.stack([axis(1, 0, 0, 0)])
    assert [u for u, _ in engine.vectors.multi_search("regions", q, Filters(), 5, first_phase=2)] == [a.id, b.id]
    # Centred on the rows' mean (0.872, 0.335, 0, 0), a's sign code is 1000 as the query's, b's 0100
    # (distance 2): only a goes on.
    assert [u for u, _ in engine.vectors.multi_search("regions", q, Filters(), 5, first_phase=1)] == [a.id]
    engine.close()


# ---- a tiny ColPali-style model, made here ----------------------------------------------------------

DIM = 16
_W = np.random.default_rng(7).standard_normal((3, DIM)).astype(np.float32)  # RGB -> patch space
_COLOURS = {"red": (1, 0, 0), "green": (0, 1, 0), "blue": (0, 0, 1)}


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


class TinyPatches:
    """Random weights: a page is a 4x4 grid of patches, each its mean colour through W; a query is
    one vector per word: a colour word is that colour through W, any other word a random vector
    seeded by the word."""

    model_id = "test/tiny-patches"
    dim = DIM
    pages_seen = 0

    def embed_query(self, text):
        out = []
        for word in text.lower().split():
            if word in _COLOURS:
                out.append(np.asarray(_COLOURS[word], np.float32) @ _W)
            else:
                out.append(np.random.default_rng(zlib.crc32(word.encode())).standard_normal(DIM).astype(np.float32))
        return _unit(np.stack(out))

    def embed_pages(self, images):
        TinyPatches.pages_seen += len(images)
        pages = []
        for im in images:
            a = np.asarray(im.convert("RGB").resize((32, 32)), np.float32) / 255
            patches = a.reshape(4, 8, 4, 8, 3).mean(axis=(1, 3)).reshape(16, 3)
            pages.append(_unit(patches @ _W + 1e-6))
        return pages


class OtherTiny(TinyPatches):
    model_id = "test/other"


@pytest.fixture
def tiny(monkeypatch):
    TinyPatches.pages_seen = 0
    registered = {"tiny": TinyPatches, "other": OtherTiny}
    monkeypatch.setattr(mv, "installed", lambda: {
        name: EntryPoint(name, f"{__name__}:{cls.__name__}", mv.GROUP) for name, cls in registered.items()})
    return registered


@pytest.fixture
def pictures(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    Image.new("RGB", (64, 64), "red").save(root / "all-red.png")
    Image.new("RGB", (64, 64), "green").save(root / "all-green.png")
    corner = Image.new("RGB", (64, 64), "blue")
    corner.paste(Image.new("RGB", (16, 16), "red"), (0, 0))
    corner.save(root / "blue-with-red-corner.png")
    (root / "note.txt").write_text("Water the tomatoes on Sunday.\n")
    return root


QUIET = dict(ocr=False, describe=False, index_workers=1)


def test_a_tiny_patch_model_indexes_pictures_and_answers_queries(pictures, tiny, fake_embedder, tmp_path):
    idx = Index(pictures, index_dir=tmp_path / "ix", embedder=fake_embedder,
                settings=Settings(multivector_model="tiny", **QUIET))
    idx.update()
    assert TinyPatches.pages_seen == 3  # the three pictures; the note has none
    field = idx.engine.vectors.fields()["regions"]
    assert (field.model, field.dims, field.multi, field.storage) == ("test/tiny-patches", DIM, True, "binary")
    # "red blue": only the blue picture with a red corner has a patch of each (MaxSim 1 + 1).
    _, lists = idx.search_with_lists("red blue", strategy="multivector")
    assert list(lists) == ["multivector"] and lists["multivector"][0] == "blue-with-red-corner.png"
    assert idx.search_with_lists("green", strategy="multivector")[1]["multivector"][0] == "all-green.png"
    # Fused with the others; filters reach it as every list.
    _, lists = idx.search_with_lists("green", strategy="hybrid+multivector")
    assert {"dense", "keyword", "multivector"} <= set(lists)
    _, lists = idx.search_with_lists("green", strategy="multivector", filters=Filters.build(path="all-red"))
    assert lists["multivector"] == ["all-red.png"]
    idx.close()
    # The index remembers its model: another one needs a rebuild.
    with pytest.raises(IndexVersionError, match="regions were embedded with test/tiny-patches"):
        Index(pictures, index_dir=tmp_path / "ix", embedder=fake_embedder,
              settings=Settings(multivector_model="other", **QUIET)).update()


def test_a_model_giving_the_wrong_shape_says_whose_fault(pictures, tiny, fake_embedder, tmp_path, monkeypatch):
    monkeypatch.setattr(TinyPatches, "embed_pages", lambda self, images: [np.zeros((2, 3))] * len(images))
    idx = Index(pictures, index_dir=tmp_path / "ix", embedder=fake_embedder,
                settings=Settings(multivector_model="tiny", **QUIET))
    with pytest.raises(ScentError, match=r"test/tiny-patches returned page vectors of shape \(2, 3\)"):
        idx.update()


def test_an_unknown_model_lists_the_installed_ones(tiny):
    with pytest.raises(UsageError, match="unknown multivector_model 'colpali'; installed: other, tiny"):
        Settings().with_values(multivector_model="colpali")


# ---- the text-model path and the profiles ------------------------------------------------------------

def test_text_regions_feed_the_multivector_list_only_where_asked(pictures, fake_embedder, tmp_path):
    (pictures / "scan.txt").write_text("not a page")
    idx = Index(pictures, index_dir=tmp_path / "ix", embedder=fake_embedder,
                settings=Settings(region_vectors=True, **QUIET))
    idx.update()
    field = idx.engine.vectors.fields()["regions"]
    assert (field.model, field.storage) == ("fake/hashed-words", "binary")
    # Each picture's name-and-date unit has regions; text files have none.
    count = idx.engine.db.execute("SELECT COUNT(DISTINCT unit_id) FROM vectors WHERE field = 'regions'").fetchone()[0]
    assert count == 3
    assert "multivector" not in idx.search_with_lists("red")[1]  # the default profile: hybrid
    _, lists = idx.search_with_lists("red picture", strategy="multivector")
    assert lists["multivector"][0] == "all-red.png"
    # Text units are in it too, by their own vectors (they have no regions).
    assert set(lists["multivector"]) == {"all-red.png", "all-green.png", "blue-with-red-corner.png", "note.txt",
                                         "scan.txt"}
    _, lists = idx.search_with_lists("red", strategy="keyword")
    assert set(lists) <= {"keyword", "ids"}
    idx.close()
    off = Index(pictures, index_dir=tmp_path / "off", embedder=fake_embedder, settings=Settings(**QUIET))  # the default
    off.update()
    assert "regions" not in off.engine.vectors.fields()
    assert "multivector" not in off.search_with_lists("red", strategy="hybrid+multivector")[1]
    assert off.search("red", strategy="multivector") == []  # no list to make: nothing found, no error
    off.close()
