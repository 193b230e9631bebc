"""Never 13 on input: a ledger line whose field is of another type than `share/events.yaml`
declares is a malformed line. Every reader withholds it, and the judges name it (10).

Each setup is what a worker's script does: rewrite one field of one line, then re-chain every
line after it and the tip, as a forger who knows the chain would. The hash chain then holds,
so only the shape of the field tells. A repository is made once and copied for each case.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import make_env
from conftest import make_repo

STATE = ".ai/local/state"
NOTE = "# Objective\nType the ledger.\n# Current State\nTyped.\n# Next Action\nJudge the types.\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("ledger-types")
    repo = make_repo(base / "repo", base / "home")
    assert repo.mj("init").code == 0
    repo.commit("adopt majordomus")
    assert repo.mj("start", "type the ledger", "--scope", "lib", "--owner", "o").code == 0
    assert repo.mj("question", "add", "which port?").code == 0
    assert repo.mj("decision", "add", "use the cache", "--why", "it is faster").code == 0
    assert repo.mj("checkpoint", stdin="Half way.\n").code == 0
    return base


@pytest.fixture
def repo(template: Path, tmp_path: Path) -> Repo:
    shutil.copytree(template, tmp_path / "copy", symlinks=True)
    return Repo(tmp_path / "copy" / "repo", make_env(tmp_path / "copy" / "home"))


def forge(repo: Repo, event: str, key: str, value: object) -> int:
    """Set `key` of the newest `event` line to `value`, re-chain, rewrite the tip; its number."""
    ledger = repo.root / STATE / "ledger.jsonl"
    lines = [json.loads(raw) for raw in ledger.read_bytes().splitlines()]
    index = max(i for i, line in enumerate(lines) if line["event"] == event)
    lines[index][key] = value
    out, prev = [], "0" * 64
    for line in lines:
        line["prev"] = prev
        raw = json.dumps(line, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(raw)
        prev = hashlib.blake2b(raw, digest_size=32).hexdigest()
    data = b"\n".join(out) + b"\n"
    ledger.write_bytes(data)
    tip = {"size": len(data), "last": prev}
    (repo.root / STATE / "ledger.tip").write_text(json.dumps(tip) + "\n")
    return index + 1


SETUPS = {
    "a number in the scope": ("task.started", "scope", ["lib", 1]),
    "a mapping in the scope": ("task.started", "scope", [{"path": "lib"}]),
    "the scope a string": ("task.started", "scope", "lib"),
    "the task text a list": ("task.started", "task", ["type", "it"]),
    "the task id a number": ("task.started", "task_id", 7),
    "the question an object": ("question.opened", "question", {"q": 1}),
    "the decision a number": ("decision.recorded", "decision", 3),
    "the checkpoint path a list": ("task.checkpoint", "checkpoint_path", ["a"]),
    "the head null": ("task.checkpoint", "head", None),
}
JUDGES = (
    ("check",),
    ("finish", "--check"),
    ("finish", "--outcome", "completed", "--note", "-"),
    ("history", "--validate"),
    ("doctor",),
)
READERS = (
    ("watch",),
    ("history",),
    ("context",),
    ("question", "list"),
    ("decision", "list"),
    ("handover", "--derive"),
    ("start", "again", "--scope", "lib"),
)


@pytest.mark.parametrize("setup", list(SETUPS))
def test_a_mistyped_field_is_a_malformed_line_named_never_a_crash(repo: Repo, setup: str) -> None:
    number = forge(repo, *SETUPS[setup])
    event, key, _ = SETUPS[setup]
    named = f".ai/local/state/ledger.jsonl:{number} — {event}: {key!r} is"
    for argv in JUDGES:
        result = repo.mj(*argv, stdin=NOTE if "--note" in argv else "")
        assert result.code == 10, (argv, result)
        assert named in result.out, (argv, result)
        assert "internal error" not in result.err and "Traceback" not in result.err, result
    for argv in READERS:
        result = repo.mj(*argv)
        assert result.code not in (13, 1), (argv, result)
        assert "internal error" not in result.err and "Traceback" not in result.err, result


def test_the_reader_is_cheap_enough_to_check_every_line_the_writers_write(repo: Repo) -> None:
    """Every line the tool itself wrote reads back as declared: nothing is withheld."""
    result = repo.mj("history", "--validate")
    assert result.code == 0 and "each an object with ts and event" in result.out, result
