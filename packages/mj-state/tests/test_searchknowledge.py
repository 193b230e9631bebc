"""What a knowledge node states for `search`, and the corpus's kinds held equal everywhere
they are named: the declaration's `--kind` choices, the `match` record's schema, the MCP
catalogue."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from mj_core import share
from mj_core.declaration import commands as declare
from mj_state.search import catalogue
from mj_state.search import corpus as searchcorpus
from mj_state.search import knowledge as searchknowledge


def test_the_kinds_agree_wherever_they_are_named() -> None:
    options = {o["name"]: o for o in declare.command("search")["options"]}
    assert tuple(options["kind"]["choices"]) == searchcorpus.KINDS
    schema = json.loads(share.read_text("schemas/pipeline/match.json"))
    assert tuple(schema["properties"]["of"]["enum"]) == searchcorpus.KINDS
    assert searchcorpus.KINDS[-3:] == ("workspace", "deployment", "knowledge")  # knowledge last
    assert set(searchcorpus.KINDS) <= set(catalogue.KINDS)
    assert all(searchcorpus.limit(kind) for kind in searchcorpus.KINDS)


def test_a_node_states_its_title_and_its_declared_name() -> None:
    rule = ["rule:majordomus.scope", "rule", "r.md", "Scope respected", "rule", "shared"]
    assert searchknowledge.said(rule, "scope") == [
        ("Scope respected", None),
        ("majordomus.scope", "id"),
    ]
    assert searchknowledge.said(rule, "respected") == [("Scope respected", None)]
    profile = ["profile:debugging", "profile", "p.yaml", "", "profile", "shared"]
    assert searchknowledge.said(profile, "debug") == [("debugging", "name")]
    document = ["document:docs/scope.md", "document", "docs/scope.md", "", "doc", "shared"]
    assert searchknowledge.said(document, "scope") == []  # a path is not a line


def test_the_line_shown_is_the_first_that_states_it() -> None:
    lines = ["---", "schema: rule/v1", "# id: majordomus.scope", "id: majordomus.scope",
             "title: Scope respected", "---", "Scope respected, as said."]  # fmt: skip
    said = [("Scope respected", None), ("majordomus.scope", "id")]
    assert searchknowledge.stating(lines, said, "scope") == [3, 4]
    assert searchknowledge.stating(lines, said, "said") == []  # the first holder lacks the text
    assert searchknowledge.stating(["nothing here"], said, "scope") == []


@given(
    st.lists(st.text(max_size=12), max_size=6),
    st.text(min_size=1, max_size=12).filter(str.strip),
    st.integers(0, 6),
)
def test_every_line_shown_holds_the_text(lines: list[str], title: str, at: int) -> None:
    lines = [*lines[:at], f"title: {title}", *lines[at:]]
    needle = title[: max(1, len(title) // 2)].lower()
    row = ["document:x.md", "document", "x.md", title, "c", "shared"]
    shown = searchknowledge.stating(lines, searchknowledge.said(row, needle), needle)
    for index in shown:
        assert title in lines[index] and needle in lines[index].lower()
    if title.isascii():  # lower-casing keeps a substring a substring
        assert len(shown) == 1


def test_the_tracked_paths_are_read_from_the_index_listing() -> None:
    listing = "100644 aa 0\tdocs/a b.md\x00120000 bb 0\tlink\x00100644 cc 0\t.ai/x.md\x00"
    assert searchknowledge._tracked(listing) == {"docs/a b.md", "link", ".ai/x.md"}
    assert searchknowledge._tracked("") == set()
