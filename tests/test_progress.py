"""Progress a person can read: each stage of an index run, files and units per second, time left,
the current file; a line in place on a terminal, a plain line every 10 s otherwise, none with --quiet."""
import io

import pytest

from click.testing import CliRunner

import scent.index
from scent import Index, Settings
from scent.commands import cli
from scent.progress import Progress, Tracker, stage, tracking
from scent.terminal import ProgressPrinter, progress_line


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_an_index_run_reports_each_stage_and_ends_with_every_file_done(notes, tmp_path, fake_embedder):
    seen: list[Progress] = []
    with Index(notes, index_dir=tmp_path / "idx", embedder=fake_embedder,
               settings=Settings(embed_batch=2)) as idx:
        report = idx.update(progress=seen.append)
    stages = [p.stage for p in seen]
    assert stages[0] == "scanning"
    assert {"reading", "models loading", "embedding", "writing"} <= set(stages)
    # Loading the model comes once, before the first batch is embedded.
    assert stages.count("models loading") == 1
    assert stages.index("models loading") < stages.index("embedding")
    last = seen[-1]
    assert (last.files_done, last.files_total) == (3, 3)
    assert last.units_embedded == report.embedded == fake_embedder.passages_seen
    # Files are counted one by one, in order, never past the total.
    done = [p.files_done for p in seen]
    assert done == sorted(done) and set(done) == {0, 1, 2, 3}
    reading = {p.path for p in seen if p.stage == "reading"}
    assert reading == {"lease.md", "recipe.txt", "code/http.py"}


def test_an_unchanged_run_reports_no_files_to_do(notes, tmp_path, fake_embedder):
    with Index(notes, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        seen = []
        idx.update(progress=seen.append)
    assert [(p.stage, p.files_total) for p in seen] == [("scanning", 0)]


def test_stages_inside_extraction_reach_the_runs_tracker_and_end_with_their_block():
    got = []
    tracker = Tracker(4, got.append, clock=Clock())
    stage("OCR").__enter__()  # outside a run: announced to nobody, and no error
    with tracking(tracker):
        tracker.stage("reading", "scan.png")
        with stage("OCR"):
            pass
    assert [(p.stage, p.path) for p in got] == [("reading", "scan.png"), ("OCR", "scan.png"), ("reading", "scan.png")]


def test_rates_and_time_left_are_computed_from_the_run_so_far():
    clock = Clock()
    tracker = Tracker(18, None, clock=clock)
    assert tracker.snapshot().seconds_left is None  # no pace before the first file
    clock.now += 4.0
    for i in range(12):
        tracker.file_done(f"f{i}")
    tracker.embedded(180)
    tracker.stage("embedding", "notes/lease.md")
    p = tracker.snapshot()
    assert p.files_per_s == 3.0           # 12 files in 4 s
    assert p.units_per_s == 45.0          # 180 units in 4 s
    assert p.seconds_left == 2.0          # 6 files left at 4/12 s each
    assert progress_line(p) == ("scent: embedding       12/18 files  3.0 files/s  45 texts/s  ~2 s left  "
                                "notes/lease.md")


def test_time_left_counts_texts_where_a_long_file_holds_the_files_after_it():
    """18 files; the second is a long one whose 500 texts are embedded before any file after it is
    done. By hand: 4 files read held 1 + 500 + 10 + 9 = 520 texts, so 18 files hold about
    520 x 18 / 4 = 2,340; 300 embedded, 299 of them in the 29 s after the first batch: 2,040 left at
    299 / 29 a second, 198 s. Counted in files (1 done in 30 s) it said 17 x 30 = 510 s, and more
    each second until the long file was written."""
    clock = Clock()
    tracker = Tracker(18, None, clock=clock)
    tracker.found("a.md", 1)
    clock.now += 1.0
    tracker.embedded(1)
    tracker.file_done("a.md")
    tracker.found("thesis.pdf", 500)
    assert tracker.snapshot().seconds_left is None  # 2 of 18 read: under a fifth, no pace yet
    for path, texts in (("b.md", 10), ("c.md", 9)):
        tracker.found(path, texts)
    clock.now += 29.0
    tracker.embedded(299)
    p = tracker.snapshot()
    assert (p.files_done, p.files_read, p.texts_found) == (1, 4, 520)
    assert p.seconds_left == pytest.approx((520 * 18 / 4 - 300) * 29 / 299)
    tracker.file_done("skipped.pdf")  # done as it was read: read too
    assert tracker.snapshot().files_read == 5


def test_time_left_is_at_the_pace_after_the_models_first_batch():
    """The first batch holds the model's loading: counted, a half-minute run's first estimates were
    14 and 5 minutes. By hand: 2 of 5 files read held 200 texts, so about 500; after the first
    batch (100 texts at 12 s), 100 more in 4 s is 25 a second: 300 left, 12 s."""
    clock = Clock()
    tracker = Tracker(5, None, clock=clock)
    for path in ("a.md", "b.md"):
        tracker.found(path, 100)
    clock.now += 12.0
    tracker.embedded(100)
    assert tracker.snapshot().seconds_left is None  # one batch: no pace yet
    clock.now += 4.0
    tracker.embedded(100)
    p = tracker.snapshot()
    assert (p.embedding_for, p.embedded_since, p.elapsed) == (4.0, 100, 16.0)
    assert p.seconds_left == pytest.approx(12.0)


def test_a_run_that_embeds_nothing_counts_time_left_in_files():
    clock = Clock()
    tracker = Tracker(10, None, clock=clock)
    tracker.found("a.md", 0)
    clock.now += 2.0
    tracker.file_done("a.md")
    assert tracker.snapshot().seconds_left == 18.0


def test_long_times_and_long_paths_read_well():
    p = Progress("reading", 1, 1001, 0, "a/" + "x" * 60 + ".md", 7.5)
    line = progress_line(p)
    assert "~2 h 05 min left" in line  # 1000 files at 7.5 s each
    assert line.endswith("..." + ("a/" + "x" * 60 + ".md")[-47:])
    assert "~1 min 05 s left" in progress_line(Progress("reading", 1, 14, 0, "", 5.0))


def test_without_a_terminal_a_plain_line_every_ten_seconds():
    clock, out = Clock(), io.StringIO()
    printer = ProgressPrinter(out, interactive=False, clock=clock)
    printer(Progress("scanning", 0, 0, 0, "", 0.0))      # nothing to say yet: no total
    printer(Progress("reading", 0, 50, 0, "a.md", 0.1))  # the first line, at once
    for t in range(1, 10):                               # then nothing for 10 s, stages or not
        clock.now += 1
        printer(Progress("embedding" if t % 2 else "reading", t, 50, 10 * t, "b.md", t))
    clock.now += 1
    printer(Progress("writing", 10, 50, 100, "c.md", 10.0))
    printer.message("scent: skipped d.pdf: encrypted")
    printer.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("scent: reading         0/50 files")
    assert lines[1].startswith("scent: writing         10/50 files  1.0 files/s  10 texts/s  ~40 s left  c.md")
    assert lines[2] == "scent: skipped d.pdf: encrypted"
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()


def test_on_a_terminal_one_line_in_place_and_messages_above_it():
    clock, out = Clock(), io.StringIO()
    printer = ProgressPrinter(out, interactive=True, clock=clock)
    printer(Progress("reading", 0, 2, 0, "a.md", 0.0))
    printer(Progress("reading", 0, 2, 0, "b.md", 0.0))    # same stage, too soon: not drawn
    printer(Progress("embedding", 0, 2, 0, "", 0.01))     # a new stage is drawn at once
    printer.message("scent: warning: a.md: cut short")
    printer.close()
    text = out.getvalue()
    assert "b.md" not in text
    assert text.count("\rscent: embedding") == 2          # drawn, then drawn again below the message
    assert "\r\x1b[Kscent: warning: a.md: cut short\n" in text
    assert text.endswith("\r\x1b[K")                      # erased for the summary line


def test_cli_progress_goes_to_stderr_and_quiet_silences_it(notes, tmp_path, monkeypatch):
    from conftest import FakeEmbedder

    monkeypatch.setattr(scent.index, "E5Embedder", FakeEmbedder)
    runner = CliRunner()
    loud = runner.invoke(cli, ["index", str(notes), "--index", str(tmp_path / "a")])
    assert loud.exit_code == 0, loud.output
    assert "scent: reading         0/3 files" in loud.stderr
    quiet = runner.invoke(cli, ["index", str(notes), "--index", str(tmp_path / "b"), "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert "files/s" not in quiet.stderr and "indexed " in quiet.stderr
