"""`python -m mj_watch.bench.mcp_first`: the wait for `majordomus mcp`'s `initialize` answer,
beside `majordomus version` and another installation's server, judged by its budget."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import Repo
from conftest import bin_dir


def _run(repo: Repo, *args: str) -> subprocess.CompletedProcess[str]:
    python = str(bin_dir() / "python") if (bin_dir() / "python").exists() else sys.executable
    argv = [python, "-m", "mj_watch.bench.mcp_first", "--repo", str(repo.root), *args]
    return subprocess.run(argv, env=repo.env, capture_output=True, text=True, check=False)


def test_the_answer_is_timed_beside_version_and_the_code_before(layer_repo: Repo) -> None:
    before = layer_repo.root.parent / "before"
    before.write_text('#!/bin/sh\nread line\necho \'{"jsonrpc":"2.0","id":1,"result":{}}\'\n')
    before.chmod(0o755)
    done = _run(layer_repo, "--samples", "2", "--before", str(before))  # measures; judges not
    assert done.returncode == 0, done
    doc = json.loads(done.stdout)
    assert list(doc["targets"]) == [
        "majordomus version",
        "majordomus mcp: initialize answered",
        "the same, before",
    ]
    assert all(t["min_ms"] > 0 for t in doc["targets"].values())
    mine = doc["targets"]["majordomus mcp: initialize answered"]["median_ms"]
    assert doc["budget_ms"] == 300 and doc["within_budget"] is (mine <= 300)


def test_over_the_budget_is_10_under_check(layer_repo: Repo) -> None:
    done = _run(layer_repo, "--samples", "1", "--budget-ms", "0", "--check")
    assert done.returncode == 10, done
    assert json.loads(done.stdout)["within_budget"] is False
