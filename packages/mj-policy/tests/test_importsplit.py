"""Cutting an instruction file into pieces, and reading the front matter of Cursor's and
Copilot's rule files: every line of the file lands in exactly one piece or one reported gap,
each piece's sha256 is that of its lines, and whatever the text, the reader answers or refuses
with one line naming the file and the line — never anything else."""

from __future__ import annotations

import hashlib
import re

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_policy.adoption import front as importfront
from mj_policy.adoption import plan as importplan
from mj_policy.adoption import split as importsplit
from mj_policy.projection.stamps import split_lines

PATHS = re.compile(r"^(?!/)(?!.*(^|/)\.\.(/|$))[A-Za-z0-9_.*?/\[\]!-]+$")  # rule.schema.json
LINES = st.lists(
    st.one_of(
        st.sampled_from(["", "# Title", "## A", "## B", "### c", "```", "text", "- item"]),
        st.text(alphabet="#` -abc\t", max_size=12),
    ),
    max_size=30,
)


def cut(text: str) -> importsplit.Split:
    return importsplit.split(list(enumerate(split_lines(text), start=1)))


def test_sections_of_the_shallowest_repeated_level_are_the_pieces() -> None:
    found = cut(
        "# Guide\n\nIntro.\n\n## Build\n\nmake\n\n### Fast\n\nmake -j\n\n## Test\n\nmake test\n"
    )
    assert [(p.first, p.last, p.title) for p in found.pieces] == [
        (1, 3, "Guide"),
        (5, 11, "Build"),
        (13, 15, "Test"),
    ]
    assert found.pieces[1].body == "make\n\n# Fast\n\nmake -j"  # lifted below the rule's heading
    assert found.pieces[0].body == "Intro."


def test_a_file_without_headings_is_one_piece_and_fences_hide_headings() -> None:
    found = cut("Be kind.\n```\n# not a heading\n```\n")
    assert [(p.first, p.last, p.title) for p in found.pieces] == [(1, 4, "")]


def test_a_bare_title_is_reported_not_imported() -> None:
    found = cut("# AGENTS.md\n\n## Testing\n\nRun it.\n")
    assert found.left == [(1, 1, "holds nothing but headings")]
    assert [p.title for p in found.pieces] == ["Testing"]


@given(LINES)
@settings(max_examples=300, deadline=None)
def test_every_line_lands_in_one_piece_or_one_gap(lines: list[str]) -> None:
    text = "".join(line + "\n" for line in lines)
    found = cut(text)
    spans = [(p.first, p.last) for p in found.pieces] + [(a, b) for a, b, _ in found.left]
    for number, line in enumerate(lines, start=1):
        holding = [s for s in spans if s[0] <= number <= s[1]]
        assert len(holding) == (1 if line.strip() else len(holding)), (number, lines)
        assert len(holding) <= 1
    numbered = split_lines(text)
    for piece in found.pieces:
        raw = "".join(numbered[piece.first - 1 : piece.last])
        assert piece.sha256 == hashlib.sha256(raw.encode()).hexdigest()
        assert piece.body and importsplit.normal(piece.body) == piece.body


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_front_matter_is_read_or_refused_naming_file_and_line(text: str) -> None:
    lines = ["---", *text.split("\n"), "---"]
    try:
        front = importfront.read(lines, "x.mdc", ("description", "globs", "alwaysApply"))
        importfront.flag(front, "alwaysApply", "x.mdc")
        globs = importfront.globs(front, "globs", "x.mdc")
    except ContractUnmet as exc:
        assert re.match(r"x\.mdc:\d+: ", exc.message) and "\n" not in exc.message
        return
    assert all(PATHS.match(glob) for glob in globs), globs


def test_globs_are_expanded_and_widened_never_narrowed() -> None:
    front = importfront.read(
        ["---", 'globs: "./src/**/*.{ts,tsx}, /docs/my notes/*"', "---"], "x.mdc", ("globs",)
    )
    assert importfront.globs(front, "globs", "x.mdc") == [
        "src/**/*.ts",
        "src/**/*.tsx",
        "docs/my?notes/*",
    ]


@given(st.text(max_size=80))
def test_a_slug_is_a_valid_rule_id(title: str) -> None:
    slug = importplan.slug(title)
    assert re.fullmatch(r"[a-z0-9-]+", slug) and len(slug) <= importplan.SLUG_MOST
    assert re.fullmatch(r"^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$", f"project.{slug}")
