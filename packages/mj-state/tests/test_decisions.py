from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_state.records import decisions

MOMENT = int(dt.datetime(2026, 9, 3, 19, 30, tzinfo=dt.UTC).timestamp())
HEAD = "9b1e2d4f8c3a5e7b1d0f2a4c6e8b0d3f5a7c9e1b"
TEMPLATE = """# Decisions

<!--
## 2026-09-03 — an example inside the template
Task: t-20260903193012-a4f1
-->
"""


def build(entries: list[decisions.Entry], **kw: object) -> decisions.Entry:
    args: dict = {
        "title": "use the session store",
        "why": "one expiry clock",
        "rejected": None,
        "evidence": None,
        "supersedes": None,
        "task_id": "t-20260903193012-a4f1",
        "head": HEAD,
        "moment": MOMENT,
    }
    args.update(kw)
    return decisions.build(entries, **args)


def test_entry_has_the_exact_shape_with_dashes_for_absent_fields() -> None:
    assert build([]).text() == (
        "## 2026-09-03 — use the session store\n"
        "Task: t-20260903193012-a4f1\n"
        f"Head: {HEAD}\n"
        "Why: one expiry clock\n"
        "Rejected: -\n"
        "Evidence: -\n"
        "Supersedes: -\n"
    )


def test_append_and_parse_round_trip_skipping_the_template(tmp_path: Path) -> None:
    (tmp_path / "decisions.md").write_text(TEMPLATE)
    first = build([])
    decisions.append(tmp_path, first)
    second = build(decisions.read(tmp_path), title="drop the cache", supersedes="session store")
    decisions.append(tmp_path, second)
    entries = decisions.read(tmp_path)
    assert [e.title for e in entries] == ["use the session store", "drop the cache"]
    assert entries[1].fields["Supersedes"] == "use the session store"
    assert (tmp_path / "decisions.md").read_text().startswith(TEMPLATE)


def test_missing_why_is_a_usage_error() -> None:
    with pytest.raises(UsageError) as err:
        build([], why=None)
    assert err.value.code == 2


def test_supersedes_matching_nothing_is_refused() -> None:
    with pytest.raises(Refused) as err:
        build([build([])], supersedes="nothing like it")
    assert err.value.code == 15


def test_lacking_names_missing_attribution() -> None:
    entries = decisions.parse("## 2026-09-03 — a\nWhy: b\n\n## 2026-09-04 — c\nTask: -\nHead: -\n")
    assert decisions.lacking(entries[0]) == ["Task", "Head"]
    assert decisions.lacking(entries[1]) == ["Task", "Head", "Why"]
    assert decisions.lacking(build([])) == []


@given(st.text())
def test_parse_never_crashes(text: str) -> None:
    for entry in decisions.parse(text):
        decisions.lacking(entry)


def test_a_heading_counts_on_the_first_line_and_never_inside_a_comment() -> None:
    from mj_state.records import decisions

    entry = "## 2026-09-03 — one store\nTask: t-20260903193012-a4f1\nWhy: one clock\n"
    assert [e.title for e in decisions.parse(entry)] == ["one store"]
    assert decisions.parse(f"# Decisions\n\n<!--\n{entry}-->\n") == []
    later = decisions.parse(f"# Decisions\n<!--\n{entry}-->\n{entry}")
    assert [(e.line, e.fields["Task"]) for e in later] == [(7, "t-20260903193012-a4f1")]


def test_the_briefing_looks_for_workspaces_where_their_reader_does() -> None:
    from mj_policy.layer import declarations
    from mj_state import context_facts as contextfacts

    assert declarations.KINDS["workspace"] == contextfacts.WORKSPACES
