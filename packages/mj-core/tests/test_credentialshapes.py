"""Our own credential shapes: a shape is compiled and searched only in text holding its literal
prefix, and that finds exactly what searching every shape everywhere finds."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from mj_core.credentials import shapes as credentialshapes

PIECES = ["sk-", "sk-ant-", "sk-proj-", "sk-admin-", "npm_", "AIza", "github_pat_", "_", "-",
          "a", "Z", "9", " ", "\n", "é", "x" * 20, "A1b2" * 9, "=", ":"]  # fmt: skip


def everywhere(text: str) -> list[tuple[int, int, str]]:
    word = re.compile(r"[A-Za-z0-9_]")
    found = []
    for kind, pattern in credentialshapes.SHAPES.items():
        for match in re.finditer(pattern, text):
            start = match.start()
            if not start or not word.match(text, start - 1):
                found.append((start, match.end(), kind))
    return found


def test_each_literal_prefix_begins_every_match_of_its_shape() -> None:
    for kind, pattern in credentialshapes.SHAPES.items():
        literal = credentialshapes._LITERAL[kind]
        assert literal and re.fullmatch(re.escape(literal), literal)
        assert pattern.startswith(literal) and not re.search(r"[\\.*+?{}|^$]", literal)


def test_a_text_without_any_prefix_compiles_nothing() -> None:
    credentialshapes._compiled.clear()
    assert credentialshapes.find("a briefing without a credential in it\n" * 40) == []
    assert credentialshapes._compiled == {}


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_shapes_find_what_every_shape_searched_everywhere_finds(text: str) -> None:
    assert credentialshapes.find(text) == everywhere(text)
