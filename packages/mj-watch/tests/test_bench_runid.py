"""A run's id names no run already kept: runs begun in one second share the stamp, and a
suffix drawn twice is drawn again rather than refused at `save`."""

from __future__ import annotations

from pathlib import Path

import pytest
from mj_core import ids
from mj_watch.bench import results


def test_a_suffix_a_kept_run_has_is_drawn_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moment = 1_800_000_000
    drawn = iter(["d2e0", "d2e0", "0a1b"])
    monkeypatch.setattr(ids, "random_hex", lambda length: next(drawn))
    runs = tmp_path / results.RUNS / "runs"
    runs.mkdir(parents=True)
    taken = results.run_id(tmp_path, moment)
    assert taken.endswith("-d2e0")
    (runs / f"{taken}.json").write_text("{}")
    again = results.run_id(tmp_path, moment)
    assert again.endswith("-0a1b") and again.split("-")[1] == taken.split("-")[1]
