"""The Markdown link reader held equal to a CommonMark parser (markdown-it-py, test-only) over
generated documents: paragraphs of words, inline links and images (titles, angle targets,
escaped brackets), code spans hiding links, fenced blocks (backticks and tildes, longer closing
fences, unclosed ones) hiding links, reference definitions and headings. Every local target the
parser sees, on its line, is what `mdlinks.links` returns, and nothing else."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mj_policy.knowledge import mdlinks

TARGET = st.sampled_from(["a.md", "docs/b.md", "c.md#part", "d.md?x=1", "#top", "/abs.md",
                          "https://h.example/e.md", "//host/f.md", "<g h.md>", "<i.md>",
                          "mailto:x@y.z", "../up.md", "j_k-l.txt"])  # fmt: skip
TITLE = st.sampled_from(["", ' "t"', " 't'"])
TEXT = st.sampled_from(["x", "two words", "with \\] escaped", "a*b*", ""])
WORD = st.sampled_from(["plain", "words", "here", "a]b", "(c)", "[d]", "e:"])


@st.composite
def inline(draw: st.DrawFn, counter: list[int]) -> str:
    kind = draw(st.sampled_from(["word", "link", "image", "code", "auto"]))
    if kind == "word":
        return draw(WORD)
    if kind == "auto":
        return "<https://h.example/auto.md>"
    link = f"[{draw(TEXT)}]({draw(TARGET)}{draw(TITLE)})"
    if kind == "image":
        return "!" + link
    if kind == "code":
        ticks = draw(st.sampled_from(["`", "``"]))
        return f"{ticks}{link}{ticks}"
    return link


@st.composite
def block(draw: st.DrawFn, counter: list[int]) -> str:
    kind = draw(st.sampled_from(["para", "para", "fence", "definition", "heading"]))
    if kind == "para":
        return " ".join(draw(st.lists(inline(counter), min_size=1, max_size=5)))
    if kind == "heading":
        return "# " + " ".join(draw(st.lists(inline(counter), min_size=1, max_size=2)))
    if kind == "definition":
        counter[0] += 1
        return f"[label{counter[0]}]: {draw(TARGET)}{draw(TITLE)}"
    mark = draw(st.sampled_from(["```", "~~~", "````"]))
    close = draw(st.sampled_from([mark, mark + mark[0], "", mark[0] * 2]))
    inner = draw(st.lists(inline(counter), min_size=1, max_size=3))
    return "\n".join([mark, *inner, close]) if close else "\n".join([mark, *inner])


@st.composite
def documents(draw: st.DrawFn) -> str:
    counter = [0]
    return "\n\n".join(draw(st.lists(block(counter), min_size=1, max_size=6))) + "\n"


def _commonmark(text: str) -> list[tuple[int, str]]:
    env: dict[str, Any] = {}
    seen: list[tuple[int, str]] = []
    for token in MarkdownIt("commonmark").parse(text, env):
        if token.type != "inline" or not token.map:
            continue
        line = token.map[0] + 1
        for child in token.children or []:
            line += child.type in ("softbreak", "hardbreak")
            href = child.attrGet("href") if child.type == "link_open" else child.attrGet("src")
            if child.type in ("link_open", "image") and child.markup != "autolink":
                seen.append((line, unquote(str(href))))
    for found in env.get("references", {}).values():
        seen.append((int(found["map"][0]) + 1, unquote(str(found["href"]))))
    return sorted((line, href) for line, href in seen if mdlinks.local(href) is not None)


@settings(max_examples=400, deadline=None)
@given(documents())
def test_the_local_links_are_the_ones_commonmark_sees(text: str) -> None:
    ours = sorted((line, written) for line, written, _ in mdlinks.links(text))
    assert ours == _commonmark(text), text
