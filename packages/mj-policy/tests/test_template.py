from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_policy.projection import language as template


def test_substitutes_known_names_only() -> None:
    assert template.render("a {{ x }} b {{y}}\n", {"x": "1", "y": "2"}, "t") == "a 1 b 2\n"


def test_unknown_name_is_refused_with_line() -> None:
    with pytest.raises(ContractUnmet, match=r"t\.tmpl:2: unknown template variable 'nope'"):
        template.render("ok\n{{ nope }}\n", {"x": "1"}, "t.tmpl")


@pytest.mark.parametrize("text", ["{{ x", "{{ x | upper }}", "{{#if x}}", "{{ 1+1 }}"])
def test_anything_but_a_variable_is_refused(text: str) -> None:
    with pytest.raises(ContractUnmet, match="variables only"):
        template.render(text, {"x": "1"}, "t")


@given(st.text(alphabet=st.characters(blacklist_characters="{}")))
def test_text_without_braces_is_returned_unchanged(text: str) -> None:
    assert template.render(text, {}, "t") == text
