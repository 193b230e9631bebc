from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_core.errors import Refused
from mj_policy.projection import region

BEGIN = "<!-- majordomus:begin 0123456789ab 0123456789abcdef -->\n"
END = "<!-- majordomus:end -->\n"


def test_finds_the_region_and_keeps_the_host_apart() -> None:
    text = "before\n" + BEGIN + "body\n" + END + "after\n"
    found = region.find(text, "F.md")
    assert found is not None
    assert (found.before, found.body, found.after) == ("before\n", "body\n", "after\n")
    assert found.stamp == ("0123456789ab", "0123456789abcdef")


def test_no_markers_is_no_region() -> None:
    assert region.find("just a host\n", "F.md") is None


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (BEGIN + "body\n", "unclosed"),
        (END + "x\n" + BEGIN, "repeated|before the begin"),
        (BEGIN + END + BEGIN + END, "repeated"),
        (END, "without a begin"),
    ],
)
def test_malformed_markers_are_refused(text: str, what: str) -> None:
    with pytest.raises(Refused, match=what):
        region.find(text, "F.md")


def test_an_old_begin_marker_without_hashes_is_unstamped() -> None:
    found = region.find("<!-- majordomus:begin 7b88abe0f22a -->\nx\n" + END, "F.md")
    assert found is not None and found.stamp is None


def test_append_once_then_replace_in_place() -> None:
    host = "# Mine\n\ntext without newline"
    first = region.splice(host, None, "p" * 12, "c" * 16, "gen\n")
    assert first.startswith(host + "\n\n")
    found = region.find(first, "F.md")
    assert found is not None
    second = region.splice(first, found, "q" * 12, "d" * 16, "new\n")
    assert second.startswith(host + "\n\n") and second.count("majordomus:begin") == 1
    assert "new\n" in second and "gen\n" not in second


host_text = st.text(alphabet=st.characters(blacklist_characters="<\x00")).map(
    lambda t: t.replace("\r", "")
)


@given(host_text, host_text)
def test_host_text_survives_byte_for_byte(before: str, after: str) -> None:
    before = before if before.endswith("\n") or not before else before + "\n"
    text = before + BEGIN + "old\n" + END + after
    found = region.find(text, "F.md")
    assert found is not None
    out = region.splice(text, found, "a" * 12, "b" * 16, "fresh\n")
    assert out.startswith(before) and out.endswith(END + after)
