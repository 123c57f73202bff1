"""The `scent` command's commands: parse flags, call the library, format. No search logic lives
here. The entry point is scent.cli.main, which may start a search's model first."""
from __future__ import annotations

import datetime as dt
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack, nullcontext
from pathlib import Path

import click

from .dates import iso
from .errors import ScentError, UsageError, cannot_write
from .kinds import FILE_KINDS, place
from .settings import SETTINGS, load
from .terminal import ProgressPrinter, json_line, visible, visible_lines

SURE_AT_MOST = 0.99  # the most a result is shown sure (the web page's app.js says the same)

MAX_COPIES_SHOWN = 3  # a result's copies named under it; the rest are counted
# The paths the commands take, one click type of each shared by every flag (click's types hold no
# state; each one made asks gettext for its name, ~0.1 ms of every start, a fresh search's too).
DIRECTORY, EXISTING_DIRECTORY = click.Path(file_okay=False), click.Path(file_okay=False, exists=True)
FILE, EXISTING_FILE = click.Path(dir_okay=False), click.Path(dir_okay=False, exists=True)


def _setting_options(scope: str):
    """One --flag per setting of `scope`, generated from the settings table (made by _Command when
    the command is first parsed or shown: see there)."""
    def decorate(fn):
        fn.__scent_setting_scopes__ = (scope, *getattr(fn, "__scent_setting_scopes__", ()))
        return fn
    return decorate


def _setting_flags(scopes: tuple[str, ...]) -> list[click.Option]:
    flags = []
    for scope in scopes:
        for s in (s for s in SETTINGS if s.scope == scope):
            kind = click.Choice(s.choices) if s.choices else (click.BOOL if isinstance(s.default, bool) else type(s.default))
            flags.append(click.Option(["--" + s.name.replace("_", "-"), s.name], type=kind, default=None,
                                      show_default=False, help=f"{s.help} [default: {s.default}]"))
    return flags


class _Command(click.Command):
    """A command whose settings' flags (after its own options, in the table's order) are made
    when its parameters are first asked for. Why: the settings give ~150 flags over all commands,
    and making them all was a tenth of the Python work a fresh `scent search` does before its
    query's vector is needed; a run parses one command."""

    def __init__(self, *args, **kwargs):
        self._scopes = ()
        super().__init__(*args, **kwargs)
        self._scopes = getattr(self.callback, "__scent_setting_scopes__", ())

    @property
    def params(self) -> list[click.Parameter]:
        if self._scopes:
            scopes, self._scopes = self._scopes, ()
            self._params.extend(_setting_flags(scopes))
        return self._params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._params = value


class _Group(click.Group):
    command_class = _Command
    group_class = type  # subgroups (scent token) are _Groups too


def _index():
    # Imported when a command runs: `scent search` starts loading the model first (see search_cmd).
    from .index import Index

    return Index


def _settings(params: dict):
    names = {s.name for s in SETTINGS}
    return load(**{k: v for k, v in params.items() if k in names})


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="scent")
def cli():
    """scent: search your own files by what they say and show."""


@cli.command("index")
@click.argument("folder", type=EXISTING_DIRECTORY)
@click.option("--index", "index_dir", type=DIRECTORY, help="Index directory (default: one per folder under $SCENT_HOME).")
@click.option("--rebuild", is_flag=True, help="Throw the existing index away and build it again.")
@click.option("-q", "--quiet", is_flag=True, help="No progress (stage, files, rates, time left) on stderr.")
@_setting_options("index")
@_setting_options("storage")
def index_cmd(folder, index_dir, rebuild, quiet, **params):
    """Index FOLDER, or bring its index up to date (only changed files are read)."""
    settings = _settings(params)
    # A TERM (a service manager, `kill`) stops the run as Ctrl-C does, and says so: it ended the
    # process without a word. What the run wrote is kept either way.
    # Put back when the command ends: run in a process of other work (a test, a script calling main),
    # the processes it forks later took a TERM for Ctrl-C.
    before = signal.signal(signal.SIGTERM, _interrupted)
    try:
        _index_run(folder, index_dir, rebuild, quiet, settings)
    finally:
        signal.signal(signal.SIGTERM, before)


def _index_run(folder, index_dir, rebuild: bool, quiet: bool, settings) -> None:
    with _index()(folder, index_dir=index_dir, settings=settings, rebuild=rebuild) as idx:
        printer = ProgressPrinter(sys.stderr)
        say = printer.message
        skips = _Skips(say)
        try:
            report = idx.update(progress=None if quiet else printer, on_skip=skips,
                                on_warning=lambda path, reason: say(visible(f"scent: warning: {path}: {reason}")))
        except KeyboardInterrupt:
            printer.close()
            click.echo(visible(f"scent: stopped; the files indexed so far are kept: scent index {idx.root} "
                               "goes on from there"), err=True)
            sys.exit(130)
        skips.close()
        printer.close()
        for notice in report.notices:
            click.echo(visible(f"scent: note: {notice}"), err=True)
        st = idx.status()
    click.echo(
        f"indexed {visible(idx.root)}: {report.added} new, {report.updated} changed, {report.renamed} renamed, "
        f"{report.deleted} deleted, {report.unchanged + report.touched} unchanged, {len(report.skipped)} skipped "
        f"({report.embedded} texts embedded) in {report.seconds:.1f}s; "
        f"{st['files']} files, {st['units']} units", err=True)
    from .skipped import UNSUPPORTED, summary

    # The files it did not read and said nothing of, file by file: kinds scent does not read.
    unread = [c for c in st["not_indexed"] if c["cause"] == UNSUPPORTED]
    if unread:
        click.echo(visible(f"scent: not indexed (kinds scent does not read): {summary(unread)}; "
                           "scent status --skipped lists them"), err=True)


class _Skips:
    """Says each file an indexing run skipped on a line of its own, but the files that are online
    only (a synced cloud folder holds thousands) in one line at the end: what a person can act on."""

    def __init__(self, say: Callable[[str], None]):
        self.say, self.online = say, 0

    def __call__(self, path: str, reason: str) -> None:
        from .skipped import ONLINE, cause

        if cause(reason) == ONLINE:
            self.online += 1
        else:
            self.say(visible(f"scent: skipped {path}: {reason}"))

    def close(self) -> None:
        if self.online:
            n, self.online = self.online, 0
            self.say(f"scent: skipped {n} file{'s' * (n != 1)} online only (in the cloud, not on this computer; scent "
                     "does not download them): keep them on this device to index them; scent status --skipped lists "
                     "them")


def _filter_options(fn):
    """--only, --path, --after, --before, --lang: the filters of every command that searches."""
    for option in reversed([
        click.option("--only", "kinds", multiple=True, help="Keep only this kind (" + ", ".join(FILE_KINDS) + "; or a unit kind such as pdf_page); repeatable."),
        click.option("--path", help="Keep only paths starting with this prefix, or matching this glob (notes/*.md; * crosses folders, **/ is any folders or none)."),
        click.option("--after", help="Keep only files dated on or after this day (2025-07-14), month (2025-07), year (2025), or 'last week', 'yesterday', 'this month' ..."),
        click.option("--before", help="Keep only files dated on or before this day, month, year or named period (as --after)."),
        click.option("--lang", help="Keep only units in this language (ISO code: en, es, fr, hi, ta ...; or its English name: tamil)."),
    ]):
        fn = option(fn)
    return fn


@cli.command("search")
@click.argument("query", nargs=-1)
@click.option("-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="Number of results.")
@_filter_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per result line.")
@click.option("--explain", is_flag=True, help="Show each result's rank and score in every list and its RRF share.")
@click.option("--folder", "folders", multiple=True, type=DIRECTORY,
              help="Search the index of this folder; repeat it to search several at once.")
@click.option("--index", "index_dir", type=DIRECTORY, help="Search this index directory.")
@click.option("--as", "as_user", metavar="USER", help="Answer as USER sees the folder: only files USER may read (default: you).")
@click.option("--no-server", is_flag=True, help="Search in this process even when `scent serve` runs for this index.")
@_setting_options("search")
@_setting_options("storage")
@click.pass_obj
def search_cmd(started, query, k, kinds, path, after, before, lang, as_json, explain, folders, index_dir, as_user,
               no_server, **params):
    """Search the index for QUERY (plain words, an ID, a code identifier ...). Filters alone, without
    QUERY (--only pdf --after 2025-03, or ext:pdf after:2025-03), list the files they keep, newest first.

    When `scent serve` runs for the index (on this machine), it answers, and a line on stderr
    says so; --no-server, --as, a setting given as a flag, or several --folder search here instead."""
    settings = _settings(params)
    text = " ".join(query)
    if len(folders) > 1 and index_dir:
        raise UsageError("--index names one index; give several folders with --folder, or one --index")
    from .filters import Filters

    filters = Filters.build(kinds, path, after, before, lang)  # bad input: one line, before any server is asked
    # The sure results are shown before the weak ones, so the first few shown are chosen among at
    # least ASSESSED: with -k 4 "no good match" was said where -k 10 showed its 7th, sure, first.
    asked = k if as_json else max(k, ASSESSED)
    # The server answers as the user running it: a search --as another user is made here.
    if not no_server and as_user is None and len(folders) <= 1 and all(v is None for v in params.values()):
        answered = _ask_server(folders[0] if folders else None, index_dir, text, asked, kinds, path, after, before,
                               lang, explain)
        if answered is not None:
            results, corrected, translation, listed = answered
            return _show(results, as_json, len(folders) > 1, corrected, translation, listed, k=k)
    from .embed import Prefetched

    # The model loads and embeds the query while the index is found and opened (`started`: the
    # model scent.cli.main started before the flags were parsed, or None).
    embedder = None
    if settings.strategy != "keyword":
        embedder = started if isinstance(started, Prefetched) else Prefetched()
        embedder.ask(text)
    Index = _index()
    if len(folders) > 1:
        results = _search_folders(Index, folders, text, asked, filters, explain, settings, embedder, as_user)
    else:
        with Index.open(folders[0] if folders else None, index_dir, settings=settings, embedder=embedder) as idx:
            _say_which(idx)
            _say_unfinished(idx)
            results = idx.search(text, k=asked, filters=filters, explain=explain, as_user=as_user)
            if not results and filters.kinds:
                _say_kinds_held(idx, filters.kinds, as_user)
    _show(results, as_json, len(folders) > 1, results.corrected, results.translation, results.listed, k=k)


def _say_kinds_held(idx, kinds: tuple[str, ...], as_user: str | None) -> None:
    """Where --only asked for kinds of file the index holds none of, which it holds: slides exported
    as PDF are pdf, and a bare "no results" read as a search that found nothing."""
    from .kinds import FILE_KINDS

    held = idx.status(as_user)["files_by_kind"]
    if held and all(kind in FILE_KINDS and not held.get(kind) for kind in kinds):
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(held.items(), key=lambda kv: -kv[1]))
        click.echo(visible(f"scent: the index holds no file of kind {', '.join(kinds)}; its files are {counts}"),
                   err=True)


@cli.command("similar")
@click.argument("file")
@click.option("--page", type=click.IntRange(min=1), help="Files like this page of FILE (a PDF's page, a slide).")
@click.option("-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="Number of results.")
@_filter_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per result line.")
@click.option("--folder", type=DIRECTORY, help="Use the index of this folder (default: the one FILE lies in).")
@click.option("--index", "index_dir", type=DIRECTORY, help="Use this index directory.")
@click.option("--as", "as_user", metavar="USER", help="Answer as USER sees the folder: only files USER may read (default: you).")
@_setting_options("search")
@_setting_options("storage")
def similar_cmd(file, page, k, kinds, path, after, before, lang, as_json, folder, index_dir, as_user, **params):
    """Files like FILE, by what they are about (their words need not match): FILE is a file on disk in
    an indexed folder, or a path as results show it. Loads no model."""
    from .filters import Filters

    filters = Filters.build(kinds, path, after, before, lang)
    on_disk = os.path.realpath(file) if os.path.exists(file) else None
    # A file on disk names its index as the current folder does: its folder's, or a parent's.
    with _index().open(folder, index_dir, near=on_disk and os.path.dirname(on_disk),
                       settings=_settings(params)) as idx:
        _say_which(idx)
        rel = file
        root = os.path.realpath(idx.root) if idx.root else None
        if on_disk and root and Path(on_disk).is_relative_to(root):
            rel = Path(on_disk).relative_to(root).as_posix()
        results = idx.similar(rel, page=page, k=k, filters=filters, as_user=as_user)
    _show(results, as_json, False)


class _Answered(dict):
    """A result as `scent serve` sent it (SearchResult.to_dict()), read like a SearchResult."""

    def __getattr__(self, name):
        if name == "explain":  # left out of to_dict() when there is none
            return self.get(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_dict(self) -> dict:
        return dict(self)


def _ask_server(folder, index_dir, text, k, kinds, path, after, before, lang,
                explain) -> tuple[list, dict, str, bool] | None:
    """The results of the `scent serve` running for this index, the words it corrected, the query's
    translation and whether it listed files (filters alone), or None (none runs, or it did not
    answer): see scent.serve.discovery."""
    from .errors import IndexNotFound
    from .serve import discovery
    from . import location

    try:
        found = location.find_index(folder, index_dir, discovery.has_index_or_server)
    except IndexNotFound:
        return None  # searching here says what is wrong
    server = discovery.running(found.index_dir)
    if server is None:
        return None
    params = [("q", text), ("k", str(k)), *(("only", kind) for kind in kinds), ("explain", str(explain).lower())]
    params += [(name, value) for name, value in (("path", path), ("after", after), ("before", before),
                                                 ("lang", lang)) if value]
    answer = discovery.ask(server, params, found.index_dir)
    if answer is None:
        return None
    if found.how == "last":
        click.echo(visible(f"scent: no index for this folder; searching {server.get('root')} (indexed last; "
                           "--folder chooses another, scent list shows them)"), err=True)
    click.echo(visible(f"scent: answered by the server at {discovery.url(server)} (scent serve, pid {server['pid']}); "
                       "--no-server searches in this process"), err=True)
    _say_run(answer.get("unfinished_run"), server.get("root"))
    return ([_Answered(r) for r in answer["results"]], answer.get("corrected") or {}, answer.get("translation") or "",
            bool(answer.get("listed")))


# Results a text search chooses its shown ones among (sure ones first), whatever its -k.
ASSESSED = 10


def _show(results, as_json: bool, several: bool, corrected: dict[str, str] | None = None,
          translation: str = "", listed: bool = False, k: int | None = None) -> None:
    """Prints `results` (the first `k` shown: in fused order as JSON, the sure ones first as text)."""
    for said in (corrected and corrected_line(corrected), translation and translated_line(translation)):
        if said:  # on stderr under --json, whose stdout holds only result lines
            click.echo(("scent: " if as_json else "") + said, err=as_json)
    if as_json:
        for r in results[:k]:
            click.echo(json_line(r.to_dict()))
        return
    if not results:
        click.echo("no results", err=True)
    # Results below the confidence floor follow the others under a line of their own (an older
    # server's results carry no confidence: none is weak).
    strong = [r for r in results if not getattr(r, "weak", False)][:k]
    weak = [r for r in results if getattr(r, "weak", False)][:None if k is None else k - len(strong)]
    if weak and not strong:
        click.echo("no good match: nothing clears the confidence floor. The closest results:")
    if listed and results:
        click.echo("the files the filters keep, newest first:")
    # Numbered as listed: the sure ones first keep their order, the weak follow (fused ranks 1, 4, then
    # 2, 3, 5 read as results gone missing; `rank` in --json is the fused one).
    for shown_rank, r in enumerate(strong + weak, start=1):
        if weak and strong and r is weak[0]:
            click.echo("weak matches:")
        page = f"  {place(r.kind, r.page)}" if r.page else ""
        if getattr(r, "unit_kind", "") == "sheet" and r.title:  # a workbook's sheet and rows ("Budget 2025 rows 1-30")
            page = f"  {visible(r.title)}"
        if not r.page and r.title and "#" in r.path and r.path.rpartition("#")[2].partition(".")[0].isdigit():
            page = f"  ({visible(r.title)})"  # a mailbox's message, an Evernote export's note: its subject or title
        shown = os.path.join(r.folder, r.path) if several else r.path
        if getattr(r, "line", None):  # path:line, as an editor or a terminal opens it (an older server's carry none)
            shown = f"{shown}:{r.line}"
        sure = getattr(r, "confidence", None)
        # Never "100% sure": the figure is the model's estimate, and even its top answers are sometimes
        # wrong (docs/retrieval-tuning.md, session 17).
        sure = f"  {min(sure, SURE_AT_MOST):.0%} sure" if sure is not None else ""
        # A listing has no score: its order is the date (an answer from a server has it as ISO text).
        figure = (r.date if isinstance(r.date, str) else iso(r.date) or "")[:10] if listed else f"{r.score:.4f}"
        click.echo(f"{shown_rank:>2}. {click.style(visible(shown), bold=True)}{page}  [{r.kind}]  {figure}{sure}")
        click.echo(f"    {_highlight(r.snippet, r.highlights)}")
        if getattr(r, "gone", False):  # (an older server's results carry none)
            click.echo("    deleted since the folder was indexed (scent index drops it)")
        translated = getattr(r, "translated", "")  # (an older server's results carry none)
        if translated:
            click.echo(f"    in English, machine-translated: {_highlight(translated, r.translated_highlights)}")
        copies = [os.path.join(r.folder, c) if several else c for c in getattr(r, "copies", None) or ()]
        if copies:  # (an older server's results carry none)
            more = f" and {len(copies) - MAX_COPIES_SHOWN} more" if len(copies) > MAX_COPIES_SHOWN else ""
            click.echo(f"    also at: {', '.join(visible(c) for c in copies[:MAX_COPIES_SHOWN])}{more}")
        if r.explain is not None:
            for name, e in r.explain.items():
                if e is None:
                    click.echo(f"      {name:<8} not in list")
                else:
                    where = f" p.{e['page']}" if e["page"] else ""
                    click.echo(f"      {name:<8} rank {e['rank']:>3}  score {e['score']:.4f}  "
                               f"+{e['contribution']:.4f}  unit {visible(e['unit'])}{where}")


@cli.command("context")
@click.argument("query", nargs=-1, required=True)
@click.option("--tokens", type=click.IntRange(50, 100_000), default=2000, show_default=True,
              help="About how many tokens the passages may take (estimated, erring high).")
@_filter_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the passages, their citations and the text.")
@click.option("--folder", type=DIRECTORY, help="Use the index of this folder.")
@click.option("--index", "index_dir", type=DIRECTORY, help="Use this index directory.")
@click.option("--as", "as_user", metavar="USER", help="Answer as USER sees the folder: only files USER may read (default: you).")
@_setting_options("search")
@_setting_options("storage")
def context_cmd(query, tokens, kinds, path, after, before, lang, as_json, folder, index_dir, as_user, **params):
    """The best passages for QUERY, overlapping chunks merged, each cited (path, page), within about
    --tokens tokens: to paste into an LLM's prompt."""
    from .filters import Filters

    filters = Filters.build(kinds, path, after, before, lang)
    with _index().open(folder, index_dir, settings=_settings(params)) as idx:
        _say_which(idx)
        _say_unfinished(idx)
        found = idx.context(" ".join(query), tokens=tokens, filters=filters, as_user=as_user)
    if found.corrected:
        click.echo("scent: " + corrected_line(found.corrected), err=True)
    if found.translation:
        click.echo("scent: " + translated_line(found.translation), err=True)
    if as_json:
        click.echo(json_line(found.to_dict()))
    elif not found.passages:
        click.echo("no passages found", err=True)
    else:
        if all(p.weak for p in found.passages):
            click.echo("scent: no good match: every passage is below the confidence floor", err=True)
        click.echo(visible_lines(found.text))


def translated_line(translation: str) -> str:
    """What the output says of a query also searched by its machine translation (scent.translate)."""
    return visible(f"also searched in English, as translated: {translation}")


def corrected_line(corrected: dict[str, str]) -> str:
    """What the output says of words searched as others (scent.spelling)."""
    fixed = ", ".join(f"{word} (not {typed})" for typed, word in corrected.items())
    return visible(f"searched for {fixed}: no file holds it as typed; put a word in quotes to search it as typed")


def _search_folders(Index, folders, text, k, filters, explain, settings, embedder, as_user):
    with ExitStack() as stack:
        first = stack.enter_context(Index.open(folders[0], settings=settings, embedder=embedder))
        indexes = [first] + [stack.enter_context(Index.open(f, settings=settings, embedder=first.embedder))
                             for f in folders[1:]]  # one model for all
        for idx in indexes:
            _say_unfinished(idx)
        return Index.search_many(indexes, text, k=k, filters=filters, explain=explain, as_user=as_user)


def _say_which(idx, doing: str = "searching") -> None:
    """A command that was not told which index says which it chose (on stderr: --json stays clean)."""
    if idx.found == "last":
        click.echo(visible(f"scent: no index for this folder; {doing} {idx.root} (indexed last; "
                           "--folder chooses another, scent list shows them)"), err=True)


def _say_unfinished(idx) -> None:
    """A search of an index being indexed now, or whose last run stopped midway, says that files
    may be missing; one of a folder that is not there says so (its files are not marked gone one by
    one: an unplugged drive comes back)."""
    _say_run(idx.unfinished_run(), idx.root)
    if idx.root and not os.path.isdir(idx.root):
        click.echo(visible(f"scent: the folder {idx.root} is not there (deleted, moved or unmounted): these "
                           "results are from its index"), err=True)


def _say_run(run: dict | None, folder: str | None) -> None:
    if run is not None:
        now = "; files it has not reached yet are not searched" if run["running"] else ""
        click.echo(f"scent: {_unfinished(run, folder)}{now}", err=True)


def _unfinished(run: dict, folder: str | None) -> str:
    """What a status or a search says of an index's unfinished run (Index.unfinished_run), printable."""
    begun = dt.datetime.fromtimestamp(run["started"]).strftime("%Y-%m-%d %H:%M")
    if run["running"]:
        return f"being indexed now (a run began {begun})"
    again = f"`scent index {visible(folder)}`" if folder else "`scent index` of its folder"
    return f"the indexing run begun {begun} stopped before it finished, so some files may be missing; {again} finishes it"


def _iso_dates(st: dict) -> dict:
    """A status for --json: its times as ISO 8601, as every JSON date scent prints."""
    from .dates import iso

    out = dict(st)
    if st.get("last_indexed"):
        out["last_indexed"] = iso(st["last_indexed"])
    if st.get("unfinished_run"):
        out["unfinished_run"] = {**st["unfinished_run"], "started": iso(st["unfinished_run"]["started"])}
    return out


def _highlight(text: str, marks) -> str:
    # made visible piece by piece: the marks are offsets into the raw text
    out, pos = [], 0
    for a, b in marks:
        out.append(visible(text[pos:a]))
        out.append(click.style(visible(text[a:b]), fg="yellow", bold=True))
        pos = b
    out.append(visible(text[pos:]))
    return "".join(out)


@cli.command("status")
@click.argument("place", metavar="[FOLDER]", required=False, type=DIRECTORY)
@click.option("--folder", type=DIRECTORY, help="Status of this folder's index (or give FOLDER).")
@click.option("--index", "index_dir", type=DIRECTORY, help="Status of this index directory.")
@click.option("--json", "as_json", is_flag=True, help="Print the status as one JSON object.")
@click.option("--as", "as_user", metavar="USER", help="Answer as USER sees the folder: only files USER may read (default: you).")
@click.option("--skipped", "list_skipped", is_flag=True,
              help="List every file walked and not indexed, with why (unsupported kind, too big, damaged ...).")
@_setting_options("storage")
def status_cmd(place, folder, index_dir, as_json, as_user, list_skipped, **params):
    """Files, units per kind, index size, model, last run, and the files not indexed and why: of
    FOLDER's index (default: the folder indexed last)."""
    if place and folder and os.path.realpath(place) != os.path.realpath(folder):
        raise UsageError(f"two folders given ({visible(place)} and --folder {visible(folder)}): give one")
    folder = folder or place
    from .locking import watcher
    from .serve import discovery

    with _index().open(folder, index_dir, settings=_settings(params)) as idx:
        _say_which(idx, "showing")
        st = idx.status(as_user)
        listed = idx.skipped(as_user) if list_skipped else None
        # Who keeps the index: `updated` is an old time under a watch that had nothing to do.
        server = discovery.running(idx.index_dir)
        st["watch_pid"] = watcher(idx.index_dir)
        st["server"] = {"url": discovery.url(server), "pid": server["pid"]} if server else None
    if as_json:
        click.echo(json_line(_iso_dates(st) | ({"skipped": listed} if listed is not None else {})))
        return
    if listed is not None:
        for f in listed["files"]:
            said = f"{f['cause']}: " if not f["reason"].lower().startswith(f["cause"]) else ""  # not "broken link: broken link: ..."
            click.echo(visible(f"{f['path']}: {said}{f['reason']}"))
        for u in listed["unlisted"]:
            click.echo(f"... and {u['files']} more {visible(u['ext'])} files of a kind scent does not read")
        if not listed["files"] and not listed["unlisted"]:
            click.echo("every file walked at the last run was indexed")
        return
    last = dt.datetime.fromtimestamp(st["last_indexed"]).strftime("%Y-%m-%d %H:%M") if st["last_indexed"] else "never"
    if st.get("unfinished_run"):
        last += f"; {_unfinished(st['unfinished_run'], st['folder'])}"
    backend = st["backend"] + (f" ({st['backend_detail']})" if st.get("backend_detail") else "")
    click.echo(f"folder   {visible(st['folder'])}\nindex    {visible(st['index'])} ({st['index_bytes'] / 1e6:.1f} MB)\n"
               f"backend  {visible(backend)}\nmodel    {st['model']}\nupdated  {last}\n"
               f"files    {st['files']}  " + ", ".join(f"{k} {v}" for k, v in st["files_by_kind"].items()) +
               f"\nunits    {st['units']}  " + ", ".join(f"{k} {v}" for k, v in st["units_by_kind"].items()))
    if st["watch_pid"]:
        click.echo(f"watched  kept fresh as files change by a scent watch (pid {st['watch_pid']})")
    if st["server"]:
        click.echo(f"served   at {st['server']['url']} (scent serve, pid {st['server']['pid']})")
    if st["not_indexed"]:
        from .skipped import summary

        click.echo(visible(f"not indexed: {summary(st['not_indexed'])} (scent status --skipped lists them)"))
    if st["errors"]:
        click.echo(f"problems with {len(st['errors'])} files (skipped: not indexed, retried next run; "
                   "warning: indexed in part):")
        for e in st["errors"]:
            click.echo(visible(f"  {e['level']}: {e['path']}: {e['reason']}"))


@cli.command("watch")
@click.argument("folder", type=EXISTING_DIRECTORY)
@click.option("--index", "index_dir", type=DIRECTORY, help="Index directory (default: one per folder under $SCENT_HOME).")
@click.option("-q", "--quiet", is_flag=True, help="No line for each refresh (a file it skips is still said).")
@_setting_options("index")
@_setting_options("storage")
def watch_cmd(folder, index_dir, quiet, **params):
    """Index FOLDER, then keep its index fresh as files are added, changed, renamed or deleted (Ctrl-C stops)."""
    import threading

    from .watch import watch

    def skipped(report):
        skips = _Skips(lambda line: click.echo(line, err=True))
        for path, reason in report.skipped:
            skips(path, reason)
        skips.close()

    def refreshed(report, paths):
        skipped(report)
        if not quiet:
            click.echo(visible(f"scent: {report.added} new, {report.updated} changed, {report.renamed} renamed, "
                               f"{report.deleted} deleted, {len(report.skipped)} skipped ({len(paths)} "
                               f"{'path' if len(paths) == 1 else 'paths'} changed, {report.seconds:.1f}s)"), err=True)

    # Ctrl-C (or a TERM) ends the watch once the refresh in progress is written, not in the middle; during
    # the first update (a whole folder's: hours, for a large one), or pressed again, it stops at once, as
    # it stops `scent index`: the index stays whole, and the next run carries on.
    stop = threading.Event()
    watching = False

    def stopped(signum, frame):
        if not watching or stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        # A refresh of many files takes a while to write: said, a wait is not taken for a hang.
        click.echo("scent: stopping once the refresh in progress is written (Ctrl-C again stops at once; "
                   "the next run reads what is left)", err=True)

    with _index()(folder, index_dir=index_dir, settings=_settings(params)) as idx:
        # The first update reads what changed while nothing watched (a whole folder, the first
        # time): its progress is shown as `scent index` shows it (it was minutes of silence).
        printer = ProgressPrinter(sys.stderr)

        def ready(report):
            nonlocal watching
            printer.close()
            skipped(report)
            click.echo(visible(f"scent: watching {idx.root} ({idx.status()['files']} files indexed, {report.added} "
                               f"new, {report.updated} changed, {report.deleted} deleted); Ctrl-C stops"), err=True)
            watching = True

        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, stopped)
        watch(idx, stop, refreshed, lambda message: click.echo(visible(f"scent: {message}"), err=True), ready,
              progress=None if quiet else printer)


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per index.")
@_setting_options("storage")
def list_cmd(as_json, **params):
    """The folders indexed on this machine: files, size and last update of each index."""
    known = _index().known(settings=_settings(params))
    if as_json:
        for st in known:
            click.echo(json_line(_iso_dates(st)))
        return
    if not known:
        click.echo("no folders indexed yet; index one with: scent index FOLDER", err=True)
    for st in known:
        if st.get("error"):
            click.echo(visible(f"?  {st['index']}: {st['error']}"))
            continue
        last = dt.datetime.fromtimestamp(st["last_indexed"]).strftime("%Y-%m-%d %H:%M") if st["last_indexed"] else "never"
        run = st.get("unfinished_run")
        last += "" if not run else " (being indexed now)" if run["running"] else " (the last run stopped midway)"
        click.echo(visible(f"{st['folder']}  {st['files']} files, {st['index_bytes'] / 1e6:.1f} MB, updated {last}"))
        click.echo(visible(f"    {st['index']}"))


@cli.command("forget")
@click.argument("folder", required=False, type=DIRECTORY)
@click.option("--index", "index_dir", type=DIRECTORY, help="Forget this index directory.")
@_setting_options("storage")
def forget_cmd(folder, index_dir, **params):
    """Remove FOLDER's index from this machine (the folder's own files are not touched)."""
    if not folder and not index_dir:
        raise UsageError("name the folder whose index to remove (scent list shows them), or --index DIR")
    where = _index().forget(folder, index_dir, settings=_settings(params))
    click.echo(visible(f"scent: removed the index in {where}"), err=True)


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (local only unless --allow-remote).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--folder", type=DIRECTORY, help="Serve this folder's index.")
@click.option("--index", "index_dir", type=DIRECTORY, help="Serve this index directory.")
@click.option("--allow-remote", is_flag=True, help="Allow a --host other than 127.0.0.1, localhost or ::1; "
              "every request then needs an access token (scent token add USER).")
@click.option("--watch", "live", is_flag=True, help="Keep the index fresh while serving (as scent watch does).")
@click.option("--as", "as_user", metavar="USER", help="Answer every request without a token as USER sees the "
              "folder: only files USER may read (default: you).")
@_setting_options("storage")
def serve_cmd(host, port, folder, index_dir, allow_remote, live, as_user, **params):
    """Web UI and HTTP API (/api/search, /api/status, /api/file, /api/thumb; schema at /openapi.json)."""
    from .serve import check_host, discovery, listen, require

    require("fastapi", "uvicorn", "markdown_it")
    import uvicorn

    from .serve.app import create_app
    from .watch import Live
    from .serve.tokens import Tokens, own_token

    allowed_hosts, warning = check_host(host, allow_remote)
    # --allow-remote means requests from elsewhere, even through a proxy on this machine (whose
    # requests come from 127.0.0.1 with any Host): then every request needs a token.
    remote = allow_remote
    if remote:
        allowed_hosts = None
    tokens = Tokens()
    if not tokens.users() and remote:
        raise UsageError("--allow-remote needs access tokens and there are none yet; make one per person "
                         "with: scent token add USER (it is printed once)")
    # A loopback server asks for its user's own token: another user of this machine can reach
    # 127.0.0.1 too. A remote-facing one takes only the people's tokens, and one started --as
    # USER answers anyone without a token as USER (a view its owner chose to share; giving out
    # the own token instead would open every later server of that owner).
    own = None if remote or as_user is not None else own_token()
    sock = listen(host, port)  # before saying where: a taken port is one line, not a uvicorn error
    port = sock.getsockname()[1]
    with sock, _index().open(folder, index_dir, settings=_settings(params)) as idx:
        idx.readers(as_user)  # an empty name is one line now, not an error on every request
        if warning:
            click.echo(warning, err=True)
        where = f"[{host}]" if ":" in host else host
        # A server that answers as another user is not asked by `scent search`, which answers as you.
        asked = not remote and as_user is None
        address = f"http://{where}:{port}/" + (f"#token={own}" if own else "")
        click.echo(f"scent: serving {visible(idx.root)} at {address} (Ctrl-C stops"
                   + ("; scent search asks it while it runs" if asked else "") + ")", err=True)
        if as_user is not None:
            click.echo(f"scent: a request without a token is answered as {visible(as_user)} sees the folder", err=True)
        if remote:
            click.echo(f"scent: open http://{where}:{port}/#token=TOKEN once in a browser (TOKEN from "
                       "scent token add USER)", err=True)
        watcher = Live(idx, on_problem=lambda problem: click.echo(visible(f"scent: watch: {problem}"), err=True)
                       ).start() if live else None
        app = create_app(idx, allowed_hosts=allowed_hosts, tokens=tokens, require_token=remote,
                         desktop=not remote, live=watcher, as_user=as_user, own_token=own)
        # A remote-facing server or one answering as another user is not announced: scent search
        # answers as you, on this machine.
        announced = discovery.announced(idx.index_dir, host, port, idx.root, own) if asked else nullcontext()
        # uvicorn stops on a TERM, then raises it again for the handler it found: the default one
        # ended the process there, before `announced` removed server.json. An exit unwinds.
        signal.signal(signal.SIGTERM, _terminated)
        try:
            with announced:
                uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
        finally:
            if watcher:
                watcher.stop()


def _terminated(signum, frame):
    raise SystemExit(128 + signum)


def _interrupted(signum, frame):
    raise KeyboardInterrupt


@cli.group("token")
def token_group():
    """Access tokens for scent serve --allow-remote: one per user, for the access rules."""


@token_group.command("add")
@click.argument("user")
def token_add(user):
    """Make USER's token and print it, once (only its SHA-256 is kept)."""
    from .serve.tokens import Tokens

    tokens = Tokens()
    token = tokens.add(user)
    click.echo(token)
    click.echo(f"scent: the token for {user} (kept as a digest in {tokens.path}; it is not shown again). "
               "Send it as Authorization: Bearer TOKEN, or open the server's page once as "
               "http://HOST:PORT/#token=TOKEN", err=True)


@token_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per user.")
def token_list(as_json):
    """The users with a token, and when each was made."""
    from .serve.tokens import Tokens

    users = Tokens().users()
    for u in users:
        click.echo(json_line(u) if as_json else visible(f"{u['user']}  {u['created'] or '?'}"))
    if not users and not as_json:
        click.echo("scent: no tokens yet; make one with: scent token add USER", err=True)


@token_group.command("remove")
@click.argument("user")
def token_remove(user):
    """Remove USER's token: a running server refuses it from its next request."""
    from .serve.tokens import Tokens

    Tokens().remove(user)
    click.echo(visible(f"scent: removed the token of {user}"), err=True)


@cli.command("mcp")
@click.option("--folder", type=DIRECTORY, help="Serve this folder's index.")
@click.option("--index", "index_dir", type=DIRECTORY, help="Serve this index directory.")
@click.option("--as", "as_user", metavar="USER", help="Answer every request as USER sees the folder: only files USER may read (default: you).")
@_setting_options("storage")
def mcp_cmd(folder, index_dir, as_user, **params):
    """MCP server over stdio for AI assistants: read-only tools search, fetch, context, similar and status."""
    from .serve import require

    require("mcp")
    from .serve.mcp_server import build_server, serve_stdio

    with _index().open(folder, index_dir, settings=_settings(params)) as idx:
        _say_which(idx, "answering from")
        click.echo(visible(f"scent mcp: answering from the index of {idx.root}"), err=True)
        serve_stdio(build_server(idx, as_user=as_user))


def _parse_variant(text: str) -> dict:
    """"match=or,rrf_k=5" -> {"match": "or", "rrf_k": "5"}"""
    out = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--compare wants SETTING=VALUE[,SETTING=VALUE], got {text!r}")
        out[name.strip()] = value.strip()
    return out


@cli.command("eval")
@click.argument("queries_file", required=False, type=EXISTING_FILE)
@click.option("--folder", type=EXISTING_DIRECTORY, help="The folder the queries are about (indexed if needed).")
@click.option("--beir", "beir_dir", type=EXISTING_DIRECTORY, help="Evaluate on a BEIR-layout collection instead.")
@click.option("--index", "index_dir", type=DIRECTORY, help="Index directory to use.")
@click.option("--synthetic", is_flag=True, help="Evaluate on the queries the index made from its own pages (with --folder or --index); they favour those pages.")
@click.option("--compare", "variants", multiple=True, help="A variant to compare with the baseline: SETTING=VALUE[,SETTING=VALUE]; repeatable.")
@click.option("--grid", "grid", multiple=True, help="A setting and the values to try: SETTING=V1,V2,...; repeatable (the grid is their product). Runs split-half cross-validation.")
@click.option("--folds", type=click.IntRange(min=2), default=50, show_default=True, help="Cross-validation folds for --grid.")
@click.option("--metric", "metrics", multiple=True, help="Metric(s) the comparison reports (default: mrr@10 / ndcg@10).")
@click.option("--run-file", type=FILE, help="With --beir: write the baseline run in TREC format here.")
@click.option("--report", "report_dir", type=DIRECTORY, help="Write a Markdown report with PNG charts into this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: overall, by_category, hard, queries, comparisons.")
@click.option("--misses/--no-misses", default=True, help="List where the answers of missed queries sat before fusion.")
@click.option("--as", "as_user", metavar="USER", help="Evaluate what USER sees: only files USER may read count (default: you).")
@click.option("--record", "record_file", type=FILE, help="Also write every query's candidate lists, scores and features here (JSON lines), for `scent replay`.")
@click.option("--off-topic", "off_topic_files", type=EXISTING_FILE, multiple=True, help="With --record: queries with no answer in the collection (one a line), recorded too; repeatable.")
@_setting_options("search")
@_setting_options("storage")
def eval_cmd(queries_file, folder, beir_dir, index_dir, synthetic, variants, grid, folds, metrics, run_file,
             report_dir, as_json, misses, as_user, record_file, off_topic_files, **params):
    """Measure search quality: QUERIES_FILE (labelled JSONL) over --folder, a --beir collection, or
    the index's own --synthetic queries."""
    from . import evaluate, report

    settings = _settings(params)
    if synthetic:
        if queries_file or beir_dir:
            raise UsageError("--synthetic makes its own queries: give it without QUERIES_FILE and --beir")
        if not folder and not index_dir:
            raise UsageError("--synthetic needs the index to draw its queries from: --folder F or --index DIR")
        target = folder or _indexed_folder(index_dir, settings)
        # `queries` are made below, from the index once it is up to date.
        score = lambda idx, **o: evaluate.evaluate(idx, queries, as_user=as_user, **o)  # noqa: E731
        metrics = metrics or ("mrr@10",)
    elif bool(beir_dir) == bool(queries_file):
        raise UsageError("give either QUERIES_FILE with --folder, --beir DIR, or --synthetic")
    elif beir_dir:
        corpus, queries, qrels = evaluate.load_beir(beir_dir)
        if (judged := evaluate.qrels_file(beir_dir)).name != "test.tsv":
            click.echo(visible(f"scent: judged by qrels/{judged.name} (the collection has no qrels/test.tsv)"),
                       err=True)
        from . import location

        base_dir = location.default_index_dir(beir_dir)
        target = base_dir.with_name(base_dir.name + "-docs")
        evaluate.write_beir_folder(corpus, target)
        score = lambda idx, **o: evaluate.evaluate_beir(idx, queries, qrels, as_user=as_user, **o)  # noqa: E731
        metrics = metrics or ("ndcg@10",)
    else:
        if not folder:
            raise UsageError("QUERIES_FILE needs --folder, the folder its answers live in")
        queries = evaluate.load_queries(queries_file)
        if missing := evaluate.answers_missing(queries, folder):
            if len(missing) == len(queries):
                raise UsageError(f"none of the answers in {queries_file} is in {folder} (the first: {missing[0]}); "
                                 "their paths are relative to the folder the queries are about: give that as --folder")
            click.echo(visible(f"scent: {len(missing)} of {len(queries)} queries' answers are not in {folder} (the "
                               f"first: {missing[0]}); they count as missed"), err=True)
        target = folder
        inside = os.path.relpath(os.path.realpath(queries_file), os.path.realpath(folder)).replace(os.sep, "/")
        leave_out = frozenset() if inside.startswith("../") else frozenset({inside})
        if leave_out:
            click.echo(visible(f"scent: {queries_file} lies in {folder}: indexed with it, it is no result here (it "
                               "holds every query's words)"), err=True)
        score = lambda idx, **o: evaluate.evaluate(idx, queries, as_user=as_user, leave_out=leave_out, **o)  # noqa: E731
        metrics = metrics or ("mrr@10",)
    grid_spec = {}
    for text in grid:
        name, sep, values = text.partition("=")
        if not sep or not values:
            raise UsageError(f"--grid wants SETTING=V1,V2,..., got {text!r}")
        grid_spec[name.strip()] = [v.strip() for v in values.split(",")]
    variant_values = [_parse_variant(text) for text in variants]
    for values in [*variant_values, *evaluate.grid_points(grid_spec)]:
        settings.with_values(**values)  # a bad name or value fails now, not after minutes of work
    skips = _Skips(lambda line: click.echo(line, err=True))
    ev = evaluate.Evaluation(target, score, settings, index_dir, on_skip=skips,
                             on_wait=lambda line: click.echo(visible(f"scent: {line}"), err=True))
    try:
        if synthetic:
            made = evaluate.synthetic_queries(ev.index_for({}), as_user)
            queries = made.queries
            if not queries:
                raise ScentError("the index holds no page queries to evaluate: they are made from text, headings "
                                 "and pictures as files are indexed; an index from before scent made them needs: "
                                 f"scent index {target} --rebuild")
        if beir_dir and run_file:
            base = evaluate.evaluate_beir(ev.index_for({}), queries, qrels, run_file=Path(run_file), as_user=as_user)
        else:
            base = ev.run()
        if record_file:
            from . import candidates

            off = [q for f in off_topic_files for q in candidates.load_off_topic(f)]
            idx = ev.index_for({})
            recs = (candidates.record_beir(idx, queries, qrels, off) if beir_dir
                    else candidates.record_folder(idx, queries, off))
            candidates.save(recs, record_file)
            click.echo(f"recorded the candidate lists of {len(recs)} queries to {visible(record_file)}", err=True)
        comparisons = []
        for label, values in zip(variants, variant_values):
            variant = ev.run(values)
            comparisons += [(label, evaluate.compare(base, variant, m)) for m in metrics]
        grid_report = None
        if grid_spec:
            points = evaluate.grid_points(grid_spec)
            grid_report = evaluate.cross_validate(points, [ev.run(p) for p in points], metrics[0], folds)
        if report_dir:
            source = SYNTHETIC_SOURCE if synthetic else str(Path(beir_dir or queries_file).resolve())
            written = report.write(Path(report_dir), base, comparisons, grid_report,
                                   _run_record(ev.index_for({}), source, len(base.queries), settings))
            ev.index_for({}).remember_report(written.parent)  # for `scent serve`
            click.echo(f"report written to {visible(written)}", err=True)
    finally:
        skips.close()
        ev.close()
    if as_json:
        out = base.to_dict()
        if synthetic:
            out.update(synthetic=True, bias=evaluate.SYNTHETIC_BIAS, titles_left_out=made.titles_left_out)
        # `setting`: the variant as given (Comparison.variant is its score)
        out["comparisons"] = [{"setting": label, **vars(c), "noise": c.noise} for label, c in comparisons]
        if grid_report:
            out["grid"] = {"configs": grid_report.configs, "full": grid_report.full, **grid_report.summary()}
        click.echo(json_line(out))
        return
    if synthetic:
        click.echo(visible(f"{evaluate.SYNTHETIC_BIAS}."))
        click.echo(f"{len(queries)} queries; {made.titles_left_out} left out for being their file's title.")
    click.echo(visible_lines(report.table(base)))
    for label, c in comparisons:
        click.echo(visible(report.comparison_line(label, c)))
    if grid_report:
        click.echo(visible_lines(report.grid_text(grid_report)))
    if misses:
        click.echo(visible_lines(report.misses(base)))


@cli.command("replay")
@click.argument("records", nargs=-1, required=True, type=EXISTING_FILE)
@click.option("--folds", type=click.IntRange(min=2), default=5, show_default=True, help="Held-out folds.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record file.")
@click.option("--across", is_flag=True,
              help="Score each record file by methods tuned on the other files alone (leave one collection "
                   "out), instead of on folds of its own queries.")
def replay_cmd(records, folds, as_json, across):
    """Compare fusion functions on candidate lists written by `scent eval --record`, on held-out folds."""
    from . import candidates, replay

    if across:
        if len(set(records)) < 2:
            raise UsageError("--across needs two record files or more (each is scored by the others)")
        outs = replay.compare_across({path: candidates.load(path) for path in records})
    else:
        outs = [{**replay.compare_methods(candidates.load(path), folds=folds), "records": path} for path in records]
    for out in outs:
        if as_json:
            click.echo(json_line(out))
            continue
        held = "tuned on the other files" if across else f"{folds} held-out folds"
        click.echo(visible(f"{out['records']}: {out['queries']} queries, {held}"))
        click.echo(visible_lines(replay.table(out)))


SYNTHETIC_SOURCE = "synthetic: made by the index from its own pages (they favour those pages)"


def _indexed_folder(index_dir: str, settings) -> str:
    """The folder the index in `index_dir` was made of (an evaluation brings it up to date first)."""
    with _index().open(None, index_dir, settings=settings) as idx:
        if not idx.root:
            raise ScentError(f"{index_dir} does not say which folder it indexes; give --folder too")
        return idx.root


def _run_record(idx, queries_file: str, n: int, settings) -> dict:
    """What an evaluation report records of its run: folder, queries (a file, or where they came
    from), index, version, settings."""
    import scent
    from .dates import iso
    from .settings import SETTINGS

    st = idx.status()
    changed = {s.name: getattr(settings, s.name) for s in SETTINGS if getattr(settings, s.name) != s.default}
    return {"folder": st["folder"], "queries_file": queries_file, "queries": n,
            "index": st["index"], "backend": st["backend"], "model": st["model"], "version": scent.__version__,
            "written": iso(time.time()), "settings": changed}


def run(started=None) -> None:
    """Run the command sys.argv names; `started` is the model scent.cli.main started for it, if any."""
    try:
        cli.main(standalone_mode=False, obj=started)
    except click.exceptions.Abort:
        click.echo("scent: interrupted", err=True)
        sys.exit(130)
    except click.NoSuchOption as err:
        if err.ctx is not None and err.ctx.command.name in ("search", "context"):
            name = err.ctx.command.name
            if not err.option_name.startswith("--"):
                # `scent search -draft budget`: the query's first word was read as options (-d -r ...)
                err.message = (f"{err.message.rstrip('.')}; a query that begins with a word to leave out goes after "
                               f"the options and --: scent {name} [OPTIONS] -- -draft budget")
            elif not err.possibilities:  # `scent search --dry-run`: a flag of some program, searched for
                err.message = (f"{err.message.rstrip('.')}; to search for it, put -- before the query: "
                               f"scent {name} [OPTIONS] -- {err.option_name}")
        err.show()
        sys.exit(err.exit_code)
    except click.ClickException as err:
        err.show()
        sys.exit(err.exit_code)
    except UsageError as err:
        click.echo(f"scent: error: {visible(err)}", err=True)
        sys.exit(2)
    except ScentError as err:
        click.echo(f"scent: error: {visible(err)}", err=True)
        sys.exit(1)
    except sqlite3.DatabaseError as err:
        # Opening checked the file; a page damaged inside it (a bad sector, a partial copy) shows on a read.
        said = cannot_write("the index folder", err) or (
            f"the index is damaged ({err}); index the folder again with scent index FOLDER --rebuild (the "
            "folder's own files are not touched)")
        click.echo(f"scent: error: {visible(said)}", err=True)
        sys.exit(1)
    except OSError as err:
        if isinstance(err, BrokenPipeError):
            raise
        # Output to a full device, a file system's refusal the command did not expect: one line, not a traceback.
        where = f" ({err.filename})" if err.filename else ""
        click.echo(f"scent: error: {visible(err.strerror or str(err))}{visible(where)}", err=True)
        sys.exit(1)
