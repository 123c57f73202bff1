from pathlib import Path

from click.testing import CliRunner

from scent.commands import cli
from scent.settings import SETTINGS, markdown

ROOT = Path(__file__).resolve().parent.parent


def test_settings_are_documented():
    doc = (ROOT / "docs" / "settings.md").read_text()
    table = doc.split("<!-- settings-table -->\n", 1)[1].split("<!-- /settings-table -->", 1)[0]
    assert table == markdown(), "docs/settings.md is stale: regenerate it from scent.settings.markdown()"


def test_every_setting_is_a_cli_flag():
    runner = CliRunner()
    for command, scope in (("search", "search"), ("index", "index")):
        help_text = runner.invoke(cli, [command, "--help"]).output
        for s in SETTINGS:
            if s.scope == scope:
                assert "--" + s.name.replace("_", "-") in help_text, (command, s.name)


def test_readme_starts_with_the_two_commands():
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:10])
    assert "scripts/setup.sh && .venv/bin/scent index examples && .venv/bin/scent search" in head
    assert ".venv/bin/python -m pytest -q" in head
    # CI runs the same test command
    assert ".venv/bin/python -m pytest -q" in (ROOT / ".ci" / "run").read_text()


def test_every_dependency_is_installed_at_a_tested_version():
    import re
    import tomllib

    from packaging.requirements import Requirement

    def name(text: str) -> str:
        return re.sub(r"[-_.]+", "-", text).lower()

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["dev"]
    pinned = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            package, _, version = line.partition("==")
            pinned[name(package)] = version.strip()
    for text in wanted:
        req = Requirement(text)
        assert name(req.name) in pinned, f"{req.name} is not in constraints.txt: setup.sh would install any version"
        # the pinned version is one pyproject.toml accepts
        assert req.specifier.contains(pinned[name(req.name)], prereleases=True), (req.name, pinned[name(req.name)])


def test_the_typo_queries_are_bench_queries_with_one_letter_dropped():
    import importlib.util
    import json
    import random

    spec = importlib.util.spec_from_file_location("make_typos", ROOT / "bench" / "make_typos.py")
    make_typos = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_typos)
    clean = {q["id"]: q for q in map(json.loads, (ROOT / "bench" / "queries.jsonl").read_text().splitlines())}
    typed = [json.loads(line) for line in (ROOT / "bench" / "queries-typos.jsonl").read_text().splitlines()]
    rng = random.Random(17)
    expected = [(i, t) for i, t in ((i, make_typos.slip(q["query"], rng)) for i, q in clean.items()) if t]
    assert [(q["id"], q["query"]) for q in typed] == expected, "bench/queries-typos.jsonl is stale: run bench/make_typos.py"
    for q in typed:
        original = clean[q["id"]]["query"]
        assert len(q["query"]) == len(original) - 1
        assert any(original[:i] + original[i + 1:] == q["query"] for i in range(1, len(original) - 1))
        assert {k: v for k, v in q.items() if k not in ("query", "note")} == \
            {k: v for k, v in clean[q["id"]].items() if k not in ("query", "note")}
    # the longest word loses one letter that is neither its first nor its last
    assert make_typos.slip("security deposit", random.Random(0)) in {
        "scurity deposit", "seurity deposit", "secrity deposit", "secuity deposit", "securty deposit",
        "securiy deposit"}
    assert make_typos.slip("LD-2026 tax", random.Random(0)) is None  # no word of five letters
