"""Region mode: the generated text lives between two markers; the host file is not ours.

    <!-- majordomus:begin <policy 12 hex> <content 16 hex> -->
    ...generated region...
    <!-- majordomus:end -->

Every byte outside the markers is copied as it was. An unclosed, out-of-order or repeated
marker is refused (15): the tool never guesses where its region is. `find` also splits a file
at other generated markers (`bench --markdown`'s `<!-- bench:begin … -->`) by the same rules.
"""

from __future__ import annotations

import re

from mj_core.errors import Refused

from mj_policy.projection.stamps import Stamp
from mj_policy.projection.stamps import split_lines

BEGIN = "<!-- majordomus:begin"
END = "<!-- majordomus:end -->"
_BEGIN_STAMPED = (  # compiled (and cached) by `re` the first time a region is found
    r"<!-- majordomus:begin (?P<policy>[0-9a-f]{12}) (?P<content>[0-9a-f]{16}) -->"
)


class Region:
    """A host file split at its region: the text around it, its stamp and its body."""

    __slots__ = ("after", "before", "begin_line", "body", "end_newline", "stamp")

    def __init__(  # noqa: PLR0917 — the NamedTuple's field order, kept
        self,
        before: str,
        stamp: Stamp | None,
        body: str,
        end_newline: str,
        after: str,
        begin_line: int,
    ) -> None:
        self.before = before  # the host text up to the begin marker, byte for byte
        self.stamp = stamp  # None when the begin marker carries no (well-formed) hashes
        self.body = body  # the generated text between the markers
        self.end_newline = end_newline  # the end marker's own line terminator ("" at EOF)
        self.after = after  # the host text after the end marker's line
        self.begin_line = begin_line  # 1-based, for messages


def begin_marker(policy: str, content: str) -> str:
    return f"{BEGIN} {policy[:12]} {content} -->"


def find(text: str, name: str, begin: str = BEGIN, end: str = END) -> Region | None:
    """The one region of `text` between lines starting with `begin` and with `end` (less its
    closing `-->`), None when there is none; malformed markers → 15."""
    lines = split_lines(text)
    end_prefix = end.removesuffix(" -->")
    begins = [i for i, line in enumerate(lines) if line.strip().startswith(begin)]
    ends = [i for i, line in enumerate(lines) if line.strip().startswith(end_prefix)]
    if not begins and not ends:
        return None
    _refuse_malformed(name, begins, ends, (begin, end))
    b, e = begins[0], ends[0]
    match = re.fullmatch(_BEGIN_STAMPED, lines[b].strip())
    stamp = Stamp(match["policy"], match["content"]) if match else None
    end_line = lines[e]
    return Region(
        before="".join(lines[:b]),
        stamp=stamp,
        body="".join(lines[b + 1 : e]),
        end_newline=end_line[len(end_line.rstrip("\r\n")) :],
        after="".join(lines[e + 1 :]),
        begin_line=b + 1,
    )


def _refuse_malformed(
    name: str, begins: list[int], ends: list[int], markers: tuple[str, str]
) -> None:
    fix = "leave exactly one begin and one end marker, in that order"
    begin, end = markers
    if len(begins) > 1:
        raise Refused(f"{name}:{begins[1] + 1}: repeated '{begin}' marker — {fix}")
    if len(ends) > 1:
        raise Refused(f"{name}:{ends[1] + 1}: repeated '{end}' marker — {fix}")
    if not ends:
        raise Refused(f"{name}:{begins[0] + 1}: unclosed region (no '{end}') — {fix}")
    if not begins:
        raise Refused(f"{name}:{ends[0] + 1}: '{end}' without a begin marker — {fix}")
    if ends[0] < begins[0]:
        raise Refused(f"{name}:{ends[0] + 1}: end marker before the begin marker — {fix}")


def splice(host: str, region: Region | None, policy: str, content: str, body: str) -> str:
    """The host with its region replaced, or with one region appended when it has none."""
    block = f"{begin_marker(policy, content)}\n{body}{END}"
    if region is None:
        return _append(host, block + "\n")
    return region.before + block + (region.end_newline or "") + region.after


def _append(host: str, block: str) -> str:
    if not host:
        return block
    separator = "" if host.endswith("\n") else "\n"
    blank = "" if host.endswith("\n\n") else "\n"
    return host + separator + blank + block
