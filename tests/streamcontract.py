"""The stream contract, judged: every sampled record validates against its kind's schema.

`sampling/sitecustomize.py` writes what every stage of every tool process of the behavioural
suite emitted; `judge` reads those files back and validates each distinct record against
`share/schemas/pipeline/<kind>.json`. A record whose kind has no schema, that is not JSON, or
that fails its schema is a problem naming the kind, the offending field and the command.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parents[1] / "share" / "schemas" / "pipeline"
SAMPLES = "MJTEST_SAMPLES"


@dataclass
class Sample:
    argv: list[str]
    stage: str
    record: Any = None
    unserialisable: str | None = None
    cwd: str | None = None  # where the process ran (a reproduce command runs there)

    def command(self) -> str:
        return f"`{' '.join(self.argv)}` (stage `{self.stage}`)"


@dataclass
class Verdict:
    lines: int = 0
    distinct: int = 0
    processes: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def validators(directory: Path = SCHEMAS) -> dict[str, Any]:
    """One checked Draft 2020-12 validator per schema file, by kind (the file's stem)."""
    import jsonschema

    out: dict[str, Any] = {}
    for path in sorted(directory.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        out[path.stem] = jsonschema.Draft202012Validator(schema)
    return out


def samples(directory: Path) -> Iterator[tuple[Path, list[Sample]]]:
    """Each process's samples, file by file. A last line that does not parse was torn by a
    limit the test set on the process (the sampler gives up there; the tool never sees it);
    any other line that does not parse is a problem."""
    for path in sorted(directory.glob("*.jsonl")):
        argv: list[str] = ["?"]
        cwd: str | None = None
        found: list[Sample] = []
        lines = path.read_text(encoding="ascii", errors="replace").split("\n")
        for number, line in enumerate(lines, 1):
            if not line:
                continue
            try:
                value = json.loads(line)
            except ValueError as exc:
                if number != len(lines):  # a torn line is the last, without its newline
                    found.append(Sample(argv, "?", unserialisable=f"line {number}: {exc}"))
                continue
            if "argv" in value:
                argv, cwd = value["argv"], value.get("cwd")
                continue
            found.append(
                Sample(argv, value["stage"], value.get("record"), value.get("unserialisable"), cwd)
            )
        yield path, found


def problems_of(sample: Sample, checks: dict[str, Any]) -> list[str]:
    """What is wrong with one record (nothing when it validates against its kind's schema)."""
    if sample.unserialisable is not None:
        return [f"a record that is not JSON: {sample.unserialisable} — from {sample.command()}"]
    record = sample.record
    kind = record.get("kind") if isinstance(record, dict) else None
    if not isinstance(kind, str):
        return [f"a record without a string `kind`: {record!r:.200} — from {sample.command()}"]
    check = checks.get(kind)
    if check is None:
        return [f"kind `{kind}` has no schema in share/schemas/pipeline/ — from {sample.command()}"]
    return [
        f"kind `{kind}` at {error.json_path}: {error.message:.300} — from {sample.command()}"
        for error in sorted(check.iter_errors(record), key=lambda e: list(e.path))
    ]


def judge(
    found: Iterable[tuple[Path, list[Sample]]], checks: dict[str, Any] | None = None
) -> Verdict:
    """Validate each distinct record once; the same problem is reported once per kind/field."""
    import time

    started = time.perf_counter()
    checks = validators() if checks is None else checks
    verdict = Verdict()
    seen: set[str] = set()
    said: set[str] = set()
    for _path, batch in found:
        verdict.processes += 1
        for sample in batch:
            verdict.lines += 1
            if isinstance(sample.record, dict):
                verdict.kinds[str(sample.record.get("kind"))] += 1
            key = json.dumps([sample.record, sample.unserialisable], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            verdict.distinct += 1
            for problem in problems_of(sample, checks):
                head = problem.split(" — from ", 1)[0]
                if head not in said:
                    said.add(head)
                    verdict.problems.append(problem)
    verdict.seconds = time.perf_counter() - started
    return verdict
