"""`majordomus bench` is a thin command over `mj_watch.bench`: the dispatcher holds no harness."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import majordomus

SOURCE = Path(majordomus.__file__).parent


def test_the_dispatcher_has_no_benchmark_modules() -> None:
    assert importlib.util.find_spec("majordomus.benchmark") is None
    assert importlib.util.find_spec("majordomus.bench") is None
    assert importlib.util.find_spec("mj_watch.bench.entry") is not None


IMPORTS_HARNESS = re.compile(r"^\s*(from|import) mj_watch\.bench\b", re.MULTILINE)


def test_only_the_bench_command_module_reaches_the_harness() -> None:
    """An import of the harness, anywhere in a module (the concept index and a folder's
    docstring name it without importing it)."""
    reaching = sorted(
        path.relative_to(SOURCE).as_posix()
        for path in SOURCE.rglob("*.py")
        if IMPORTS_HARNESS.search(path.read_text(encoding="utf-8"))
    )
    assert reaching == ["commands/system/bench.py"]
    assert (
        len((SOURCE / "commands" / "system" / "bench.py").read_text(encoding="utf-8").splitlines())
        < 20
    )
