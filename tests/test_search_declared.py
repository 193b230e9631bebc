"""`search` over the workspace and deployment declarations and the knowledge nodes, the last
three kinds of its corpus.

Each kind is found, narrowed to with `--kind`, 12 when it holds nothing, and searched when its
file is not UTF-8. A knowledge node is matched on what its file states of it (its title, its
declared id), the line shown re-read from that file: the graph's cache is preferred when its
key holds, but a row it lists is a claim, so a forged or stale row never shows a line the
file does not hold, and a line an earlier kind showed is not repeated. Nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from test_declarations import DEP
from test_declarations import DEPLOYMENT
from test_declarations import WORKSPACE
from test_declarations import WS

WORD = "Goldcrest"
NOTE = ".ai/repo/knowledge/curated/nests.md"
ADR = ".ai/repo/adrs/0001-goldcrests.md"
CACHE = ".ai/local/cache/knowledge-nodes.json"
WHERE = {"workspace": WS, "deployment": DEP, "knowledge": NOTE}


@pytest.fixture
def declared(layer_repo: Repo) -> Repo:
    repo = layer_repo
    repo.write(WS, WORKSPACE.replace("title: The design project", f"title: The {WORD} project"))
    repo.write(DEP, DEPLOYMENT.replace("title: The service", f"title: The {WORD} service"))
    repo.write(NOTE, f"---\nid: goldcrests\ntitle: Where the {WORD} nests\n---\n\nIn firs.\n")
    repo.write(ADR, f"# 1. Ring the {WORD}s\n\nThey are small.\n")
    repo.commit("declarations, a note, a decision record")
    return repo


def _matches(out: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["kind"] == "summary"
    return [line for line in lines[:-1] if line["kind"] == "match"]


def _held(repo: Repo, match: dict[str, object]) -> str:
    """The line `path:line` of a match really holds."""
    text = (repo.root / str(match["path"])).read_bytes().decode("utf-8", "replace")
    return text.split("\n")[int(str(match["line"])) - 1]


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


@pytest.mark.parametrize("kind", ["workspace", "deployment", "knowledge"])
def test_each_kind_is_found_alone_and_its_lines_are_real(declared: Repo, kind: str) -> None:
    before = _tree(declared.root)
    result = declared.mj("search", WORD.lower(), "--kind", kind, "--json")
    assert result.code == 0, result
    found = _matches(result.out)
    assert found and {m["of"] for m in found} == {kind}
    assert {m["path"] for m in found} == ({NOTE, ADR} if kind == "knowledge" else {WHERE[kind]})
    for match in found:
        assert (
            _held(declared, match) == match["text"] and WORD.lower() in str(match["text"]).lower()
        )
    text = declared.mj("search", WORD, "--kind", kind)
    first = found[0]
    assert (
        text.out.splitlines()[0] == f"{kind:<10}  {first['path']}:{first['line']}  {first['text']}"
    )
    assert text.out.splitlines()[-1] == f"search: {len(found)} match(es)"
    assert _tree(declared.root) == before  # read-only: no cache written either


@pytest.mark.parametrize("kind", ["workspace", "deployment", "knowledge"])
def test_nothing_of_the_kind_is_12(declared: Repo, kind: str) -> None:
    result = declared.mj("search", "Firecrest", "--kind", kind)
    assert result.code == 12, result
    assert result.err == f"majordomus: search: no {kind} contains 'Firecrest'\n"
    others = [k for k in WHERE if k != kind]
    said = f"The {WORD} project" if kind == "workspace" else f"The {WORD} service"
    if kind != "knowledge":  # found under its own kind, not under the others
        assert declared.mj("search", said, "--kind", kind).code == 0
        assert declared.mj("search", said, *(f"--kind={k}" for k in others)).code == 12


def test_a_knowledge_node_states_its_title_and_its_id(declared: Repo) -> None:
    result = declared.mj("search", "goldcrests", "--kind", "knowledge", "--json")
    assert result.code == 0, result
    found = _matches(result.out)
    assert [(m["path"], m["line"], m["node"]) for m in found] == [
        (ADR, 1, f"document:{ADR}"),  # an ADR without front matter: its H1 is its title
        (NOTE, 2, "knowledge:goldcrests"),  # `id: goldcrests`
    ]
    assert all(_held(declared, m) == m["text"] for m in found)
    # every kind: the ADR's heading is shown once, under `adr`, which outranks the node
    every = _matches(declared.mj("search", f"Ring the {WORD}s", "--json").out)
    assert [(m["of"], m["path"], m["line"]) for m in every] == [("adr", ADR, 1)]
    # a node's other lines are not its statements: the body is not searched as knowledge
    assert declared.mj("search", "In firs", "--kind", "knowledge").code == 12


@pytest.mark.parametrize("kind", ["workspace", "deployment", "knowledge"])
def test_a_file_that_is_not_utf8_is_searched(declared: Repo, kind: str) -> None:
    path = declared.root / WHERE[kind]
    if kind == "knowledge":
        path.write_bytes(b"---\nid: wrens\ntitle: the caf\xe9 Wren nest\n---\n")
        declared.commit("a note in Latin-1")  # a node is what git's index holds
    else:
        with path.open("ab") as handle:
            handle.write(b"# the caf\xe9 Wren nest \x1b[31mred\x1b[0m\n")
    result = declared.mj("search", "wren nest", "--kind", kind)
    assert result.code == 0, result
    shown = result.out.splitlines()[0]
    assert "caf\ufffd Wren nest" in shown and "\x1b" not in shown
    as_json = _matches(declared.mj("search", "\ufffd wren", "--kind", kind, "--json").out)
    assert len(as_json) == 1 and _held(declared, as_json[0]) == as_json[0]["text"]


def test_a_task_owns_none_of_them(declared: Repo) -> None:
    assert declared.mj("start", "ring them", "--scope", "lib").code == 0
    task = (declared.root / ".ai/local/state/current.yaml").read_text()
    task = task.split("id: ", 1)[1].split("\n", 1)[0].strip().strip('"')
    kinds = [f"--kind={k}" for k in WHERE]
    assert declared.mj("search", WORD, *kinds).code == 0
    assert declared.mj("search", WORD, *kinds, "--task", task).code == 12


def test_the_cache_is_read_but_only_as_a_listing(declared: Repo) -> None:
    declared.write("untracked.md", f"# {WORD} untracked\n")
    (declared.root.parent / "outside.md").write_text(f"# {WORD} outside\n")
    assert declared.mj("knowledge", "nodes").code == 0  # leaves the graph's cache
    cache = declared.root / CACHE
    body = json.loads(cache.read_text())
    rows = body["nodes"]
    note = next(row for row in rows if row[2] == NOTE)
    note[3] = "In firs."  # a real line of the note: shown only if the cache is what is read
    adr = next(row for row in rows if row[2] == ADR)
    adr[3] = f"{WORD} forged"  # a title its file does not hold
    rows += [
        ["document:../outside.md", "document", "../outside.md", f"{WORD} outside", "x", "shared"],
        ["document:untracked.md", "document", "untracked.md", f"{WORD} untracked", "x", "shared"],
        ["document:broken", "document", 7, None],
        "not a row",
    ]
    cache.write_text(json.dumps(body))
    before = _tree(declared.root)
    read = _matches(declared.mj("search", "in firs", "--kind", "knowledge", "--json").out)
    assert [(m["path"], m["line"], m["text"]) for m in read] == [(NOTE, 6, "In firs.")]
    result = declared.mj("search", WORD, "--kind", "knowledge", "--json")
    assert result.code == 0, result
    found = _matches(result.out)
    assert {m["path"] for m in found} == {NOTE}  # not the ADR, the outside or untracked file
    assert all(_held(declared, m) == m["text"] for m in found)
    assert _tree(declared.root) == before
    # a commit changes git's index, so the cache's key no longer holds: the graph is read anew
    declared.write(".ai/repo/knowledge/curated/firs.md", "---\nid: firs\ntitle: Firs\n---\n")
    declared.commit("another note")
    fresh = _matches(declared.mj("search", "ring the", "--kind", "knowledge", "--json").out)
    assert [(m["path"], m["line"]) for m in fresh] == [(ADR, 1)]
    assert cache.read_bytes() == before[CACHE]  # searching never writes the cache


def test_a_graph_that_cannot_be_read_is_a_warning(declared: Repo) -> None:
    sources = declared.root / ".ai/repo/knowledge/sources.yaml"
    sources.write_text(sources.read_text() + "colour: blue\n")
    result = declared.mj("search", WORD)
    assert result.code == 0, result
    warned = [line for line in result.out.splitlines() if line.startswith("WARN")]
    assert len(warned) == 1 and ".ai/repo/knowledge/sources.yaml" in warned[0]
    assert "knowledge nodes not searched" in warned[0] and "colour" in warned[0]
    assert any(line.startswith("workspace") for line in result.out.splitlines())
    alone = declared.mj("search", WORD, "--kind", "knowledge")
    assert alone.code == 12 and "knowledge nodes not searched" in alone.out
