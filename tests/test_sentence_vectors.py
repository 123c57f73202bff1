"""Units scored by their best sentence (UnitRecord.parts): storage, dense search, cleanup."""
from __future__ import annotations

import numpy as np

from scent.chunk import sentences
from scent.filters import Filters
from scent.sqlite_store import SqliteStore
from scent.store import FileRecord, UnitRecord, text_key


def unit(text: str, parts: tuple[str, ...] = ()) -> UnitRecord:
    return UnitRecord(kind="text", text=text, text_hash=text_key(text), page=None, start=0, end=len(text),
                      title="", lang="en", extra="", ids="", parts=parts)


def axis(i: int, dim: int = 4) -> np.ndarray:
    v = np.zeros(dim, np.float32)
    v[i] = 1.0
    return v


def test_sentences_split_and_join_short_pieces():
    text = "# Garden\n\nWater before seven. Spray neem oil on the jasmine!\n- Basil\nमल्लिका को पानी दें। फिर धूप में रखें।"
    assert sentences(text) == ["# Garden Water before seven.", "Spray neem oil on the jasmine!",
                               "- Basil मल्लिका को पानी दें।", "फिर धूप में रखें।"]
    assert sentences("Only one sentence here.") == []


def test_a_unit_is_found_by_its_best_sentence(tmp_path):
    store = SqliteStore(str(tmp_path / "index.db"), "test/axes", 4)
    a = unit("garden note", parts=("water before seven", "spray neem oil"))
    b = unit("tax note")
    vectors = {a.text_hash: axis(0), text_key("water before seven"): axis(1),
               text_key("spray neem oil"): axis(2), b.text_hash: (axis(2) * 0.6 + axis(3) * 0.8)}
    store.write_file(FileRecord("notes.md", "text", 1, 1, "h", 0.0), [a, b], vectors)
    (a_id, a_score), (b_id, b_score) = store.dense_search(axis(2), Filters(), limit=10)
    # a's own vector is orthogonal to the query, but its sentence "spray neem oil" is the query.
    assert (a_score, b_score) == (1.0, np.float32(0.6).item())
    assert store.units([a_id])[a_id].text == "garden note"
    # One hit per unit, however many of its vectors score; `vectors` gives a unit's own vector.
    assert len(store.dense_search(axis(1), Filters(), limit=10)) == 2
    assert np.array_equal(store.vectors([a_id])[a_id], axis(0))
    store.finish_run()  # part vectors are in use: kept
    assert len(store.cached_hashes([text_key("spray neem oil")])) == 1
    store.write_file(FileRecord("notes.md", "text", 1, 2, "h2", 0.0), [b], {})
    store.finish_run()  # a and its parts are gone: so are their vectors
    assert store.cached_hashes([text_key("spray neem oil"), a.text_hash]) == set()
    [(only, _)] = store.dense_search(axis(1), Filters(), limit=10)
    assert store.units([only])[only].text == "tax note"



def test_sentence_vectors_setting(tmp_path, fake_embedder):
    from scent import Index
    from scent.settings import Settings
    (tmp_path / "fr.md").write_text("La chaudière a été révisée en mars. Le technicien a changé la vanne. "
                                    "La prochaine révision est prévue au printemps.\n")
    parts = {}
    for on in (True, False):
        idx = Index(tmp_path, index_dir=tmp_path.parent / f"idx-{on}", embedder=fake_embedder,
                    settings=Settings(sentence_vectors=on, ocr=False, describe=False))
        idx.update()
        parts[on] = idx.store.db.execute("SELECT count(*) FROM unit_parts").fetchone()[0]
        idx.close()
    assert parts == {True: 3, False: 0}
