"""Test-only: keep every record a stage emits, for the stream contract (`streamcontract.py`).

`tests/conftest.py` puts this directory on `PYTHONPATH` and names a sample directory in
`MJTEST_SAMPLES` for the processes the behavioural suite runs. In a process of an installed
tool (`majordomus`, `mj-*`, or `python -m` of one of their packages) this wraps
`mj_core.stream.stage.run_stream` — the one place every stage's records pass through, whether the
stage runs as an executable or composed in-process by the dispatcher — as `mj_core.stream.stage` is
first imported, so nothing is imported earlier than the tool itself would. Each record is
written, as it is yielded, to `<samples>/<pid>-<clock>.jsonl` (the argv first). Any other
process (pytest and its workers, git) is left alone; so is any process without the variable,
and the benchmark harness, which drops the variable so that what it times is not sampled.
"""

from __future__ import annotations

import os
import sys

TARGET = "mj_core.stream.stage"
TOOL_MODULES = ("majordomus", "mj_core", "mj_policy", "mj_state", "mj_context")
TOOL_MODULES += ("mj_knowledge", "mj_watch")
BENCH = ("majordomus bench", "mj_watch.bench", "majordomus.bench")


def _tool() -> str | None:
    """`majordomus`, an `mj-*` tool, or `python -m` of one of their modules; else None."""
    argv = getattr(sys, "argv", None) or [""]
    name = os.path.basename(argv[0])
    if name == "-m":
        orig = list(getattr(sys, "orig_argv", []))
        module = orig[orig.index("-m") + 1] if "-m" in orig[:-1] else ""
        return module if module.split(".", 1)[0] in TOOL_MODULES else None
    if name == "majordomus" or name.startswith("mj-"):
        return " ".join([name, *argv[1:2]])
    return None


class _Sink:
    """One file per process, written line by line (the tools end with `os._exit`). A write the
    world refuses (a test's file-size limit) ends the sampling of that process, never the tool."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.fd = -1
        self.broken = False

    def write(self, stage: str, record: object) -> None:
        if self.broken:
            return
        import json

        try:
            line = json.dumps({"stage": stage, "record": record}, allow_nan=False)  # ASCII
        except (TypeError, ValueError) as exc:  # not JSON-native: the validator names it
            line = json.dumps({"stage": stage, "unserialisable": f"{exc}: {record!r}"[:2000]})
        try:
            if self.fd < 0:
                self._open(json)
            data = (line + "\n").encode("ascii")
            if os.write(self.fd, data) != len(data):
                self.broken = True
        except OSError:
            self.broken = True

    def _open(self, json: object) -> None:
        import time

        name = f"{os.getpid()}-{time.monotonic_ns()}.jsonl"  # pids are reused in a long run
        path = os.path.join(self.directory, name)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        argv = [os.path.basename(sys.argv[0]), *sys.argv[1:]]
        head = json.dumps({"argv": argv, "cwd": os.getcwd()})  # type: ignore[attr-defined]
        os.write(self.fd, (head + "\n").encode("ascii"))


def _wrap(module: object, sink: _Sink) -> None:
    original = module.run_stream  # type: ignore[attr-defined]

    def run_stream(name, stage, options, context):  # type: ignore[no-untyped-def]
        records = original(name, stage, options, context)
        try:
            for record in records:
                if isinstance(record, dict) and record.get("kind") == "written":
                    from mj_core.stream import (
                        protocol as streams,  # records already serialised: each sampled
                    )

                    for each in streams.expanded(record):
                        sink.write(name, each)
                else:
                    sink.write(name, record)
                yield record
        finally:
            records.close()

    run_stream.__doc__ = original.__doc__
    run_stream.__wrapped__ = original  # type: ignore[attr-defined]
    module.run_stream = run_stream  # type: ignore[attr-defined]


class _Loader:
    def __init__(self, inner: object, sink: _Sink) -> None:
        self.inner = inner
        self.sink = sink

    def create_module(self, spec: object) -> object:
        return self.inner.create_module(spec)  # type: ignore[attr-defined]

    def exec_module(self, module: object) -> None:
        self.inner.exec_module(module)  # type: ignore[attr-defined]
        _wrap(module, self.sink)


class _Finder:
    """Intercepts the one import of `mj_core.stream.stage`, then steps aside."""

    def __init__(self, sink: _Sink) -> None:
        self.sink = sink

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name != TARGET:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                spec.loader = _Loader(spec.loader, self.sink)
                return spec
        return None


def install() -> None:
    directory = os.environ.get("MJTEST_SAMPLES")
    tool = _tool() if directory else None
    if tool in BENCH:  # the harness measures tools: it, and every process it times, unsampled
        os.environ.pop("MJTEST_SAMPLES", None)
    elif tool and directory and os.path.isdir(directory):
        sys.meta_path.insert(0, _Finder(_Sink(directory)))


install()
