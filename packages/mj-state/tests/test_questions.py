from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_state.records import questions

TASK = "t-20260903193012-a4f1"


def test_the_two_shapes_parse() -> None:
    text = (
        f"- [unresolved] {TASK} — token refresh window: 15 or 60 minutes? (2026-09-03)\n"
        f"- [resolved 2026-09-02] {TASK} — keep the legacy path — yes — until Q4\n"
    )
    entries, bad = questions.parse(text)
    assert bad == []
    first, second = entries
    assert (first.number, first.lineno, first.resolved) == (1, 1, False)
    assert (
        first.question == "token refresh window: 15 or 60 minutes?" and first.date == "2026-09-03"
    )
    assert second.resolved and second.question == "keep the legacy path"
    assert second.answer == "yes — until Q4" and second.date == "2026-09-02"


def test_any_other_bracket_line_is_malformed_with_its_number() -> None:
    text = "\n".join(
        [
            "# Open questions",
            f"- [unresolved] {TASK} — no date",
            f"- [unresolved] {TASK} — a — b (2026-09-03)",
            "- [unresolved] t-1 — short id (2026-09-03)",
            f"- [resolved] {TASK} — q — a",
            f"- [Unresolved] {TASK} — q (2026-09-03)",
            "- [ ] a checkbox",
            "- plain list item is prose",
        ]
    )
    entries, bad = questions.parse(text)
    assert entries == []
    assert [b.lineno for b in bad] == [2, 3, 4, 5, 6, 7]


def test_lines_inside_html_comments_are_template() -> None:
    text = (
        "<!--\n"
        f"- [unresolved] <task id> — <question> (<YYYY-MM-DD>)\n"
        "- [broken\n"
        "-->\n"
        "<!-- one-line comment - [x] -->\n"
        f"- [unresolved] {TASK} — real (2026-09-03)\n"
    )
    entries, bad = questions.parse(text)
    assert bad == [] and [e.lineno for e in entries] == [6]


def test_unresolved_for_one_task() -> None:
    other = "t-20260903193012-b000"
    entries, _ = questions.parse(
        f"- [unresolved] {TASK} — a (2026-09-03)\n"
        f"- [unresolved] {other} — b (2026-09-03)\n"
        f"- [resolved 2026-09-04] {TASK} — c — d\n"
    )
    assert [e.question for e in questions.unresolved_for(entries, TASK)] == ["a"]
    assert len(questions.unresolved_for(entries, None)) == 2


_TEXT = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(lambda t: t and questions.SEP not in t and "—" not in t[-1:])
)


@settings(deadline=None)
@given(question=_TEXT, answer=_TEXT)
def test_written_lines_read_back(question: str, answer: str) -> None:
    line = questions.unresolved_line(TASK, question, "2026-09-03")
    entries, bad = questions.parse(line + "\n")
    assert bad == [] and entries[0].question == question
    resolved = questions.resolved_line(entries[0], "2026-09-04", answer)
    again, bad = questions.parse(resolved + "\n")
    assert bad == [] and again[0].question == question and again[0].answer == answer


@settings(deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    entries, bad = questions.parse(text)
    assert all(b.text.startswith("- [") for b in bad)
    assert all(e.number == i for i, e in enumerate(entries, start=1))
