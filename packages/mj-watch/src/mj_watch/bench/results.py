"""The result document, where runs are kept, and the baseline a fresh run is judged against.

Runs go to `.ai/local/benchmarks/` (`runs/<run-id>.json`, `latest.json`, `history.jsonl`) of the
repository `bench` was started in; the baseline is `.ai/repo/benchmarks/baseline.json` (tracked),
written only on a clean tree unless forced. Both carry the schema name first, so a document of
another schema is refused as incomparable (15), never read as numbers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mj_core import clock
from mj_core import ids
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.stream import jsonl
from mj_core.write import atomic

from mj_watch.bench.measure import CLOCK

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

RESULT = "majordomus/benchmark-result/v1"
BASELINE_SCHEMA = "majordomus/benchmark-baseline/v1"
RUNS = Path(".ai/local/benchmarks")
BASELINE = Path(".ai/repo/benchmarks/baseline.json")


def start() -> tuple[Any, dict[str, Any]]:
    """The moment and the environment (its load average above all) before anything runs."""
    return clock.now(), environment()


def document(
    root: Path, begun: tuple[Any, dict[str, Any]], profile: dict[str, Any], rows: list[Any]
) -> dict[str, Any]:
    moment, env = begun
    ended = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "schema": RESULT,
        "run_id": run_id(root, moment),
        "recorded_at": clock.iso(moment),
        "repository": repository(root),
        "environment": {**env, "load_end": [round(value, 2) for value in ended]},
        "profile": profile,
        "results": rows,
    }


def run_id(root: Path, moment: int) -> str:
    """`b-<stamp>-<4 hex>`, drawn again while a kept run has it: runs begun in one second
    share the stamp, and a suffix drawn twice would have `save` refuse the run (15)."""
    while True:
        found = f"b-{clock.compact(moment)}-{ids.random_hex(4)}"
        if not (root / RUNS / "runs" / f"{found}.json").exists():
            return found


def repository(root: Path) -> dict[str, Any]:
    return {"commit": git.head(root), "branch": git.branch(root), "dirty": git.is_dirty(root)}


def environment() -> dict[str, Any]:
    import platform  # only a result's header needs it

    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "os": platform.system(),
        "arch": platform.machine(),
        "python": platform.python_version(),
        "git": (git.out("--version", cwd=Path.cwd()) or "").removeprefix("git version "),
        "cpus": os.cpu_count(),
        "load": [round(value, 2) for value in load],
        "clock": CLOCK,
        "executable": sys.executable,
    }


def save(root: Path, doc: dict[str, Any]) -> Path:
    """`runs/<run-id>.json`, then `latest.json` and one compact line in `history.jsonl`."""
    base = root / RUNS
    data = jsonl.pretty(doc)
    path = base / "runs" / f"{doc['run_id']}.json"
    atomic.create(path, data, mode=0o600)
    atomic.create(base / "latest.json", data, mode=0o600, replace=True)
    atomic.append_line(base / "history.jsonl", jsonl.encode(_compact(doc)) + b"\n")
    return path


def _compact(doc: dict[str, Any]) -> dict[str, Any]:
    keep = ("command", "scenario", "mode", "status", "p50_ms", "p95_ms", "p99_ms", "rss_max_kb")
    return {
        "run_id": doc["run_id"],
        "recorded_at": doc["recorded_at"],
        "commit": doc["repository"]["commit"],
        "results": [{k: row[k] for k in keep if k in row} for row in doc["results"]],
    }


def write_baseline(root: Path, path: Path, doc: dict[str, Any], *, force: bool) -> None:
    """The run's passing rows as the new baseline; a dirty tree is refused (15) unless forced."""
    if git.is_dirty(root) and not force:
        raise Refused(
            f"{shown(root, path)}: the working tree is dirty — a baseline is taken on a clean "
            "tree (commit first, or pass --force)"
        )
    baseline = {**doc, "schema": BASELINE_SCHEMA}
    baseline["results"] = [row for row in doc["results"] if row["status"] == "ok"]
    data = jsonl.pretty(baseline)
    atomic.create(path, data, mode=0o644, replace=True, root=root)


def load_baseline(root: Path, path: Path) -> dict[str, Any]:
    """The baseline; absent → 12; not JSON or of another schema → 15 (incomparable)."""
    label = shown(root, path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise MissingArtifact(
            f"{label}: no baseline — take one with `majordomus bench --write-baseline`"
        ) from None
    try:
        doc = jsonl.loads_line(raw)
    except jsonl.DecodeError as exc:
        raise Refused(f"{label}:1: not JSON ({jsonl.reason(exc)}) — incomparable") from None
    schema = doc.get("schema") if isinstance(doc, dict) else None
    if schema != BASELINE_SCHEMA:
        raise Refused(
            f"{label}:1:schema: {schema!r} is not {BASELINE_SCHEMA} — incomparable, not compared"
        )
    return dict(doc)


def shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
