"""What a stage runs with, and how its records become a stream (`mj_core.stream.protocol`).

`Context` is everything a stage may touch besides its options: where it runs and its input
(the upstream stage's records in-process, a path, or stdin). `run_stream` runs a stage and
ends its records with the stream's summary; a stage that fails with an expected error ends
its stream with that code instead, so the next stage (in-process or through a pipe) stops
with it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.findings import verdict
from mj_core.stream import protocol as streams

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import IO
    from typing import Any

    Record = dict[str, Any]
    StageFn = Callable[[argparse.Namespace, "Context"], Iterable[Record]]


class Context:
    """What a stage may touch besides its options: where it runs and its input stream."""

    __slots__ = ("_root", "cwd", "input", "repo", "stdin", "upstream")

    def __init__(
        self,
        cwd: Path,
        stdin: IO[bytes] | None = None,
        upstream: Iterable[Record] | None = None,  # in-process input from the previous stage
        repo: Path | None = None,  # from --repo; else the git top-level of cwd
        _root: Path | None = None,
    ) -> None:
        self.cwd = cwd
        self.stdin = stdin
        self.upstream = upstream
        self.repo = repo
        self._root = _root
        self.input: streams.Upstream | None = None  # the stream read, once it is read

    def root(self) -> Path:
        if self._root is None:
            from mj_core.git import questions as git

            self._root = git.toplevel(self.repo or self.cwd)
        return self._root

    def records(self, path: str | None = None) -> Iterator[Record]:
        """Input records (their summary judged, `mj_core.stream.protocol`): the upstream stage's, a
        path's, or stdin's (JSON Lines or one JSON or YAML document; a TTY is a usage error),
        the last two each held to its kind's schema (`mj_core.stream.check`)."""
        if self.upstream is not None:
            self.input = streams.Upstream(self.upstream, "the upstream stage")
        elif path not in (None, "-"):
            from mj_core.stream import check as streamcheck

            assert path is not None
            with open(path, "rb") as handle:
                data = handle.read()
            records, whole = streams.documents(data, path)
            self.input = streams.Upstream(streamcheck.checked(records, path), path, whole=whole)
        else:
            stream = self.stdin if self.stdin is not None else sys.stdin.buffer
            if stream.isatty():
                raise UsageError("no input: pipe JSON Lines on stdin or name a file")
            records, whole = streams.documents(stream.read(), "<stdin>")
            from mj_core.stream import check as streamcheck

            checked = streamcheck.checked(records, "<stdin>")
            self.input = streams.Upstream(checked, "<stdin>", whole=whole)
        yield from self.input

    def carried(
        self, path: str | None, action: str, write: Callable[[Record], Iterable[Record]]
    ) -> Iterator[Record]:
        """A writer's input passed on, the verdict of `action` carried out by `write` (its
        records in the verdict's place): the loop every facts | judge | writer writer runs."""
        for record in self.records(path):
            if record.get("kind") == "verdict" and record.get("action") == action:
                yield from write(record)
            else:
                yield record

    def the_fact(self, path: str | None, name: str, gatherer: str) -> Record:
        """The one `name` fact of the input: a judge over one fact has nothing to judge with
        none, and cannot tell which to judge of several (12, naming the stage that gathers it)."""
        return self.beside_fact(path, name, gatherer)[1]

    def beside_fact(
        self, path: str | None, name: str, gatherer: str
    ) -> tuple[list[Record], Record]:
        """The input's other records, to pass on, and its one `name` fact (as `the_fact`): what
        a judge in the middle of a stream reads."""
        others: list[Record] = []
        found: list[Record] = []
        for record in self.records(path):
            is_fact = record.get("kind") == "fact" and record.get("fact") == name
            (found if is_fact else others).append(record)
        if len(found) != 1:
            from mj_core.errors import MissingArtifact

            many = "more than one" if found else "no"
            raise MissingArtifact(f"the facts carry {many} {name} fact — `{gatherer}`")
        return others, found[0]


class Stage:
    """One subcommand's code: its run function (its help and options are declared in
    `share/commands.yaml`, read by `mj_core.declaration.commands`)."""

    __slots__ = ("raw", "reads", "run")

    def __init__(self, run: StageFn, raw: bool = False) -> None:
        self.run = run
        # A renderer: its `{"kind": "text", "text": ...}` records are written verbatim, the one
        # exception to JSON Lines on stdout (the end of a pipeline a person reads).
        self.raw = raw


def run_stream(
    name: str, stage: Stage, options: argparse.Namespace, context: Context
) -> Iterator[Record]:
    """The stage's records, then the summary: its verdict, or the upstream's first failure."""
    if getattr(options, "repo", None):
        context.repo = Path(options.repo)
    counts: dict[str, int] = {}
    findings: list[Record] = []
    try:
        for record in stage.run(options, context):
            kind = str(record.get("kind"))
            if kind == streams.WRITTEN:  # records already serialised: counted as what they are
                of, count = str(record["of"]), int(record["count"])
                if count:
                    counts[of] = counts.get(of, 0) + count
                    yield record
                continue
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "finding":
                findings.append(record)
            yield record
    except streams.Stopped as exc:
        said = context.input.error if context.input is not None else None
        yield _marked(
            streams.summary(name, int(exc.code), counts, said), stage, options, stopped=True
        )
        return
    except MjError as exc:
        yield _marked(streams.summary(name, int(exc.code), counts, exc.message), stage, options)
        return
    upstream = context.input.code if context.input is not None else 0
    code = streams.first_failure(upstream, int(verdict(findings)))
    yield _marked(streams.summary(name, code, counts), stage, options)


def _marked(
    summary: Record, stage: Stage, options: argparse.Namespace, *, stopped: bool = False
) -> Record:
    """The summary, marked when its stage stopped for the upstream, or when a renderer's text
    ends the output (its summary is never written): text for a person, or a document fixed
    verbatim in JSON. A renderer asked for JSON that emitted records instead ends its JSON
    Lines with its summary, as every stream does."""
    if stopped:
        summary["stopped"] = True
    as_json = getattr(options, "format", None) == "json"
    if stage.raw and ("text" in summary["counts"] or not as_json):
        summary["raw"] = True
    return summary
