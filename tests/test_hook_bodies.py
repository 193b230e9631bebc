"""Hook bodies, honest and hostile: the static verdict of `doctor`, the verdict of
`doctor --prove`, and what a real `git commit` through the hook does with a failing majordomus.

Each body is installed as the pre-commit hook of an adopted repository (a `<hook>.d/` runner and
its sub-hook, or the pre-commit framework's own script, where the body says so). Its static
verdict is asserted; and for every body, a static OK must mean that `doctor --prove` shows the
hook wired and that a commit with a majordomus that fails (a stand-in first on PATH, exit 10) is
refused: the static proof never says OK where the hook does not block.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Repo
from conftest import make_repo
from conftest import wire

SH = "#!/bin/sh\n"
RUNNER = SH + 'for h in "$0.d"/*; do "$h" || exit $?; done\n'
SUB = SH + "majordomus doctor\n"
GUARDED = SH + 'for h in "$0".d/*; do [ -x "$h" ] && { "$h" || exit $?; }; done\n'
FRAMEWORK = (
    "framework"  # the body is the framework's generated script, as `pre-commit install` writes it
)
ENTRY = (
    "repos:\n  - repo: local\n    hooks:\n      - id: majordomus-doctor\n"
    "        name: majordomus doctor\n        entry: majordomus doctor\n        language: system\n"
    "        pass_filenames: false\n"
)
CONFIG = ENTRY + "        always_run: true\n"

# (name, hook body, sub-hook body or None, the static verdict)
BODIES = [
    ("the printed line", SH + "majordomus doctor || exit $?\n", None, "OK"),
    ("bare exit", SH + "majordomus doctor || exit\necho after\n", None, "OK"),
    ("last command", SH + "echo checking >&2\nmajordomus doctor\n", None, "OK"),
    ("set -e", SH + "set -e\nmajordomus doctor\necho after\n", None, "OK"),
    ("shebang -e", "#!/bin/sh -e\nmajordomus doctor\necho after\n", None, "OK"),
    ("exec", SH + "exec majordomus doctor\n", None, "OK"),
    ("if else exit", SH + "if majordomus doctor; then :; else exit $?; fi\n", None, "OK"),
    ("and or", SH + "majordomus doctor && exit 0 || exit $?\n", None, "OK"),
    ("quiet", SH + "majordomus doctor >/dev/null 2>&1 || exit $?\n", None, "OK"),
    ("bash", "#!/bin/bash\nmajordomus doctor || exit $?\n", None, "OK"),
    ("dash", "#!/bin/dash\nmajordomus doctor || exit $?\n", None, "OK"),
    ("env sh", "#!/usr/bin/env sh\nmajordomus doctor || exit $?\n", None, "OK"),
    ("env bash pipefail", "#!/usr/bin/env bash\nset -o pipefail\nmajordomus doctor\n", None, "OK"),
    ("no shebang", "majordomus doctor || exit $?\n", None, "OK"),
    ("runner", RUNNER, SUB, "OK"),
    ("guarded runner", GUARDED, SH + "majordomus doctor || exit $?\n", "OK"),
    ("framework", FRAMEWORK, CONFIG, "OK"),
    ("; exit 0", SH + "majordomus doctor; exit 0\n", None, "FAIL"),
    ("exit 0 before", SH + "exit 0\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("exec true before", SH + "exec true\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("| tee", SH + "majordomus doctor | tee /dev/null\n", None, "FAIL"),
    ("&", SH + "majordomus doctor &\nwait\n", None, "FAIL"),
    ("if false", SH + "if false; then\n  majordomus doctor || exit $?\nfi\n", None, "FAIL"),
    ("trap", SH + "trap 'exit 0' EXIT\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("/bin/true", "#!/bin/true\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("function", SH + "majordomus() { :; }\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("alias", SH + "alias majordomus=true\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("--help", SH + "majordomus doctor --help || exit $?\n", None, "FAIL"),
    ("cd elsewhere", SH + "cd /tmp && majordomus doctor || exit $?\n", None, "FAIL"),
    ("|| true", SH + "majordomus doctor || true\n", None, "FAIL"),
    ("|| exit 0", SH + "majordomus doctor || exit 0\n", None, "FAIL"),
    ("|| :", SH + "majordomus doctor || :\n", None, "FAIL"),
    ("; true", SH + "majordomus doctor; true\n", None, "FAIL"),
    ("|| exit 1", SH + "majordomus doctor || exit 1\n", None, "FAIL"),
    ("carries on", SH + "majordomus doctor\necho after\n", None, "FAIL"),
    ("set +e", SH + "set -e\nset +e\nmajordomus doctor\necho after\n", None, "FAIL"),
    ("if ! exit $?", SH + "if ! majordomus doctor; then exit $?; fi\n", None, "FAIL"),
    ("eval", SH + "eval 'exit 0'\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("command -v", SH + "command -v mj-no >/dev/null || exit 0\nmajordomus doctor\n", None, "FAIL"),
    ("PATH", SH + 'PATH="$PWD/fake:$PATH"\nmajordomus doctor || exit $?\n', None, "FAIL"),
    ("pipefail in sh", SH + "set -o pipefail\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("subshell", SH + "(exit 0) && exit 0\nmajordomus doctor || exit $?\n", None, "FAIL"),
    ("CRLF", SH.replace("\n", "\r\n") + "majordomus doctor || exit $?\r\n", None, "FAIL"),
    ("CRLF no shebang", "majordomus doctor || exit $?\r\n", None, "FAIL"),
    ("swallowing runner", SH + 'for h in "$0.d"/*; do "$h"; done\n', SUB, "FAIL"),
    ("sourcing runner", SH + 'for h in "$0.d"/*; do . "$h"; done\n', SUB, "FAIL"),
    ("runner, sub exits 0", RUNNER, SH + "majordomus doctor; exit 0\n", "FAIL"),
    ("framework, exit 0", FRAMEWORK + "exit", CONFIG, "FAIL"),
    ("framework, not always_run", FRAMEWORK, ENTRY, "FAIL"),
]  # fmt: skip


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    """An adopted repository with both printed hooks installed, built once and copied."""
    base = tmp_path_factory.mktemp("template")
    repo = make_repo(base / "repo", base / "home")
    assert repo.mj("init").code == 0
    repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert repo.mj("update").code == 0
    fake = repo.write("fake/majordomus", "#!/bin/sh\nexit 0\n")  # a hostile PATH entry
    fake.chmod(0o755)
    repo.commit("adopt")
    tool = Path(sys.executable).parent / "pre-commit"
    if tool.exists():  # installed before any other hook: no `.legacy` hook is kept
        repo.write(".pre-commit-config.yaml", CONFIG)
        env = dict(repo.env, PRE_COMMIT_HOME=str(base / "pre-commit-home"))
        subprocess.run([str(tool), "install"], cwd=repo.root, env=env, check=True)
        shutil.copy(repo.root / ".git/hooks/pre-commit", base / "framework-hook")
        (repo.root / ".pre-commit-config.yaml").unlink()
    wire(repo)
    return repo


def adopt(template: Repo, tmp_path: Path) -> Repo:
    shutil.copytree(template.root, tmp_path / "repo", symlinks=True)
    env = dict(template.env, HOME=str(tmp_path / "home"))
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    return Repo(tmp_path / "repo", env)


def install(repo: Repo, template: Repo, body: str, sub: str | None) -> None:
    hooks = repo.root / ".git/hooks"
    if body.startswith(FRAMEWORK):
        framework = template.root.parent / "framework-hook"
        if not framework.exists():
            pytest.skip("the pre-commit framework is not installed")
        text = framework.read_text()
        if body.endswith("exit"):
            text = text.replace("# end templated", "exit 0\n# end templated")
        body = text
        policy = repo.root / ".ai/repo/policy.yaml"
        old = "wired_by: git-hook:pre-commit"
        policy.write_text(policy.read_text().replace(old, "wired_by: pre-commit:majordomus-doctor"))
        repo.write(".pre-commit-config.yaml", sub or "")
        repo.commit("the framework")  # `--prove` runs HEAD's configuration
        sub = None
    hook = hooks / "pre-commit"
    hook.write_bytes(body.encode())
    hook.chmod(0o755)
    if sub is not None:
        inner = hooks / "pre-commit.d" / "50-majordomus"
        inner.parent.mkdir()
        inner.write_bytes(sub.encode())
        inner.chmod(0o755)


def verdict(repo: Repo, *flags: str) -> str:
    result = repo.mj("doctor", "--json", *flags)
    levels = [
        record["level"]
        for record in map(json.loads, result.out.splitlines())
        if record.get("subject") == "doctor-on-commit" and record.get("level") != "WARN"
    ]
    assert len(levels) == 1, result
    return str(levels[0])


def commit_with_failing_majordomus(repo: Repo, tmp_path: Path) -> tuple[int, bool]:
    """(git commit's exit code, whether the stand-in ran)."""
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir()
    ran = tmp_path / "stand-in-ran"
    script = stand_in / "majordomus"
    script.write_text(f'#!/bin/sh\necho "$@" >> {ran}\nexit 10\n')
    script.chmod(0o755)
    repo.write("change.txt", "a change to commit\n")
    repo.git("add", "-A")
    env = dict(repo.env, PATH=f"{stand_in}:{repo.env['PATH']}")
    done = subprocess.run(
        ["git", "commit", "-q", "--no-gpg-sign", "-m", "through the hook"],
        cwd=repo.root,
        env=env,
        capture_output=True,
        check=False,
        timeout=60,
    )
    return done.returncode, ran.exists()


@pytest.mark.parametrize(
    ("body", "sub", "expected"), [b[1:] for b in BODIES], ids=[b[0] for b in BODIES]
)
def test_the_static_verdict_never_says_ok_where_the_hook_does_not_block(
    template: Repo, tmp_path: Path, body: str, sub: str | None, expected: str
) -> None:
    repo = adopt(template, tmp_path)
    install(repo, template, body, sub)
    static = verdict(repo)
    assert static == expected
    proven = verdict(repo, "--prove")
    code, ran = commit_with_failing_majordomus(repo, tmp_path)
    if static == "OK":
        assert proven == "OK", "the static proof accepted a hook that running shows unwired"
        assert code != 0 and ran, "the static proof accepted a hook a failing doctor gets past"
    if proven == "FAIL" or code == 0:
        assert static == "FAIL"


def test_the_table_covers_the_asks() -> None:
    assert len(BODIES) >= 40
    assert {b[3] for b in BODIES} == {"OK", "FAIL"}
