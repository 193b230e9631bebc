"""Hostile input never breaks the tool: every parser × every kind of damaged file.

Each parser of a file a person or a worker writes is reached through the real command that
reads it (`doctor` for the layer's YAML, `check` for the task record and the questions,
`context` for records and context documents, `prompt` for prompt assets, `decision list` for
the decision log, `history --validate` for the ledger). Each file in turn is replaced by one
of nine damaged forms: empty, binary, not UTF-8, 10 MB, 1,000 levels of nesting, a huge
integer, truncated, the wrong type, an unknown key. The command must answer with a contract
code — never 13 — and at most one line on stderr, never a traceback. A repository is made
once and copied for each case, so the matrix stays fast under `-n auto`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Repo
from conftest import make_env
from conftest import make_repo
from conftest import wire

TEN_MB = 10 * 1024 * 1024
KINDS = (
    "empty",
    "binary",
    "not utf-8",
    "10 MB",
    "1000 levels",
    "huge integer",
    "truncated",
    "wrong type",
    "unknown key",
)


def _nested_yaml(depth: int) -> str:
    return "".join(" " * i + "k:\n" for i in range(depth)) + " " * depth + "k: 1\n"


def damaged_yaml(kind: str, original: str) -> bytes:
    if kind == "empty":
        return b""
    if kind == "binary":
        return bytes(range(256)) * 8
    if kind == "not utf-8":
        return original.encode() + b"note: caf\xe9\n"
    if kind == "10 MB":
        return b"# padding\n" * (TEN_MB // 10 + 1)
    if kind == "1000 levels":
        return _nested_yaml(1000).encode()
    if kind == "huge integer":
        return ("version: " + "7" * 5000 + "\n").encode()
    if kind == "truncated":
        return original.encode()[: len(original) // 2]
    if kind == "wrong type":
        return b"- a\n- b\n"
    assert kind == "unknown key"
    return (original + "bogus_key: 1\n").encode()


def damaged_front_matter(kind: str, original: str) -> bytes:
    """A Markdown file with YAML front matter, damaged in the front matter or as a whole."""
    _, front, body = original.split("---\n", 2)
    inside = {
        "1000 levels": _nested_yaml(1000),
        "huge integer": front + "schema_version: " + "7" * 5000 + "\n",
        "wrong type": "- a\n- b\n",
        "unknown key": front + "bogus_key: 1\n",
    }
    if kind in inside:
        return f"---\n{inside[kind]}---\n{body}".encode()
    if kind == "10 MB":
        return f"---\n{front}---\n".encode() + b"x" * TEN_MB + b"\n"
    return damaged_yaml(kind, original)


def damaged_log(kind: str, original: str) -> bytes:
    """A Markdown log (questions, decisions): damage that a line-oriented reader meets."""
    if kind == "1000 levels":
        return (original + "- [" * 1000 + "\n").encode()
    if kind == "huge integer":
        return (original + "## " + "7" * 5000 + " — x\n").encode()
    if kind == "wrong type":
        return b"- [unresolved] not-a-task-id \xe2\x80\x94 x (yesterday)\n"
    if kind == "unknown key":
        return (original + "Bogus: 1\n").encode()
    if kind == "10 MB":
        return original.encode() + b"x" * TEN_MB
    return damaged_yaml(kind, original)


def damaged_ledger(kind: str, original: str) -> bytes:
    lines = {
        "1000 levels": "[" * 1000 + "]" * 1000,
        "huge integer": '{"ts":' + "7" * 5000 + ',"event":"task.started"}',
        "wrong type": "[1, 2]",
        "unknown key": '{"ts":"2026-01-01T00:00:00Z","event":"bogus.event","bogus":1}',
        "10 MB": '{"ts":"' + "x" * TEN_MB + '"}',
    }
    if kind in lines:
        return (original + lines[kind] + "\n").encode()
    return damaged_yaml(kind, original)


# name: (file, how it is damaged, the command that parses it, the codes it may answer)
PARSERS: dict[str, tuple[str, Callable[[str, str], bytes], tuple[str, ...], set[int]]] = {
    "manifest": (".ai/manifest.yaml", damaged_yaml, ("doctor",), {10, 12}),
    "policy": (".ai/repo/policy.yaml", damaged_yaml, ("doctor",), {10, 12}),
    "profile": (".ai/repo/profiles/implementation.yaml", damaged_yaml, ("doctor",), {10}),
    "vendored manifest": (
        ".ai/repo/rules/vendor/majordomus/manifest.yaml",
        damaged_yaml,
        ("doctor",),
        {10},
    ),
    "task record": (".ai/local/state/current.yaml", damaged_yaml, ("check",), {10, 12}),
    "questions": (".ai/local/state/open-questions.md", damaged_log, ("check",), {0, 10}),
    "checkpoint": ("checkpoint", damaged_front_matter, ("context",), {0, 10}),
    "handover": ("handover", damaged_front_matter, ("handover", "--resolve"), {0, 10, 12}),
    "context document": (".ai/README.md", damaged_front_matter, ("context",), {0, 10}),
    "prompt asset": (
        ".ai/repo/prompts/debug.md",
        damaged_front_matter,
        ("prompt", "show", "debug"),
        {0, 10, 12},  # a truncated body is still a prompt
    ),
    "decision log": (".ai/local/state/decisions.md", damaged_log, ("decision", "list"), {0, 10}),
    "ledger": (".ai/local/state/ledger.jsonl", damaged_ledger, ("history", "--validate"), {0, 10}),
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository that adopted the layer fully (doctor passes), committed."""
    base = tmp_path_factory.mktemp("hostile")
    repo = make_repo(base / "repo", base / "home")
    assert repo.mj("init").code == 0
    wire(repo)
    assert repo.mj("update").code == 0
    readme = repo.root / "README.md"
    readme.write_text(readme.read_text() + "\nAI workers: read AGENTS.md.\n")
    repo.commit("adopt majordomus")
    assert repo.mj("doctor").code == 0
    return repo.root


def copy(template: Path, tmp_path: Path) -> Repo:
    root = tmp_path / "repo"
    shutil.copytree(template, root, symlinks=True)
    return Repo(root, make_env(tmp_path / "home"))


def prepare(repo: Repo, target: str) -> Path:
    """Write the state the parser reads; the path of the file to damage."""
    started = repo.mj("start", "harden the readers", "--scope", "lib", "--owner", "o")
    assert started.code == 0, started
    assert repo.mj("question", "add", "is the cap right?").code == 0
    assert repo.mj("decision", "add", "cap every file", "--why", "hostile input").code == 0
    if target in ("checkpoint", "handover"):
        body = "# Objective\ncap reads\n# Current State\nhalf done\n# Next Action\nrun it\n"
        argv = ("checkpoint",) if target == "checkpoint" else ("handover",)
        written = repo.mj(*argv, stdin=body)
        assert written.code == 0, written
        return repo.root / written.out.strip().splitlines()[-1].split()[-1]
    return repo.root / target


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("parser", list(PARSERS))
def test_damaged_file_gets_a_contract_code_and_one_line(
    template: Path, tmp_path: Path, parser: str, kind: str
) -> None:
    target, damage, command, codes = PARSERS[parser]
    repo = copy(template, tmp_path)
    path = prepare(repo, target)
    original = path.read_text(encoding="utf-8")
    path.write_bytes(damage(kind, original))
    result = repo.mj(*command)
    assert result.code != 13, result
    assert "Traceback" not in result.err + result.out, result
    assert len(result.err.splitlines()) <= 1, result
    assert result.code in codes, result
    if result.err:
        assert result.err.endswith("\n") and len(result.err) < 2000, result
    failed = [line for line in result.out.splitlines() if line.startswith("FAIL")]
    if result.code != 0 and not failed:
        assert len(result.err.splitlines()) == 1, result  # a refusal is one line on stderr
    if result.code != 0:
        assert path.name in result.err + "\n".join(failed), result  # naming the file


CRAFTED = {
    "scope of numbers": b"outcome: active\nscope:\n  - 1\n  - 2\nhead: 7\n",
    "scope a mapping": b"outcome: active\nscope:\n  lib: 1\n",
}


@pytest.mark.parametrize("kind", ["1000 levels", "huge integer", "binary", "10 MB", *CRAFTED])
def test_a_damaged_record_in_another_worktree_is_reported_not_fatal(
    template: Path, tmp_path: Path, kind: str
) -> None:
    repo = copy(template, tmp_path)
    other = tmp_path / "other"
    repo.git("worktree", "add", "-q", "-b", "other", str(other))
    state = other / ".ai/local/state"
    state.mkdir(parents=True, exist_ok=True)
    text = CRAFTED.get(kind) or damaged_yaml(kind, "outcome: active\n")
    (state / "current.yaml").write_bytes(text)
    assert repo.mj("start", "mine", "--scope", "lib", "--owner", "o").code == 0
    result = repo.mj("check", "--overlap")
    assert result.code in (0, 10), result
    assert "Traceback" not in result.err and len(result.err.splitlines()) <= 1, result
    assert "task record unreadable" in result.out, result


@pytest.mark.parametrize(
    "argv",
    [
        ("start", "a" + os.fsdecode(b"\x9b") + "b", "--scope", "lib"),
        ("start", "harden", "--scope", "lib", "--owner", os.fsdecode(b"o\xff")),
        ("decision", "add", os.fsdecode(b"cap \x9b it"), "--why", "hostile input"),
        ("question", "add", os.fsdecode(b"is \x85 ok?")),
    ],
    ids=["task", "owner", "decision", "question"],
)
def test_text_that_is_not_utf8_is_refused_before_anything_is_stored(
    template: Path, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    """A byte that is not UTF-8 would be kept one way in the ledger and another in the
    Markdown record or current.yaml, and the two would never agree again: 2, nothing written."""
    repo = copy(template, tmp_path)
    if argv[0] != "start":
        assert repo.mj("start", "harden the readers", "--scope", "lib").code == 0
    state = repo.root / ".ai" / "local" / "state"
    before = {p.name: p.read_bytes() for p in state.iterdir() if p.is_file()}
    result = repo.mj(*argv)
    assert result.code == 2, result
    assert "is not UTF-8 text (byte 0x" in result.err and len(result.err.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in state.iterdir() if p.is_file()} == before
    assert repo.mj("check").code == (12 if argv[0] == "start" else 0)  # no task, or one intact
