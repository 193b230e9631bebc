"""doctor's judge over facts: hand-written facts files (`tests/facts/*.jsonl`) for what no real
repository produces easily, each with its exact findings and exit code; and the judge run on a
saved facts file, with the repository gone and cwd outside any repository, says the same.

A case file holds only the facts it changes: each of its records is merged, key by key, into
the fact of the same name gathered from a clean repository (`base`), whose judgement is clean.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mj_core import timing
from mj_core.stream import protocol as streams
from mj_policy.layer import init_write
from mj_policy.projection import stamps
from mj_watch import cli
from mj_watch.doctor import facts as doctorfacts

Record = dict[str, Any]
FACTS = Path(__file__).parent / "facts"
BIN = Path(sys.executable).parent
ENV = {
    **os.environ,
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}
HOOKS = {
    "pre-commit": "majordomus doctor || exit $?",
    "pre-push": "majordomus finish --check || exit $?",
}


def _repository(root: Path) -> Path:
    """A layer as `init` + `update` leave it, with the hooks `init` prints installed."""
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=ENV, check=True)
    list(init_write.create(root, extend=False))
    stream = b""
    for stage in ("update-facts", "update-judge", "update-write"):  # `update`, without its log
        tool = [str(BIN / "mj-policy"), stage]
        ran = subprocess.run(tool, cwd=root, env=ENV, input=stream, check=True, capture_output=True)
        stream = ran.stdout
    for name, line in HOOKS.items():
        hook = root / ".git" / "hooks" / name
        hook.write_text(f"#!/bin/sh\n{line}\n")
        hook.chmod(0o755)
    return root


@pytest.fixture(autouse=True)
def _fresh_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge's own wall time is the test process's: held at zero (the budget WARN is
    `test_selftime`'s business)."""
    monkeypatch.setattr(timing, "elapsed_ms", lambda: 0.0)


def merged(base: Any, change: Any) -> Any:
    """`change` laid over `base`: mappings merged key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(change, dict):
        return {**base, **{k: merged(base.get(k), v) for k, v in change.items()}}
    return change


def overlaid(records: list[Record], changes: list[Record]) -> list[Record]:
    by_name = {str(r.get("fact")): i for i, r in enumerate(records) if r.get("kind") == "fact"}
    out = list(records)
    for change in changes:
        index = by_name[str(change["fact"])]  # a case changes a fact the stage gathers
        out[index] = merged(out[index], change)
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    root = _repository(tmp_path_factory.mktemp("repo"))
    gathered = list(doctorfacts.gather(root))
    steady = [  # what differs from machine to machine is fixed by hand
        {"kind": "fact", "fact": "hooks", "which": {"majordomus": True}},
        {"kind": "fact", "fact": "env", "python": "3.11.0", "git": "2.39.5", "tools": {}},
    ]
    return json.loads(json.dumps(overlaid(gathered, steady)))


def judge(records: list[Record], tmp_path: Path) -> tuple[list[tuple[Any, ...]], int]:
    """`mj-watch doctor FILE` on the records saved as a facts file: (findings not OK, code)."""
    saved = tmp_path / "facts.jsonl"
    ended = [*records, streams.summary("mj-watch facts", 0, {})]
    saved.write_text("".join(json.dumps(r) + "\n" for r in ended), encoding="utf-8")
    out = io.BytesIO()
    code = cli.main(["doctor", str(saved)], stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    found = [
        (r["level"], r["category"], r["subject"], r["message"], r.get("reproduce"))
        for r in lines
        if r["kind"] == "finding" and r["level"] not in ("OK", "INFO")
    ]
    return found, code


UNPINNED = (
    "WARN",
    "policy",
    ".ai/repo/policy.yaml",
    "verification.commands pins no command: any --verify-command satisfies "
    "verification_ran, even `true` — pin the project's test command",
    "grep -nF -e commands: .ai/repo/policy.yaml || echo 'no '\"'\"'commands:'\"'\"' line'",
)


def test_the_gathered_facts_of_a_clean_layer_judge_clean(
    base: list[Record], tmp_path: Path
) -> None:
    assert judge(base, tmp_path) == ([UNPINNED], 0)


CASES = {
    "unprovable-hook": (
        [
            (
                "FAIL",
                "wiring",
                "doctor-on-commit",
                '.git/hooks/pre-commit:2 unproven: `if [ -n "$MJ" ]; then majordomus doctor; fi` '
                "has a path that skips the call; `majordomus doctor --prove` runs the hook to "
                "show what it does",
                "sed -n 2p .git/hooks/pre-commit",
            )
        ],
        10,
    ),
    "hand-edited-projection": (
        [
            (
                "FAIL",
                "projection",
                "AGENTS.md",
                "edited by hand: content {actual}, stamp says 0000000000000000",
                "majordomus update --diff AGENTS.md",
            )
        ],
        10,
    ),
    "tracked-state": (
        [
            (
                "FAIL",
                "layer",
                ".ai/local/",
                "2 tracked file(s), e.g. .ai/local/state/ledger.jsonl — this checkout's own "
                "state never travels: `git rm --cached -r .ai/local`",
                "git ls-files -- .ai/local",
            )
        ],
        10,
    ),
    "linked-state": (
        [
            (
                "FAIL",
                "layer",
                ".ai/local/state/handovers",
                "is a symbolic link — state never leaves .ai/, so every write through it is "
                "refused (15); replace it with a real directory",
                "ls -ld .ai/local/state/handovers",
            ),
            (
                "FAIL",
                "layer",
                ".ai/local/state/ledger.jsonl",
                "is a directory where a file is expected — every write there is refused",
                "ls -ld .ai/local/state/ledger.jsonl",
            ),
        ],
        10,
    ),
    "refused-target": (
        [
            (
                "FAIL",
                "projection",
                "GEMINI.md",
                "cannot be written: GEMINI.md is a symbolic link leading out of the repository",
                "ls -ld GEMINI.md; realpath -m GEMINI.md",
            )
        ],
        10,
    ),
    "unresolved-path": (
        [
            (
                "FAIL",
                "wiring",
                name,
                "path majordomus does not resolve",
                "command -v majordomus",
            )
            for name in ("doctor-on-commit", "finish-on-push")
        ],
        10,
    ),
}


def _case(name: str) -> list[Record]:
    text = (FACTS / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hand_written_case_has_its_exact_findings(
    base: list[Record], tmp_path: Path, name: str
) -> None:
    expected, code = CASES[name]
    if name == "hand-edited-projection":
        covered = "# AGENTS.md\n\nEdited by hand.\n"
        expected = [
            (*e[:3], e[3].format(actual=stamps.content_hash(covered)), e[4]) for e in expected
        ]
    # doctor's order: the layer's findings come before the policy's (the one WARN of the base)
    want = [*expected, UNPINNED] if expected[0][1] == "layer" else [UNPINNED, *expected]
    assert judge(overlaid(base, _case(name)), tmp_path) == (want, code)


def test_every_case_file_is_a_case() -> None:
    assert sorted(p.stem for p in FACTS.glob("*.jsonl")) == sorted(CASES)


def test_the_judge_reads_the_facts_file_alone(tmp_path: Path) -> None:
    """Facts saved by the facts stage; the judge run in the repository, then with the
    repository deleted and cwd an empty directory outside any repository: the same output."""
    (tmp_path / "repo").mkdir()
    root = _repository(tmp_path / "repo")
    saved = tmp_path / "facts.jsonl"
    layer = [str(BIN / "mj-policy"), "facts"]
    found = subprocess.run(layer, cwd=root, env=ENV, check=True, capture_output=True).stdout
    with saved.open("wb") as out:
        facts = [str(BIN / "mj-watch"), "facts", "--for", "doctor"]
        subprocess.run(facts, cwd=root, env=ENV, check=True, stdout=out, input=found)
    doctor = [str(BIN / "mj-watch"), "doctor", str(saved)]
    here = subprocess.run(doctor, cwd=root, env=ENV, capture_output=True, check=False)
    shutil.rmtree(root)
    empty = tmp_path / "empty"
    empty.mkdir()
    alone = subprocess.run(doctor, cwd=empty, env=ENV, capture_output=True, check=False)
    assert (alone.returncode, alone.stdout, alone.stderr) == (here.returncode, here.stdout, b"")
    assert b'"subject":"doctor-on-commit"' in here.stdout and here.returncode in (0, 10)
