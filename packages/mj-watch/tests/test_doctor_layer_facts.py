"""`mj-watch facts --for doctor` after `mj-policy facts`: the layer's facts passed on, the
rest added; without them, or after a failing upstream, it stops."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pytest
from mj_core import streams
from mj_core.stage import Context
from mj_core.stage import run_stream
from mj_policy import layerfacts
from mj_policy import skeleton
from mj_watch import gather

ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    list(skeleton.create(tmp_path, extend=False))
    return tmp_path


def _doctor_facts(root: Path, upstream: list[dict[str, object]]) -> list[dict[str, object]]:
    options = argparse.Namespace(of="doctor", prove=False, input=None)
    context = Context(cwd=root, upstream=upstream)
    return list(run_stream("mj-watch facts", gather.STAGES["facts"], options, context))


def test_doctor_facts_pass_the_layer_facts_on_and_add_the_rest(root: Path) -> None:
    layer = [*layerfacts.gather(root), streams.summary("mj-policy facts", 0, {"fact": 3})]
    out = _doctor_facts(root, layer)
    names = [record.get("fact") for record in out if record["kind"] == "fact"]
    assert names[:4] == ["doctor", "files", "layer", "targets"]
    assert {"git", "state", "hooks", "decisions"} <= set(names)
    assert out[-1]["kind"] == "summary" and out[-1]["exit"] == 0


@pytest.mark.parametrize("missing", ["files", "layer", "targets"])
def test_doctor_facts_without_a_layer_fact_are_missing_artifact(root: Path, missing: str) -> None:
    layer = [r for r in layerfacts.gather(root) if r["fact"] != missing]
    out = _doctor_facts(root, [*layer, streams.summary("mj-policy facts", 0, {})])
    assert out[-1]["exit"] == 12 and f"no {missing} fact" in str(out[-1]["error"])
    assert [r for r in out if r["kind"] == "fact"] == []


def test_doctor_facts_stop_with_a_failing_upstream(root: Path) -> None:
    out = _doctor_facts(root, [streams.summary("mj-policy facts", 10, {}, "broken")])
    assert [r["kind"] for r in out] == ["summary"] and out[0]["exit"] == 10
