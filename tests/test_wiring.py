"""The wiring half of `doctor` with real git: hooks installed as `init` prints them, commits
made through them, and every way a declared enforcement can fail to run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HOOK_LINE
from conftest import Repo
from conftest import bin_dir
from conftest import exe
from conftest import failures


def install(repo: Repo, hook: str, text: str, mode: int = 0o755) -> Path:
    path = repo.root / hook
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def hook_lines(repo: Repo) -> list[tuple[str, str]]:
    return HOOK_LINE.findall(repo.mj("init", "--extend").out)


def wire(repo: Repo) -> None:
    for hook, line in hook_lines(repo):
        install(repo, hook, f"#!/bin/sh\n{line}\n")


@pytest.fixture
def adopted(layer_repo: Repo) -> Repo:
    layer_repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("provider files")
    return layer_repo


def commit(repo: Repo, message: str) -> subprocess.CompletedProcess[str]:
    """A real `git commit` that runs the hooks (no --no-verify)."""
    repo.git("add", "-A")
    return subprocess.run(
        ["git", "commit", "-q", "--no-gpg-sign", "-m", message],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
    )


def last_message(repo: Repo) -> str:
    return repo.git("log", "-1", "--format=%s").strip()


def hand_edit_claude(repo: Repo) -> None:
    path = repo.root / "CLAUDE.md"
    path.write_text(
        path.read_text().replace("<!-- majordomus:end -->", "Use tabs.\n<!-- majordomus:end -->")
    )


def edit_policy(repo: Repo, old: str, new: str) -> None:
    path = repo.root / ".ai/repo/policy.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_printed_hook_lines_gate_commits_end_to_end(adopted: Repo) -> None:
    lines = hook_lines(adopted)
    assert lines == [  # the majordomus `init` ran as, named on the line
        (".git/hooks/pre-commit", f"{exe('majordomus')} doctor --brief || exit $?"),
        (".git/hooks/pre-push", f"{exe('majordomus')} finish --check || exit $?"),
    ]
    wire(adopted)
    assert adopted.mj("doctor").code == 0
    adopted.write("notes.txt", "one\n")
    assert commit(adopted, "through the hook").returncode == 0
    assert last_message(adopted) == "through the hook"
    hand_edit_claude(adopted)
    assert adopted.mj("doctor").code == 10
    blocked = commit(adopted, "hand edit")
    assert blocked.returncode != 0 and "FAIL projection  CLAUDE.md" in blocked.stderr
    assert last_message(adopted) == "through the hook"
    assert adopted.mj("update", "--force").code == 0
    adopted.write("notes.txt", "two\n")
    assert commit(adopted, "regenerated").returncode == 0
    assert last_message(adopted) == "regenerated"


def test_a_hook_that_swallows_the_exit_is_a_failure(adopted: Repo) -> None:
    wire(adopted)
    hook = adopted.root / ".git/hooks/pre-commit"
    hook.write_text(hook.read_text().replace(" || exit $?", " || true"))
    hand_edit_claude(adopted)
    assert commit(adopted, "slips through").returncode == 0  # the harm the check prevents
    result = adopted.mj("doctor")
    assert result.code == 10
    found = {(f[0], f[1]): f for f in failures(result.out)}
    _, _, message, reproduce = found[("wiring", "doctor-on-commit")]
    assert "swallows the exit code" in message and "|| true" in message
    assert "majordomus doctor --brief || true" in adopted.shell(reproduce).out
    assert ("hooks", ".git/hooks/pre-commit") in found


@pytest.mark.parametrize(
    ("name", "tail"),
    [("exit 0", " || exit 0"), ("colon", " || :"), ("true after", "; true")],
)
def test_every_swallow_form_fails(adopted: Repo, name: str, tail: str) -> None:
    wire(adopted)
    install(adopted, ".git/hooks/pre-commit", f"#!/bin/sh\nmajordomus doctor{tail}\n")
    result = adopted.mj("doctor")
    assert result.code == 10, name
    [(_, _, message, reproduce)] = [f for f in failures(result.out) if f[0] == "wiring"]
    assert tail.strip() in message and tail.strip() in adopted.shell(reproduce).out


def test_set_plus_e_around_the_call_fails(adopted: Repo) -> None:
    wire(adopted)
    install(adopted, ".git/hooks/pre-commit", "#!/bin/sh\nset +e\nmajordomus doctor\necho done\n")
    result = adopted.mj("doctor")
    assert result.code == 10
    [(_, _, message, _)] = [f for f in failures(result.out) if f[0] == "wiring"]
    assert "set +e" in message


def test_missing_not_executable_and_call_less_hooks(adopted: Repo) -> None:
    wire(adopted)
    (adopted.root / ".git/hooks/pre-push").unlink()
    result = adopted.mj("doctor")
    [(_, subject, message, reproduce)] = failures(result.out)
    assert result.code == 10 and subject == "finish-on-push" and "does not exist" in message
    assert "No such file" in adopted.shell(reproduce).err
    install(
        adopted, ".git/hooks/pre-push", "#!/bin/sh\nmajordomus finish --check || exit $?\n", 0o644
    )
    [(_, _, message, reproduce)] = failures(adopted.mj("doctor").out)
    assert "not executable" in message and adopted.shell(reproduce).out.startswith("-rw-")
    install(adopted, ".git/hooks/pre-push", "#!/bin/sh\necho nothing here\n")
    [(_, _, message, reproduce)] = failures(adopted.mj("doctor").out)
    shown = adopted.shell(reproduce)
    assert "does not invoke" in message and shown.code == 1 and shown.out == ""


def test_sub_hooks_are_searched_and_named(adopted: Repo) -> None:
    wire(adopted)
    dispatcher = '#!/bin/sh\nfor h in "$0".d/*; do [ -x "$h" ] && { "$h" || exit $?; }; done\n'
    install(adopted, ".git/hooks/pre-commit", dispatcher)
    sub = install(
        adopted, ".git/hooks/pre-commit.d/50-majordomus", "#!/bin/sh\nmajordomus doctor\n", 0o644
    )
    result = adopted.mj("doctor")
    [(_, _, message, reproduce)] = failures(result.out)
    assert result.code == 10 and ".git/hooks/pre-commit.d/50-majordomus" in message
    assert "not executable" in message and adopted.shell(reproduce).out.startswith("-rw-")
    sub.chmod(0o755)
    result = adopted.mj("doctor")
    assert result.code == 0 and "pre-commit.d/50-majordomus:2" in result.out
    hand_edit_claude(adopted)
    assert commit(adopted, "through the sub-hook").returncode != 0


def test_core_hooks_path_and_linked_worktrees(adopted: Repo, tmp_path: Path) -> None:
    adopted.git("config", "core.hooksPath", "githooks")
    for hook, line in hook_lines(adopted):
        install(adopted, "githooks/" + Path(hook).name, f"#!/bin/sh\n{line}\n")
    result = adopted.mj("doctor")
    assert result.code == 0 and "githooks/pre-commit:2" in result.out
    adopted.git("config", "--unset", "core.hooksPath")
    wire(adopted)
    other = tmp_path / "linked"
    adopted.git("worktree", "add", "-q", str(other), "-b", "side")
    linked = Repo(other, adopted.env)
    assert linked.mj("update").code == 0  # provider files are tracked; the region is identical
    result = linked.mj("doctor")
    assert result.code == 0, result
    assert ".git/hooks/pre-commit" in result.out


def test_path_must_resolve(adopted: Repo) -> None:
    wire(adopted)
    edit_policy(adopted, "path: majordomus                     #", "path: tools/majordomus  #")
    result = adopted.mj("doctor")
    [(_, subject, message, reproduce)] = failures(result.out)
    assert result.code == 10 and subject == "doctor-on-commit" and "does not resolve" in message
    assert adopted.shell(reproduce).code != 0


def test_manual_is_unverified_and_ci_must_contain_the_call(adopted: Repo) -> None:
    wire(adopted)
    edit_policy(adopted, "wired_by: git-hook:pre-push", "wired_by: manual")
    result = adopted.mj("doctor")
    assert result.code == 0 and re.search(
        r"^INFO wiring\s+finish-on-push — .*unverified", result.out, re.M
    )
    edit_policy(adopted, "wired_by: manual", "wired_by: ci:.ci/run")
    adopted.write(".ci/run", "#!/bin/sh\npytest\n")
    result = adopted.mj("doctor")
    [(_, _, message, reproduce)] = failures(result.out)
    assert result.code == 10 and "does not invoke" in message
    assert adopted.shell(reproduce).code == 1
    adopted.write(".ci/run", "#!/bin/sh\nmajordomus finish --check\npytest\n")
    assert adopted.mj("doctor").code == 0


TOOLCHAINS = [  # (file, a text that runs it, one that loses its failure, one not provable)
    (
        "Makefile",
        "check:\n\tmajordomus finish --check\n",
        "check:\n\t-majordomus finish --check\n",
        "check:\n\tmajordomus finish --check $(MORE)\n",
    ),
    (
        "justfile",
        "check:\n    majordomus finish --check\n",
        "check:\n    majordomus finish --check || true\n",
        "check:\n    majordomus finish --check {{more}}\n",
    ),
    (
        "package.json",
        '{"scripts": {"check": "majordomus finish --check && echo ok"}}\n',
        '{"scripts": {"check": "majordomus finish --check; echo ok"}}\n',
        '{"scripts": {"check": "test -d x && majordomus finish --check"}}\n',
    ),
    (
        "tox.ini",
        "[tox]\nenv_list = gate\n[testenv:gate]\ncommands = majordomus finish --check\n",
        "[tox]\nenv_list = gate\n[testenv:gate]\ncommands = - majordomus finish --check\n",
        "[tox]\nenv_list = gate\n[testenv:gate]\ncommands = majordomus finish --check {posargs}\n",
    ),
]


@pytest.mark.parametrize(
    ("name", "runs", "loses", "unproven"), TOOLCHAINS, ids=[t[0] for t in TOOLCHAINS]
)
def test_a_toolchain_file_wires_what_it_runs(
    adopted: Repo, name: str, runs: str, loses: str, unproven: str
) -> None:
    """`wired_by: toolchain:<file>`: OK naming the line when the file runs the command and its
    failure fails the step; FAIL when it loses the failure, and FAIL unproven for what its
    plain lines do not settle — each with a reproduce command that shows the line."""
    wire(adopted)
    edit_policy(adopted, "wired_by: git-hook:pre-push", f"wired_by: toolchain:{name}")
    missing = adopted.mj("doctor")
    [(_, subject, message, reproduce)] = failures(missing.out)
    assert missing.code == 10 and subject == "finish-on-push" and "does not exist" in message
    adopted.write(name, runs)
    result = adopted.mj("doctor")
    assert result.code == 0, result.out
    assert re.search(rf"^OK\s+wiring\s+finish-on-push — .*runs from {re.escape(name)}:", result.out,
                     re.M), result.out  # fmt: skip
    for text, said in ((loses, "loses the failure"), (unproven, "unproven")):
        adopted.write(name, text)
        result = adopted.mj("doctor")
        [(_, subject, message, reproduce)] = failures(result.out)
        assert result.code == 10 and subject == "finish-on-push" and said in message, result.out
        assert "majordomus finish --check" in adopted.shell(reproduce).out, reproduce


def test_an_undeclared_hook_that_swallows_fails(adopted: Repo) -> None:
    wire(adopted)
    install(adopted, ".git/hooks/post-merge", "#!/bin/sh\nmajordomus check || true\n")
    result = adopted.mj("doctor")
    [(category, subject, _, reproduce)] = failures(result.out)
    assert result.code == 10 and (category, subject) == ("hooks", ".git/hooks/post-merge")
    assert "majordomus check || true" in adopted.shell(reproduce).out


def test_retention_cap(adopted: Repo) -> None:
    wire(adopted)
    edit_policy(adopted, "retention_max_lines: 5000", "retention_max_lines: 1")
    ledger = adopted.root / ".ai/local/state/ledger.jsonl"
    assert ledger.read_text().count("\n") >= 1
    adopted.mj("update", "--force")  # nothing to write: the ledger keeps its line
    edit_policy(adopted, "default: implementation", "default: routine")
    assert adopted.mj("update").code == 0  # a second projections.updated line
    result = adopted.mj("doctor")
    [(category, _, message, reproduce)] = failures(result.out)
    assert result.code == 10 and category == "retention" and "over the cap of 1" in message
    assert int(adopted.shell(reproduce).out.split()[0]) > 1


def _pre_commit() -> str | None:
    for candidate in (bin_dir() / "pre-commit", Path(sys.executable).parent / "pre-commit"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("pre-commit")


PRE_COMMIT_CONFIG = """\
repos:
  - repo: local
    hooks:
      - id: majordomus-doctor
        name: majordomus doctor
        entry: majordomus doctor
        language: system
        pass_filenames: false
        always_run: true
"""


def test_the_pre_commit_framework_end_to_end(adopted: Repo) -> None:
    tool = _pre_commit()
    if tool is None:
        pytest.skip("the pre-commit package is not installed")
    wire(adopted)
    (adopted.root / ".git/hooks/pre-commit").unlink()
    edit_policy(adopted, "wired_by: git-hook:pre-commit", "wired_by: pre-commit:majordomus-doctor")
    adopted.write(".pre-commit-config.yaml", PRE_COMMIT_CONFIG)
    result = adopted.mj("doctor")
    [(_, subject, message, reproduce)] = failures(result.out)
    assert result.code == 10 and subject == "doctor-on-commit" and "not installed" in message
    assert adopted.shell(reproduce).code != 0
    env = dict(adopted.env, PRE_COMMIT_HOME=str(adopted.root.parent / "pre-commit-home"))
    installed = subprocess.run(
        [tool, "install"], cwd=adopted.root, env=env, capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed
    assert adopted.mj("doctor").code == 0
    adopted.env = env
    assert commit(adopted, "through pre-commit").returncode == 0
    hand_edit_claude(adopted)
    blocked = commit(adopted, "hand edit")
    assert blocked.returncode != 0 and "CLAUDE.md" in blocked.stdout + blocked.stderr
    assert last_message(adopted) == "through pre-commit"
    assert adopted.mj("update", "--force").code == 0
    adopted.write("notes.txt", "two\n")
    assert commit(adopted, "regenerated").returncode == 0
    config = adopted.root / ".pre-commit-config.yaml"
    config.write_text(
        PRE_COMMIT_CONFIG.replace("entry: majordomus doctor", "entry: majordomus check")
    )
    [(_, _, message, reproduce)] = failures(adopted.mj("doctor").out)
    assert (
        "not `majordomus doctor`" in message and "majordomus check" in adopted.shell(reproduce).out
    )
    assert os.access(adopted.root / ".git/hooks/pre-commit", os.X_OK)


HOOKS_MANIFEST = Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml"


def test_a_framework_hook_without_stages_runs_at_its_manifests_stage(
    adopted: Repo, tmp_path: Path
) -> None:
    """`majordomus-finish-check` from this repository's manifest (`stages: [pre-push]`),
    configured without `stages:`, is wired by the framework's pre-push hook, not pre-commit."""
    tool = _pre_commit()
    if tool is None:
        pytest.skip("the pre-commit package is not installed")
    offered = Repo(tmp_path / "offered", adopted.env)  # a repository offering the hooks by id
    offered.root.mkdir()
    offered.git("init", "-q", "-b", "main")
    shutil.copy(HOOKS_MANIFEST, offered.root / ".pre-commit-hooks.yaml")
    rev = offered.commit("hooks")
    wire(adopted)
    (adopted.root / ".git/hooks/pre-push").unlink()
    edit_policy(
        adopted, "wired_by: git-hook:pre-push", "wired_by: pre-commit:majordomus-finish-check"
    )
    edit_policy(adopted, "wired_by: git-hook:pre-commit", "wired_by: manual")  # the framework's
    config = f"repos:\n  - repo: {offered.root}\n    rev: {rev}\n    hooks:\n"
    adopted.write(".pre-commit-config.yaml", config + "      - id: majordomus-finish-check\n")
    adopted.commit("the framework runs finish --check")
    adopted.env = dict(adopted.env, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))

    def framework(*args: str) -> None:
        done = subprocess.run(
            [tool, *args], cwd=adopted.root, env=adopted.env, capture_output=True, check=False
        )
        assert done.returncode == 0, done

    framework("install", "--overwrite")  # the pre-commit hook type only
    result = adopted.mj("doctor")
    [(_, subject, message, reproduce)] = failures(result.out)
    assert subject == "finish-on-push" and "pre-push hook is not installed" in message
    assert adopted.shell(reproduce).code != 0
    framework("install", "--hook-type", "pre-push")
    assert adopted.mj("doctor").code == 0
    proven = adopted.mj("doctor", "--prove")
    assert proven.code == 0 and "finish-on-push — `majordomus finish --check` proven" in proven.out
    remote = tmp_path / "remote.git"
    adopted.git("init", "-q", "--bare", str(remote))
    adopted.git("remote", "add", "origin", str(remote))
    adopted.git("push", "-q", "origin", "main")  # inert before the first start
    assert adopted.mj("start", "--json", "fix lib", "--scope", "lib").code == 0
    adopted.write("config/settings.ini", "x\n")
    adopted.commit("outside the claim")
    blocked = adopted.shell("git push origin main")
    assert blocked.code != 0 and "config/settings.ini" in blocked.out + blocked.err, blocked


def _snapshot(repo: Repo) -> tuple[bytes, str, str, str]:
    return (
        (repo.root / ".git/index").read_bytes(),
        repo.git("status", "--porcelain=v1", "--untracked-files=all"),
        repo.git("rev-parse", "HEAD"),
        repo.git("worktree", "list", "--porcelain"),
    )


def test_doctor_prove_runs_the_hooks_and_touches_nothing_of_the_user(adopted: Repo) -> None:
    wire(adopted)
    adopted.write("staged.txt", "staged\n")
    adopted.git("add", "staged.txt")
    readme = (adopted.root / "README.md").read_text()  # its region (update owns it) is kept
    adopted.write("README.md", readme + "An edit, not staged.\n")
    before = _snapshot(adopted)
    result = adopted.mj("doctor", "--prove")
    assert result.code == 0, result
    assert "doctor-on-commit — `majordomus doctor` proven by running .git/hooks/pre-commit" in (
        result.out
    )
    assert _snapshot(adopted) == before
    install(adopted, ".git/hooks/pre-commit", "#!/bin/sh\nmajordomus doctor; exit 0\n")
    static = adopted.mj("doctor")
    assert static.code == 10 and "`majordomus doctor --prove` runs the hook" in static.out
    proven = adopted.mj("doctor", "--prove")
    [(_, subject, message, reproduce)] = [f for f in failures(proven.out) if f[0] == "wiring"]
    assert proven.code == 10 and subject == "doctor-on-commit"
    assert "exited 97, and then exited 0" in message and reproduce == "majordomus doctor --prove"
    assert _snapshot(adopted) == before
    install(adopted, ".git/hooks/pre-commit", "#!/bin/sh\ncd . && majordomus doctor || exit $?\n")
    assert adopted.mj("doctor").code == 10  # statically unproven ...
    proven = adopted.mj("doctor", "--prove")  # ... and wired when run
    assert proven.code == 0 and "WARN wiring      doctor-on-commit — the static proof" in proven.out
