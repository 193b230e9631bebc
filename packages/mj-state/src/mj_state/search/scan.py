"""`mj-state search`: a literal, case-insensitive, fixed-string scan of the durable records.

The corpus is scanned kind by kind in authority order (`search.corpus.KINDS`); each line that
contains the text is one `match` record (`of`, `path`, `line`, `text`). No index, no regular
expression: the text is compared as it is, both sides lower-cased. Bytes that are not UTF-8
are read as U+FFFD, so a damaged file is still searched. `--kind` (repeatable) picks kinds,
`--limit` caps each kind's matches, `--task` keeps what that task wrote. The knowledge nodes,
last, are matched on what each states of itself (`mj_state.search.knowledge`): the line shown
is re-read from the node's file, and a line an earlier kind showed is not repeated; a match
names its node. A file that cannot be read (over its format's limit, not a regular file, a
symbolic link, unreadable) is named by a WARN finding and skipped. A file is searched as it is
shown: every credential in it as `[REDACTED]` (`mj_core.credentials.detect`), so search never shows
one, nor finds one by its value. Nothing matched is 12: the thing sought is absent. Read-only.
"""

from __future__ import annotations

import argparse
import os

from mj_core.errors import MissingArtifact
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.search import corpus as searchcorpus

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    needle = _needle(options.text)
    kinds = _kinds(options.kind)
    layer = load(context.root())
    found = 0
    seen: set[tuple[str, int]] = set()  # (path, line) of every match shown so far
    for kind in kinds:
        for record in _kind(layer, kind, needle, options, seen):
            found += record["kind"] == "match"
            yield record
    if not found:
        raise MissingArtifact(
            f"search: no {_named(kinds)} contains {options.text!r}"
            + (f" for task {options.task}" if options.task else "")
        )


def _needle(text: str) -> str:
    if not text:
        raise UsageError("search: the text to look for is empty")
    if "\n" in text or "\r" in text:
        raise UsageError("search: the text is one line (a match is one line of a record)")
    return text.lower()


def _kinds(asked: list[str] | None) -> list[str]:
    if not asked:
        return list(searchcorpus.KINDS)
    return [kind for kind in searchcorpus.KINDS if kind in asked]


def _named(kinds: list[str]) -> str:
    return "record" if len(kinds) == len(searchcorpus.KINDS) else " or ".join(kinds)


def _kind(
    layer: Layer, kind: str, needle: str, options: argparse.Namespace, seen: set[tuple[str, int]]
) -> Iterator[Record]:
    task, most = options.task, options.limit
    if task and kind not in searchcorpus.FRONT and kind not in searchcorpus.BY_LINE:
        return  # a layer file, a declaration or a knowledge node belongs to no task
    shown = 0
    if kind == "knowledge":
        scan = _knowledge(layer, needle, seen)
    else:
        scan = _files(layer, kind, needle, task)
    for record in scan:
        if record["kind"] == "match":
            seen.add((record["path"], record["line"]))
            shown += 1
        yield record
        if most is not None and shown >= most:
            return


def _files(layer: Layer, kind: str, needle: str, task: str | None) -> Iterator[Record]:
    prefix = len(str(layer.root)) + 1  # every file of the corpus is inside the repository
    for path in searchcorpus.files(layer, kind):
        yield from _file(path[prefix:].replace(os.sep, "/"), kind, path, needle, task)


def _knowledge(layer: Layer, needle: str, seen: set[tuple[str, int]]) -> Iterator[Record]:
    """The lines stating a knowledge node (its title, its declared name) that hold the text,
    each re-read from the node's file; a line an earlier kind showed is not shown again."""
    from mj_core.errors import MjError

    from mj_state.search import knowledge as known

    try:
        rows = known.nodes(layer.root)
    except MjError as exc:
        why = f"knowledge nodes not searched: {exc.message}"
        yield Finding("WARN", "search", known.SOURCES, why, "majordomus knowledge check").record()
        return
    for row in rows:
        said = known.said(row, needle)
        lines = _node_lines(layer, str(row[2])) if said else None
        if isinstance(lines, dict):  # why the file was not read
            yield lines
        if not isinstance(lines, list):
            continue
        for index in known.stating(lines, said, needle):
            if (row[2], index + 1) not in seen:
                yield {"kind": "match", "of": "knowledge", "path": row[2], "line": index + 1,
                       "text": lines[index], "node": row[0]}  # fmt: skip


def _node_lines(layer: Layer, relative: str) -> list[str] | Record | None:
    """The lines of a node's file (None: absent), or the WARN finding why it was not read;
    a path from the listing is followed only where its real path stays in the repository."""
    path = os.path.join(layer.root, relative)
    root = os.path.realpath(layer.root)
    if os.path.commonpath([os.path.realpath(path), root]) != root:
        return _unread(relative, "its real path leaves the repository; not followed").record()
    data = _read(path, relative, "knowledge")
    if isinstance(data, Finding):
        return data.record()
    if data is None:
        return None
    from mj_core.credentials import detect as credentials

    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    return credentials.redact(text, keep_lines=True)[0].split("\n")


def _file(relative: str, kind: str, path: str, needle: str, task: str | None) -> Iterator[Record]:
    data = _read(path, relative, kind)
    if isinstance(data, Finding):
        yield data.record()
        return
    if data is None or not _contains(data, needle):
        return
    from mj_core.credentials import (
        detect as credentials,  # a match is shown redacted: search never shows a secret
    )

    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    text = credentials.redact(text, keep_lines=True)[0]
    if task and kind in searchcorpus.FRONT and task not in searchcorpus.front_task(text):
        return
    lines = text.split("\n")
    owners = searchcorpus.line_tasks(kind, lines) if task and kind in searchcorpus.BY_LINE else None
    hidden = _commented(lines) if kind in searchcorpus.COMMENTED else None
    for index, line in enumerate(lines):
        if needle not in line.lower():
            continue
        if hidden is not None and index in hidden:
            continue
        if owners is not None and owners[index] != task:
            continue
        yield {"kind": "match", "of": kind, "path": relative, "line": index + 1, "text": line}


def _contains(data: bytes, needle: str) -> bool:
    """Whether the file's text holds the needle, both lower-cased; ASCII on both sides is
    judged on the bytes, without decoding."""
    if data.isascii() and needle.isascii():
        return needle.encode() in data.lower()
    return needle in data.decode("utf-8", "replace").lower()


_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0)


def _read(path: str, relative: str, kind: str) -> bytes | Finding | None:
    """The file's bytes (None: absent), or the WARN finding that says why it was not read: a
    symbolic link (records are never links, so none is followed), anything but a regular
    file, a file over its format's limit, an unreadable one."""
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            return _unread(relative, "a symbolic link; records are never links, so not followed")
        return _unread(relative, f"unreadable ({exc.strerror})")
    try:
        size = os.fstat(fd).st_size
        most = searchcorpus.limit(kind)[0]
        if size > most:
            return _unread(relative, f"over {most} bytes, the limit for this file")
        return os.read(fd, size + 1)  # a directory or a FIFO (non-blocking) fails here
    except OSError as exc:
        return _unread(relative, f"unreadable ({exc.strerror})")
    finally:
        os.close(fd)


def _unread(relative: str, why: str) -> Finding:
    return Finding("WARN", "search", relative, f"not searched: {why}", f"ls -l {relative}")


def _commented(lines: list[str]) -> set[int]:
    """The indexes of the lines inside HTML comments (an index's description of its format)."""
    hidden: set[int] = set()
    inside = False
    for index, line in enumerate(lines):
        if inside or line.lstrip().startswith("<!--"):
            hidden.add(index)
            inside = "-->" not in line
    return hidden


STAGES = {"search": Stage(run)}
