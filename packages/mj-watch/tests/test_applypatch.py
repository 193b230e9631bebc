"""The files an `apply_patch` text writes (`act.apply_patch.targets`), read as Codex CLI reads it,
through the patch tool's payload (`act.intent`) and through a shell command (`act.shell_writes`)."""

from __future__ import annotations

import contextlib
import string

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_watch.act import apply_patch as applypatch
from mj_watch.act import intent as toolintent
from mj_watch.act import shell_writes as shwrites

TABLE = {"patch": {"apply_patch": "command"}, "shell": {"Bash": "command"}}


def patch(*hunks: str) -> str:
    return "*** Begin Patch\n" + "".join(hunks) + "*** End Patch\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (patch("*** Add File: src/a.py\n+x = 1\n"), [("add", "src/a.py")]),
        (patch("*** Delete File: old.py\n"), [("delete", "old.py")]),
        (patch("*** Update File: a.py\n@@\n-x\n+y\n"), [("update", "a.py")]),
        (
            patch("*** Update File: a.py\n*** Move to: ../b.py\n@@ def f():\n-x\n+y\n"),
            [("update", "a.py"), ("move", "../b.py")],
        ),
        # the first chunk may go without its @@ line; context and blank lines count
        (patch("*** Update File: a.py\n keep\n\n+y\n"), [("update", "a.py")]),
        (
            patch(
                "*** Add File: /abs/x\n+1\n*** Delete File: d\n",
                "*** Update File: u\n@@\n-a\n+b\n*** End of File\n*** Add File: z\n+2\n",
            ),
            [("add", "/abs/x"), ("delete", "d"), ("update", "u"), ("add", "z")],
        ),
        # an Add File with no lines makes an empty file
        (patch("*** Add File: empty\n"), [("add", "empty")]),
        # markers padded with white space, CRLF line ends, text around the patch trimmed
        (
            "\n  *** Begin Patch  \r\n  *** Add File: a b.txt  \r\n+x\r\n *** End Patch \n\n",
            [("add", "a b.txt")],
        ),
        # what follows a marker is the path, spaces and all; a Move line is not trimmed
        (patch("*** Add File:  lead\n+x\n"), [("add", " lead")]),
        (
            patch("*** Update File: a\n*** Move to: b \n@@\n-x\n"),
            [("update", "a"), ("move", "b ")],
        ),
        # a here-document wrapper around the patch, as a shell would have carried it
        ("<<'EOF'\n" + patch("*** Delete File: d\n") + "EOF\n", [("delete", "d")]),
        ("<<EOF\n" + patch("*** Delete File: d\n") + "EOF", [("delete", "d")]),
        # no hunks: nothing written
        (patch(), []),
        # a `+` line that looks like a marker is the file's content, not a hunk
        (patch("*** Add File: a\n+*** Delete File: b\n"), [("add", "a")]),
    ],
)
def test_targets_are_read_as_the_client_reads_them(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert applypatch.targets(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "*** Begin Patch\n*** Add File: a\n+x\n",  # no end marker
        "*** Add File: a\n+x\n*** End Patch\n",  # no begin marker
        patch("*** Create File: a\n+x\n"),  # not a hunk header
        patch("*** Add File:a\n+x\n"),  # the marker's space is part of it
        patch("*** Add File: a\nx\n"),  # a line that is neither `+` nor a header
        patch("*** Update File: a\n"),  # an update that changes nothing
        patch("*** Update File: a\n@@\n"),  # a chunk holding no line
        patch("*** Update File: a\n@@\n-x\nnot a line\n"),  # a second chunk without @@
        patch("*** Update File: a\n@@\n*** End of File\n"),
        patch("*** Move to: b\n"),  # a Move line that follows no Update
        patch("*** Delete File: a\n*** End of File\n"),
        "<<EOF\n" + patch("*** Delete File: d\n"),  # a wrapper that is not closed
        "<<END\n" + patch("*** Delete File: d\n") + "END\n",  # only EOF wrappers are known
        # Python's white space that is not Rust's: the marker is not there for the client
        "\x1c*** Begin Patch\n*** Delete File: a\n*** End Patch\x1c",
    ],
)
def test_a_text_the_client_would_not_apply_is_unreadable(text: str) -> None:
    with pytest.raises(applypatch.Unreadable):
        applypatch.targets(text)


PATHS = st.text(
    alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)),
    min_size=1,
    max_size=40,
).filter(lambda p: p == p.strip(applypatch.SPACE) and p != "")
LINES = st.lists(
    st.text(alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",))),
    max_size=4,
)


@st.composite
def hunks(draw: st.DrawFn) -> tuple[str, list[tuple[str, str]]]:
    kind = draw(st.sampled_from(("add", "delete", "update", "move")))
    path = draw(PATHS)
    if kind == "add":
        body = "".join(f"+{line}\n" for line in draw(LINES))
        return f"*** Add File: {path}\n{body}", [("add", path)]
    if kind == "delete":
        return f"*** Delete File: {path}\n", [("delete", path)]
    lines = draw(LINES) or [""]
    chunk = "@@\n" + "".join(f"{draw(st.sampled_from(' +-'))}{line}\n" for line in lines)
    if kind == "update":
        return f"*** Update File: {path}\n{chunk}", [("update", path)]
    dest = draw(PATHS)
    text = f"*** Update File: {path}\n*** Move to: {dest}\n{chunk}"
    return text, [("update", path), ("move", dest)]


@given(st.lists(hunks(), max_size=6))
@settings(max_examples=300, deadline=None)
def test_every_hunk_written_is_read_back(parts: list[tuple[str, list[tuple[str, str]]]]) -> None:
    text = patch(*(t for t, _ in parts))
    assert applypatch.targets(text) == [target for _, found in parts for target in found]


@given(st.text(max_size=400))
@settings(max_examples=500, deadline=None)
def test_any_text_is_read_or_unreadable_never_an_error(text: str) -> None:
    try:
        found = applypatch.targets(text)
    except applypatch.Unreadable:
        return
    assert all(op in ("add", "delete", "update", "move") for op, _ in found)


@given(st.text(alphabet=string.printable + "*+-@ ", max_size=300))
@settings(max_examples=300, deadline=None)
def test_marker_like_text_is_read_or_unreadable(text: str) -> None:
    for candidate in (text, patch(text), "*** Begin Patch\n" + text):
        with contextlib.suppress(applypatch.Unreadable):
            applypatch.targets(candidate)


def test_a_large_patch_is_read_in_one_pass() -> None:
    body = "".join(f"*** Add File: f{i}\n" + "+x\n" * 50 for i in range(20_000))
    found = applypatch.targets(patch(body))
    assert len(found) == 20_000 and found[-1] == ("add", "f19999")


def test_the_patch_tool_names_its_targets() -> None:
    text = patch("*** Update File: a.py\n*** Move to: ../out.py\n@@\n-x\n+y\n")
    payload = {"tool_name": "apply_patch", "tool_input": {"command": text}, "cwd": "/r/src"}
    found = toolintent.intent(TABLE, payload)
    assert found is not None and found.cwd == "/r/src"
    assert [(p, d) for p, d, _, _ in found.targets] == [("a.py", "."), ("../out.py", ".")]


@pytest.mark.parametrize(
    "command", ["not a patch", 7, None, "*** Begin Patch\n*** Add File: a\n+x\n"]
)
def test_a_patch_that_cannot_be_read_is_unjudged(command: object) -> None:
    payload = {"tool_name": "apply_patch", "tool_input": {"command": command}}
    with pytest.raises(toolintent.Unjudged, match="apply_patch"):
        toolintent.intent(TABLE, payload)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("apply_patch <<'EOF'\n" + patch("*** Add File: a\n+x\n") + "EOF\n", [("a", ".")]),
        ('apply_patch <<"EOF"\n' + patch("*** Delete File: d\n") + "EOF\n", [("d", ".")]),
        ("cd lib && applypatch <<EOF\n" + patch("*** Delete File: d\n") + "EOF\n", [("d", "lib")]),
        ("apply_patch '" + patch("*** Delete File: /x/d\n") + "'", [("/x/d", ".")]),
        # an unquoted here-document whose body a shell would expand: not certain
        ("apply_patch <<EOF\n" + patch("*** Add File: $D/a\n+x\n") + "EOF\n", []),
        # a patch the client cannot read writes nothing
        ("apply_patch <<'EOF'\n*** Add File: a\nEOF\n", []),
    ],
)
def test_a_shell_command_running_apply_patch_names_its_targets(
    text: str, expected: list[tuple[str, str | None]]
) -> None:
    assert [(p, d) for p, d, _, _ in shwrites.targets(text)] == expected
