"""The timing report (`MJ_TIMING=1`): phases with milliseconds and calls, and work counters."""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import IO
    from typing import Any

_START = time.perf_counter()
_phases: dict[str, list[float]] = {}
_counters: dict[str, int] = {}


def enabled() -> bool:
    return os.environ.get("MJ_TIMING") == "1"


def count(name: str, amount: int = 1) -> None:
    _counters[name] = _counters.get(name, 0) + amount


class phase:  # used as `with timing.phase("name"):`, like the function it replaces
    """Add the time spent inside the `with` block to the phase `name`."""

    __slots__ = ("began", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.began = 0.0

    def __enter__(self) -> None:
        self.began = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        entry = _phases.setdefault(self.name, [0.0, 0])
        entry[0] += (time.perf_counter() - self.began) * 1000
        entry[1] += 1


def elapsed_ms() -> float:
    """Milliseconds since this module was first imported (early in every tool's start-up)."""
    return (time.perf_counter() - _START) * 1000


def counters() -> dict[str, int]:
    return dict(_counters)


def report() -> dict[str, Any]:
    phases = sorted(_phases.items(), key=lambda item: (-item[1][0], item[0]))
    counted = sorted(_counters.items(), key=lambda item: (-item[1], item[0]))
    return {
        "clock": "perf_counter",
        "total_ms": round((time.perf_counter() - _START) * 1000, 1),
        "phases": [{"name": n, "ms": round(v[0], 1), "calls": int(v[1])} for n, v in phases],
        "counters": [{"name": n, "count": c} for n, c in counted],
    }


def emit(stream: IO[str], *, as_json: bool) -> None:
    """Write the report to `stream` (stderr); stdout is never touched."""
    data = report()
    if as_json:
        from mj_core.stream import jsonl

        stream.write(jsonl.encode({"timing": data}).decode() + "\n")
        return
    stream.write(f"TIMING clock={data['clock']} total={data['total_ms']} ms\n")
    for item in data["phases"]:
        stream.write(f"phase  {item['ms']:>9} ms {item['calls']:>5} x  {item['name']}\n")
    for item in data["counters"]:
        stream.write(f"count  {item['count']:>9}          {item['name']}\n")
