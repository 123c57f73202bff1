"""Who may see what (scent.access): readers from mode bits, folder bits and the rules file, and no
leak through any way out of the library, on both engines. The tests run as root, so the users
asked about are made up (alice, bob, carol) and their groups come from the rules file; the
files keep root as owner and their mode bits decide the rest.

The folder (expectations worked out by hand from the modes and rules below):
    public.md        644                      everyone
    secret.md        600                      root only
    private/diary.md 644 in a 700 folder      root only (nobody else can reach the folder)
    team/plan.md     644, rule team/** g:team alice (team, by the rules file's group line)
    carol.md         644, rule carol.md u:carol   carol
"""
from __future__ import annotations

import os

import pytest

from scent import Index
from scent.access import Access, Rules, group_name, intersect, principals, user_name
from scent.errors import ScentError
from scent.settings import Settings
from scent.skipped import unsupported_reason

from conftest import FakeEmbedder

RULES = "# who may read what\ngroup team: alice\nteam/**  g:team\ncarol.md  u:carol\n"
FILES = {
    "public.md": "Harbour timetable for the ferry, ticket FR-4410.",
    "secret.md": "The vault combination sits beside ticket VX-9001.",
    "private/diary.md": "Dear diary, the lighthouse keeper waved, ticket DY-7731.",
    "team/plan.md": "Quarterly plan for the orchard budget, ticket TP-5520.",
    "carol.md": "Carol's violin lesson moved to Thursday, ticket CV-6614.",
}
EVERY_WORD = "harbour vault lighthouse orchard violin FR-4410 VX-9001 DY-7731 TP-5520 CV-6614"
# Who runs the tests owns the files: root here (and on CI), who reads everything.
ME, MY_GROUP = user_name(os.geteuid()), group_name(os.getegid())
SEES = {
    None: set(FILES) if os.geteuid() == 0 else {"public.md", "secret.md", "private/diary.md"},
    "root": set(FILES),
    "bob": {"public.md"},
    "alice": {"public.md", "team/plan.md"},
    "carol": {"public.md", "carol.md"},
}
ENGINES = ["sqlite", "qdrant"]


@pytest.fixture(autouse=True)
def reachable(tmp_path):
    """pytest makes its temporary folders 700, and a folder's search bits count: open the ones
    above each test's folder (they are pytest's own) so that files there are as readable as their
    own bits say."""
    for folder in [tmp_path, *tmp_path.parents]:
        if folder.stat().st_uid == os.geteuid() and folder != folder.parent:
            folder.chmod(folder.stat().st_mode | 0o055)


def make_folder(root):
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
        path.chmod(0o644)
    (root / "secret.md").chmod(0o600)
    (root / "private").chmod(0o700)
    (root / ".scent-access").write_text(RULES)
    return root


def settings_for(backend: str) -> Settings:
    if backend == "qdrant":
        pytest.importorskip("qdrant_client")
    return Settings(backend=backend)


@pytest.fixture(params=ENGINES)
def built(request, tmp_path):
    folder = make_folder(tmp_path / "folder")
    idx = Index(folder, index_dir=tmp_path / "idx", settings=settings_for(request.param), embedder=FakeEmbedder())
    idx.update()
    yield idx
    idx.close()


def candidate_paths(idx: Index, as_user) -> dict[str, set[str]]:
    """The files in each candidate list before fusion, and in the results (with explain)."""
    results, lists = idx.search_with_lists(EVERY_WORD, k=20, explain=True, as_user=as_user)
    out = {name: {p for p in paths if p} for name, paths in lists.items()}
    out["results"] = {r.path for r in results}
    return out


# ---- readers from the file system and the rules --------------------------------------------------

def test_readers_from_mode_bits_and_folders(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("x")
    tmp_path.chmod(0o755)
    access = Access(tmp_path, Rules())
    expected = {0o644: "*", 0o640: f"g:{MY_GROUP} u:{ME}", 0o600: f"u:{ME}", 0o000: "",
                # A class without the bit ends the count (POSIX would let "other" in and the group not).
                0o604: f"u:{ME}", 0o044: "", 0o460: f"g:{MY_GROUP} u:{ME}", 0o200: ""}
    for mode, readers in expected.items():
        f.chmod(mode)
        assert access.readers("f.txt") == readers, oct(mode)
    f.chmod(0o644)
    (tmp_path / "inner").mkdir(mode=0o750)
    (tmp_path / "inner" / "g.txt").write_text("y")
    (tmp_path / "inner" / "g.txt").chmod(0o644)
    assert Access(tmp_path, Rules()).readers("inner/g.txt") == f"g:{MY_GROUP} u:{ME}"  # the folder's x bits
    assert intersect(frozenset({"u:a", "g:t"}), frozenset({"*"})) == {"u:a", "g:t"}
    assert intersect(frozenset({"u:a"}), frozenset({"g:t"})) == frozenset()


def set_acl(path, *entries):
    """setfacl without the acl package: the entries (tag, permission bits, id) as Linux stores them."""
    import struct

    raw = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, ident) for tag, perm, ident in entries)
    try:
        os.setxattr(path, "system.posix_acl_access", raw)
    except (OSError, AttributeError) as err:
        pytest.skip(f"this file system keeps no POSIX ACLs ({err})")


ANY = 0xFFFFFFFF  # the id of an entry that names no one (the owner's, the mask, other)
USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20


def test_readers_from_an_acl(tmp_path):
    """`setfacl` as people use it, each expectation worked out from POSIX's ACL check by hand:
    the owner, named users (through the mask), the groups (through the mask), everyone, counting
    stops at a class not all of whose entries grant."""
    f = tmp_path / "f.txt"
    f.write_text("x")
    tmp_path.chmod(0o755)
    access = Access(tmp_path, Rules())
    daemon, staff = user_name(1), group_name(50)
    cases = [
        # setfacl -m g::- -m m::r: the mode reads 640 (its group bits are the mask), yet the group may not read
        ([(USER_OBJ, 6, ANY), (GROUP_OBJ, 0, ANY), (MASK, 4, ANY), (OTHER, 0, ANY)], f"u:{ME}"),
        # setfacl -m u:daemon:r: one more reader beside the owner and the group
        ([(USER_OBJ, 6, ANY), (USER, 4, 1), (GROUP_OBJ, 4, ANY), (MASK, 4, ANY), (OTHER, 0, ANY)],
         f"g:{MY_GROUP} u:{ME} u:{daemon}"),
        # every class grants: everyone
        ([(USER_OBJ, 6, ANY), (USER, 4, 1), (GROUP_OBJ, 4, ANY), (GROUP, 4, 50), (MASK, 4, ANY), (OTHER, 4, ANY)], "*"),
        # daemon is refused though others may read: nobody past the named users is let in
        ([(USER_OBJ, 6, ANY), (USER, 0, 1), (GROUP_OBJ, 4, ANY), (MASK, 4, ANY), (OTHER, 4, ANY)], f"u:{ME}"),
        # the mask takes daemon's read away
        ([(USER_OBJ, 6, ANY), (USER, 6, 1), (GROUP_OBJ, 4, ANY), (MASK, 2, ANY), (OTHER, 0, ANY)], f"u:{ME}"),
        # a named group may read, the owning group may not: staff only, and not everyone
        ([(USER_OBJ, 6, ANY), (GROUP_OBJ, 0, ANY), (GROUP, 4, 50), (MASK, 4, ANY), (OTHER, 4, ANY)],
         f"g:{staff} u:{ME}"),
        # the owner may not read: nobody (POSIX judges the owner by the owner's entry alone)
        ([(USER_OBJ, 2, ANY), (USER, 4, 1), (GROUP_OBJ, 4, ANY), (MASK, 4, ANY), (OTHER, 4, ANY)], ""),
    ]
    for entries, readers in cases:
        set_acl(f, *entries)
        assert set(access.readers("f.txt").split()) == set(readers.split()), entries
    # A folder's ACL decides who may reach what is inside: the owning group may not search it.
    inner = tmp_path / "inner"
    inner.mkdir(mode=0o755)
    (inner / "g.txt").write_text("y")
    (inner / "g.txt").chmod(0o644)
    set_acl(inner, (USER_OBJ, 7, ANY), (GROUP_OBJ, 4, ANY), (MASK, 5, ANY), (OTHER, 5, ANY))
    assert Access(tmp_path, Rules()).readers("inner/g.txt") == f"u:{ME}"


def test_an_acl_change_is_picked_up_without_reading_the_file_again(tmp_path):
    folder = make_folder(tmp_path / "folder")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.engine.catalog.file_states()["public.md"].access == "*"
        set_acl(folder / "public.md", (USER_OBJ, 6, ANY), (GROUP_OBJ, 0, ANY), (MASK, 4, ANY), (OTHER, 0, ANY))
        assert idx.update().embedded == 0
        assert idx.engine.catalog.file_states()["public.md"].access == f"u:{ME}"
        assert "public.md" not in candidate_paths(idx, "bob")["results"]


def test_rules_override_and_name_groups(tmp_path):
    rules = Rules.parse("group team: alice bob\nnotes/**  g:team\nnotes/open.md  *\nlog.txt posix u:eve\n"
                        "vault/** none\n")
    posix = frozenset({"u:me"})
    assert rules.decide("notes/a.md", posix) == {"g:team"}
    assert rules.decide("notes/open.md", posix) == {"*"}  # the last rule that matches decides
    assert rules.decide("log.txt", posix) == {"u:me", "u:eve"}
    assert rules.decide("vault/x", posix) == frozenset()
    assert rules.decide("other.md", posix) == posix
    assert principals("bob", rules.groups_json()) == ("*", "g:team", "u:bob")
    assert principals("zed", rules.groups_json()) == ("*", "u:zed")
    assert principals("root") is None  # root reads everything, as in POSIX
    assert (principals(None) is None) == (os.geteuid() == 0)


@pytest.mark.parametrize("text, message", [
    ("notes/**\n", r"\.scent-access line 1: 'notes/\*\*' names no readers"),
    ("# fine\nnotes/** u:\n", r"line 2: unknown reader 'u:'"),
    ("a.md alice\n", r"line 1: unknown reader 'alice'; a reader is u:USER, g:GROUP"),
    ("group : alice\n", r"line 1: a group line is 'group NAME: USER USER \.\.\.'"),
    ("a.md none u:bob\n", r"line 1: 'none' cannot stand beside other readers"),
])
def test_a_malformed_rule_is_one_clear_line(text, message):
    with pytest.raises(ScentError, match=message) as err:
        Rules.parse(text)
    assert "\n" not in str(err.value)


def test_a_malformed_rules_file_stops_the_run_before_any_write(tmp_path):
    folder = make_folder(tmp_path / "folder")
    (folder / ".scent-access").write_text("team/** teammates\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        with pytest.raises(ScentError, match=r"\.scent-access line 1: unknown reader 'teammates'"):
            idx.update()
        assert idx.status()["files"] == 0


# ---- no leak through the library, on both engines ------------------------------------------------

@pytest.mark.parametrize("user", list(SEES))
def test_every_candidate_list_holds_only_readable_files(built, user):
    seen = candidate_paths(built, user)
    assert {"keyword", "dense", "ids", "results"} <= set(seen)
    for name, paths in seen.items():
        assert paths <= SEES[user], (name, paths - SEES[user])
    assert seen["results"] == SEES[user]  # and they do see what they may: each file has a word of the query


@pytest.mark.parametrize("user", list(SEES))
def test_units_suggestions_and_status_hold_only_readable_files(built, user):
    readable = {rel for rel in FILES if built.file_units(rel, user) is not None}
    assert readable == SEES[user]
    assert all(built.may_read(rel, user) == (rel in SEES[user]) for rel in FILES)
    assert {s["path"] for s in built.suggestions(50, user)} <= SEES[user]
    assert built.status(user)["files"] == len(SEES[user])


def test_a_chmod_or_a_rule_is_picked_up_without_reading_the_file_again(built):
    folder = built.root
    os.chmod(os.path.join(folder, "secret.md"), 0o644)
    report = built.update()
    assert (report.updated, report.embedded, report.unchanged) == (0, 0, len(FILES))
    assert "secret.md" in candidate_paths(built, "bob")["results"]
    os.chmod(os.path.join(folder, "secret.md"), 0o600)
    built.update()
    assert all("secret.md" not in paths for paths in candidate_paths(built, "bob").values())
    # The rules file changed: carol.md is everyone's again, the team's plan bob's too.
    with open(os.path.join(folder, ".scent-access"), "w") as fh:
        fh.write("group team: alice bob\nteam/**  g:team\n")
    report = built.update()
    assert report.embedded == 0
    assert candidate_paths(built, "bob")["results"] == {"public.md", "carol.md", "team/plan.md"}
    # A folder opened up: what it holds is readable by its files' bits.
    os.chmod(os.path.join(folder, "private"), 0o755)
    built.update()
    assert "private/diary.md" in candidate_paths(built, "bob")["results"]


def test_skipped_files_are_listed_only_to_their_readers(built):
    folder = built.root
    with open(os.path.join(folder, "private", "broken.pdf"), "wb") as fh:
        fh.write(b"%PDF-1.4 cut short")
    with open(os.path.join(folder, "broken.pdf"), "wb") as fh:
        fh.write(b"%PDF-1.4 cut short")
    os.chmod(os.path.join(folder, "broken.pdf"), 0o644)
    # Files of a kind scent does not read: one everyone may read, two only root may (a 600 file, and
    # one in the 700 folder); their counts and names are filtered as the errors are.
    for rel, mode in (("setup.exe", 0o644), ("vault.kdbx", 0o600), ("private/keys.kdbx", 0o644)):
        with open(os.path.join(folder, rel), "wb") as fh:
            fh.write(b"\0binary")
        os.chmod(os.path.join(folder, rel), mode)
    built.update()
    assert {e["path"] for e in built.status()["errors"]} == {"broken.pdf", "private/broken.pdf"}
    assert {e["path"] for e in built.status("bob")["errors"]} == {"broken.pdf"}
    assert built.status("bob")["not_indexed"] == [{"ext": ".exe", "cause": "unsupported kind", "files": 1},
                                                  {"ext": ".pdf", "cause": "damaged", "files": 1}]
    assert built.skipped("bob") == {"unlisted": [], "files": [
        {"path": "broken.pdf", "cause": "damaged", "reason": built.status()["errors"][0]["reason"]},
        {"path": "setup.exe", "cause": "unsupported kind", "reason": unsupported_reason(".exe")}]}
    if os.geteuid() == 0:  # root reads everything
        assert built.status()["not_indexed"] == [{"ext": ".kdbx", "cause": "unsupported kind", "files": 2},
                                                 {"ext": ".pdf", "cause": "damaged", "files": 2},
                                                 {"ext": ".exe", "cause": "unsupported kind", "files": 1}]
        assert [f["path"] for f in built.skipped()["files"]] == [
            "broken.pdf", "private/broken.pdf", "private/keys.kdbx", "setup.exe", "vault.kdbx"]


def test_eval_as_a_user_scores_what_they_see(built, tmp_path):
    from scent import evaluate

    queries = tmp_path / "q.jsonl"
    queries.write_text('{"query": "vault combination", "expect": "secret.md"}\n'
                       '{"query": "harbour ferry timetable", "expect": "public.md"}\n')
    labelled = evaluate.load_queries(queries)
    assert evaluate.evaluate(built, labelled).overall["mrr@10"] == 1.0
    as_bob = evaluate.evaluate(built, labelled, as_user="bob")
    assert [q.rank for q in as_bob.queries] == [None, 1]
    assert all(t["path"] in SEES["bob"] for q in as_bob.queries for t in q.top)


def test_an_index_from_before_readers_gets_them_from_the_file_system(tmp_path):
    """m010 on an index written without readers: they are read from the folder as it opens."""
    import sqlite3

    folder = make_folder(tmp_path / "folder")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
    db = sqlite3.connect(tmp_path / "idx" / "index.db")
    with db:  # as m009 left it: no readers anywhere
        db.execute("UPDATE files SET access = 'stale'")
        db.execute("DELETE FROM migrations WHERE name = 'm010_file_readers'")
        db.execute("ALTER TABLE files DROP COLUMN access")
        db.execute("ALTER TABLE errors DROP COLUMN access")
    db.close()
    with Index(index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert {p: s.access for p, s in idx.engine.catalog.file_states().items()} == {
            "public.md": "*", "secret.md": f"u:{ME}", "private/diary.md": f"u:{ME}", "team/plan.md": "g:team",
            "carol.md": "u:carol"}
        assert candidate_paths(idx, "alice")["results"] == SEES["alice"]


def test_files_of_other_owners_are_read_by_their_bits(tmp_path):
    """A chown: the owner's name (or, with no account, the number) is the reader."""
    if os.geteuid() != 0:
        pytest.skip("chown to another user needs root")
    folder = make_folder(tmp_path / "folder")
    os.chown(folder / "secret.md", 4242, 4242)
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.engine.catalog.file_states()["secret.md"].access == "u:4242"
        assert "secret.md" in candidate_paths(idx, "4242")["results"]
        assert "secret.md" not in candidate_paths(idx, "bob")["results"]
        os.chown(folder / "secret.md", 0, 0)
        assert idx.update().embedded == 0
        assert "secret.md" not in candidate_paths(idx, "4242")["results"]




def test_a_qdrant_collection_from_before_readers_gets_them_from_the_catalog(tmp_path):
    pytest.importorskip("qdrant_client")
    from qdrant_client import models

    folder = make_folder(tmp_path / "folder")
    settings = Settings(backend="qdrant")
    with Index(folder, index_dir=tmp_path / "idx", settings=settings, embedder=FakeEmbedder()) as idx:
        idx.update()
        e = idx.engine
        # As an older scent left it: no readers in any point, and the collection does not say it has them.
        e.client.set_payload(e.collection, {"access": []}, wait=True,
                             points=models.Filter(must=[models.HasVectorCondition(has_vector="unit")]))
        e._set_info(access=0)
        assert candidate_paths(idx, "alice")["results"] == set()  # no readers: nobody's (but root's)
    with Index(index_dir=tmp_path / "idx", settings=settings, embedder=FakeEmbedder()) as idx:
        assert candidate_paths(idx, "alice")["results"] == SEES["alice"]
        assert idx.engine._info["access"] == 1


def test_scent_home_is_made_for_its_owner_only(tmp_path, scent_home):
    folder = make_folder(tmp_path / "folder")
    with Index(folder, embedder=FakeEmbedder()) as idx:  # the default index folder, under $SCENT_HOME
        idx.update()
        assert idx.index_dir.is_relative_to(scent_home)
    assert scent_home.stat().st_mode & 0o777 == 0o700
