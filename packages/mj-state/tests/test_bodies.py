from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_state.records import bodies

REQUIRED = ["Objective", "Current State", "Next Action"]
FULL = "# Objective\nFix it.\n\n# Current State\nHalf.\n\n# Next Action\nFinish.\n"


def test_complete_body_has_no_missing_sections() -> None:
    assert bodies.missing_sections(FULL, REQUIRED) == []


def test_placeholder_only_section_counts_as_empty() -> None:
    body = FULL.replace("Half.", "<what is true now>")
    assert bodies.missing_sections(body, REQUIRED) == ["Current State"]
    with pytest.raises(ContractUnmet) as err:
        bodies.refuse_missing(body, REQUIRED, "<stdin>")
    assert "# Current State" in err.value.message


def test_absent_and_level_two_headings_do_not_count() -> None:
    body = "# Objective\nx\n## Current State\ny\n"
    assert bodies.missing_sections(body, REQUIRED) == ["Current State", "Next Action"]


def test_identity_lines_are_found_case_insensitively() -> None:
    assert bodies.identity_lines("ok\nHEAD: abc\n  * owner: me\nheadline: no\n") == [
        (2, "head"),
        (3, "owner"),
    ]


@given(st.text())
def test_parsers_never_crash(text: str) -> None:
    bodies.sections(text)
    bodies.identity_lines(text)
    bodies.missing_sections(text, REQUIRED)
    assert bodies.line_count(text) >= 0
