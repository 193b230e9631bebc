"""The run for a person (a table) or a program (`--format json`: the result document)."""

from __future__ import annotations

from collections.abc import Iterator

from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

COLUMNS = ("p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms", "mean_ms", "stddev_ms")


def json_document(doc: dict[str, Any]) -> str:
    return jsonl.pretty(doc).decode()


def table(doc: dict[str, Any]) -> Iterator[str]:
    env = doc["environment"]
    repo = doc["repository"]
    commit = (repo["commit"] or "unborn")[:12]
    dirty = " (dirty)" if repo["dirty"] else ""
    load = " ".join(f"{v:g}" for v in env["load"])
    yield f"bench {doc['run_id']}  commit {commit}{dirty}  {env['cpus']} cpu(s)  load {load}"
    names = ("command", "scenario", "mode", "status", "n", *(c[:-3] for c in COLUMNS), "rss MB")
    widths = (18, 18, 5, 9, 3, *(8 for _ in COLUMNS), 7)
    yield _line(names, widths)
    for row in doc["results"]:
        yield _line(_cells(row), widths)


def _cells(row: dict[str, Any]) -> list[str]:
    head = [row["command"], row["scenario"], row["mode"], row["status"]]
    if row["status"] != "ok":
        return [*head, "-", row.get("message", "")]
    figures = [f"{row[c]:.1f}" for c in COLUMNS]
    return [*head, str(row["samples"]), *figures, f"{row['rss_max_kb'] / 1024:.1f}"]


def _line(cells: tuple[str, ...] | list[str], widths: tuple[int, ...]) -> str:
    out = []
    for index, cell in enumerate(cells):
        width = widths[index] if index < len(widths) else 0
        out.append(cell.rjust(width) if index >= 4 and width else cell.ljust(width))
    return "  ".join(out).rstrip()
