"""Whether a note's section says something, judged by measure: its live text (outside code
fences and HTML comments: `bodies.live_lines`), without template markers, placeholder tokens and its
heading's own words, must hold at least `MIN_WORDS` word; and no two sections of one note may
say the same words. One word is enough (`Fixed.`, and `none` as the next action of a finished
task, as the formats show it): what is measured is that something was written, not how much.

A template marker is `<…>`, `{{…}}`, `{%…%}`, `${…}`, a line that is only `[…]` (a bracketed
prompt) and a task-list box (`[ ]`, `[x]`); a line naming `lorem ipsum` is filler whole. A
word is a run of letters and digits with a letter in it and at least two characters (`x`, `-`
and `...` are not words). Placeholder tokens are the few words that stand for text not written
(`TODO`, `TBD`, `WIP`, `placeholder`, `later`, …) and the phrases that point elsewhere instead
of saying (`same as above`, `see below`, `fill in`, `to be done`, …).
"""

from __future__ import annotations

import re

MIN_WORDS = 1

_MARKERS = re.compile(r"<[^<>\n]*>|\{\{.*?\}\}|\{%.*?%\}|\$\{[^}\n]*\}")
_BRACKET_LINE = re.compile(r"^[\s>*+-]*(?:\d+[.)]\s*)?\[[^\]\n]*\][\s.:!]*$")
_BOX = re.compile(r"\[[ xX]?\]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_PHRASES = re.compile(
    r"\b(?:(?:same\s+)?as\s+(?:above|below|before)|see\s+(?:above|below)|fill\s+(?:\w+\s+)?in"
    r"|to\s+be\s+(?:done|decided|determined|confirmed|written|added|filled)|to\s+do"
    r"|coming\s+soon|goes\s+here|insert\s+\w*\s*here|not\s+applicable|(?:nothing|none)\s+yet"
    r"|write\s+(?:this|it|me)\s+later)\b",
    re.IGNORECASE,
)
TOKENS = frozenset(
    {
        "todo", "todos", "tbd", "tba", "tbc", "tk", "fixme", "xxx", "xx", "wip", "placeholder",
        "placeholders", "later", "ditto", "etc", "na", "yet", "foo", "bar", "baz", "qux",
        "asdf", "qwerty", "blah", "lorem", "ipsum", "pending", "stub", "dummy", "stuff",
        "something", "whatever", "misc", "tmp", "temp",
    }
)  # fmt: skip


def words(lines: list[str], headings: tuple[str, ...] = ()) -> list[str]:
    """The words of a section's live `lines` that say something (casefolded, in order, repeats
    kept): without markers, filler, placeholder tokens and the words of `headings`."""
    skip = TOKENS.union(w.casefold() for h in headings for w in _WORD.findall(h))
    found: list[str] = []
    for line in lines:
        if _BRACKET_LINE.match(line) or "lorem ipsum" in line.casefold():
            continue
        text = _PHRASES.sub(" ", _BOX.sub(" ", _MARKERS.sub(" ", line)))
        for word in _WORD.findall(text.casefold()):
            if len(word) >= 2 and not word.isdigit() and word not in skip:
                found.append(word)
    return found


def says_something(lines: list[str], headings: tuple[str, ...] = ()) -> bool:
    return len(set(words(lines, headings))) >= MIN_WORDS


def said(found: dict[str, list[str]]) -> list[str]:
    """The sections of one note (heading → its live lines) that say something of their own:
    enough words beside their heading's, and not the words of an earlier section again."""
    seen: set[tuple[str, ...]] = set()
    out: list[str] = []
    for name, content in found.items():
        mine = words(content, (name,))
        if len(set(mine)) < MIN_WORDS or tuple(mine) in seen:
            continue
        seen.add(tuple(mine))
        out.append(name)
    return out
