"""Units scored by their best sentence (UnitRecord.parts); how engines store and search them is in
test_engine_contract.py."""
from __future__ import annotations

from scent.chunk import sentences


def test_sentences_split_and_join_short_pieces():
    text = "# Garden\n\nWater before seven. Spray neem oil on the jasmine!\n- Basil\nमल्लिका को पानी दें। फिर धूप में रखें।"
    assert sentences(text) == ["# Garden Water before seven.", "Spray neem oil on the jasmine!",
                               "- Basil मल्लिका को पानी दें।", "फिर धूप में रखें।"]
    assert sentences("Only one sentence here.") == []


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
        parts[on] = idx.engine.db.execute("SELECT count(*) FROM vectors WHERE field = 'sentences'").fetchone()[0]
        idx.close()
    assert parts == {True: 3, False: 0}
