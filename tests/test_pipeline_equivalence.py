"""The composition is real, for every command, writers included.

In two identical copies of a prepared repository, one runs `majordomus <command> --json`, the
other the pipeline `majordomus <command> --json --pipeline` prints, run by `/bin/sh -c` (POSIX
sh, no pipefail): the exit code, the stdout, every file written and every ledger line are the
same, once times, ids, random record names, hashes and the copy's own path are normalised.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import Repo
from conftest import bin_dir

HANDOVER = "# Objective\nCompose.\n# Current State\nHalf.\n# Next Action\nThe rest.\n"
NOTE = "# Next Action\nPick the rest up.\n"
PROMPT = '{"session_id": "ps-1", "hook_event_name": "UserPromptSubmit", "prompt": "compose it"}'

PATTERNS = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "<time>"),
    (re.compile(r"\d{8}T\d{6}Z"), "<stamp>"),
    (re.compile(r"\d{4}-\d\d-\d\d"), "<day>"),
    (re.compile(r"t-\d{14}-[0-9a-f]{4}"), "<task>"),
    (re.compile(r"s-\d{14}-[0-9a-f]{4}"), "<session>"),
    (re.compile(r"--[0-9a-f]{16}\.md"), "--<name>.md"),
    (re.compile(r"[0-9a-f]{64}"), "<hash>"),
    (re.compile(r"\b\d+[smhd] ago"), "<age> ago"),
    (re.compile(r'"(size|pending_size)":\d+'), r'"\1":<n>'),
    (re.compile(r'"seconds":[0-9.]+'), '"seconds":<s>'),
    (re.compile(r"\d+\.\d+s\b"), "<s>s"),
]

# (command arguments, stdin): each runs after `prepared`, in a fresh pair of copies
CASES: list[tuple[tuple[str, ...], str | None]] = [
    (("start", "another", "--scope", "docs"), None),
    (("check",), None),
    (("check", "--explain"), None),
    (("check", "--overlap"), None),
    (("check", "--rule", "majordomus.scope-integrity"), None),
    (("check", "--checkpoint"), None),
    (("finish", "--check"), None),
    (("finish", "--outcome", "partial", "--note", "-"), NOTE),
    (("finish", "--outcome", "completed", "--verify-command", "true"), None),
    (("checkpoint",), "a progress note\n"),
    (("checkpoint", "--list"), None),
    (("checkpoint", "--show"), None),
    (("checkpoint", "--prune"), None),
    (("checkpoint", "--prune", "--dry-run"), None),
    (("handover",), HANDOVER),
    (("handover", "--close"), HANDOVER),
    (("handover", "--resolve"), None),
    (("handover", "--prune"), None),
    (("decision", "add", "use tabs", "--why", "taste"), None),
    (("decision", "add", "tabs", "--why", "t", "--supersedes", "spaces", "--rejected", "r"), None),
    (("decision", "add", "a key", "--why", "AKIA" + "Q7" * 8), None),
    (("decision", "add", "a key", "--why", "AKIA" + "Q7" * 8, "--redact"), None),
    (("decision", "add", "tabs", "--why", "t", "--supersedes", "nothing recorded"), None),
    (("decision", "list"), None),
    (("decision", "show", "spaces"), None),
    (("question", "add", "why not?"), None),
    (("question", "add", "which key AKIA" + "Q7" * 8, "--redact"), None),
    (("question", "add", "this — that"), None),
    (("question", "resolve", "1", "--answer", "because"), None),
    (("question", "resolve", "which", "--answer", "AKIA" + "Q7" * 8, "--redact"), None),
    (("question", "resolve", "2", "--answer", "no such question"), None),
    (("question", "list", "--all"), None),
    (("history",), None),
    (("history", "--validate"), None),
    (("history", "--rotate"), None),
    (("context",), None),
    (("context", "--budget-lines", "30"), None),
    (("context", "validate"), None),
    (("context", "affected", "--staged"), None),
    (("context", "check-sync"), None),
    (("archive", "--list"), None),
    (("context", "list"), None),
    (("context", "resolve", "lib"), None),
    (("context", "explain", "lib/a"), None),
    (("prompt", "list"), None),
    (("search", "keep"), None),
    (("search", "COMPOSE", "--kind", "ledger", "--kind", "handover", "--limit", "1"), None),
    (("search", "no such text"), None),
    (("mcp", "install", "--provider", "codex"), None),
    (("mcp", "install", "--provider", "claude-code", "--write"), None),
    (("prompt", "render", "resume"), None),
    (("rules",), None),
    (("receipt", "--for", "claude-code", "--path", "lib/a"), None),
    (("doctrine",), None),
    (("doctrine", "list"), None),
    (("doctrine", "show", "majordomus.context-budget"), None),
    (("ratchet", "check"), None),
    (("ratchet", "update"), None),
    (("rules", "show", "majordomus.enforcement-wiring"), None),
    (("rules", "vendor", "status"), None),
    (("rules", "vendor", "diff"), None),
    (("rules", "vendor", "update"), None),
    (("update",), None),
    (("update", "--check"), None),
    (("update", "--dry-run"), None),
    (("doctor",), None),
    (("watch",), None),
    (("session", "start"), None),
    (("session", "start", "--provider", "claude-code", "--provider-session", "p-1"), None),
    (("session", "status"), None),
    (("session", "close"), None),
    (("session", "close", "--if-none", "ignore"), None),
    (("session", "list"), None),
    (("session", "archive", "--dry-run"), None),
    (("session", "archive"), None),
    (("session", "latest"), None),
    (("session", "context"), None),
    (("session", "context", "--path"), None),
    (("recover",), None),
    (("recover", "all", "--check"), None),
    (("recover", "all"), None),
    (("plan", "waves"), None),
    (("plan", "start", "I0001"), None),
    (("plan", "start", "I0003"), None),
    (("plan", "verify", "I0001"), None),
    (("plan", "done", "I0003"), None),
    (("plan", "evidence", "I0001", "--covers", "suite", "--type", "test", "--result", "ok"), None),
    (("plan", "evidence", "I0001", "--covers", "suite"), None),
    (("sync",), None),
    (("claims",), None),
    (("verify", "--base", "HEAD"), None),
    (("verify", "--base", "HEAD~1"), None),
    (("evidence", "--covers", "tests", "--command", "true"), None),
    (("evidence", "--covers", "docs", "--artifact", "lib/a"), None),
    (("capture", "render", "--force"), None),
    (("capture", "reconcile", "--dry-run"), None),
    (("capture", "reconcile"), None),
    (("capture", "prune", "--dry-run"), None),
    (("capture", "prune"), None),
    (("capture", "acknowledge"), None),
    (("skills", "list"), None),
    (("skills", "check"), None),
    (("skills", "show", "none"), None),
    (("adr", "list"), None),
    (("adr", "next"), None),
    (("adr", "check"), None),
    (("adr", "show", "adr-0001"), None),
    (("adr", "affected"), None),
    (("adr", "propose", "A decision", "--tag", "x", "--from", "file:lib/a"), None),
    (("adr", "propose", "Accepted", "--status", "accepted"), None),
    (("knowledge", "sources"), None),
    (("knowledge", "nodes", "--kind", "rule"), None),
    (("knowledge", "edges", "--type", "depends_on"), None),
    (("knowledge", "check"), None),
    (("knowledge", "related", "--path", ".ai/repo/prompts"), None),
    (("knowledge", "related", "policy:policy"), None),
    (("knowledge", "candidates"), None),
    (("knowledge", "derive"), None),
    (("knowledge", "derive", "--dry-run"), None),
    (("knowledge", "promote", "none"), "evidence\n"),
    (("knowledge", "reject", "none", "--reason", "no"), None),
]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An adopted repository with projections, a plan (two READY issues, one waiting on the
    first), an active task on `lib`, a checkpoint, a decision, an open question, an archived
    prompt and a hook's logged failure: every command has something to read or to refuse."""
    from conftest import make_env
    from test_plan import BASE
    from test_plan import PROJECT
    from test_plan import issue
    from test_plan import milestone

    root = tmp_path_factory.mktemp("seed") / "repo"
    root.mkdir()
    env = make_env(root.parent)
    repo = Repo(root, env)
    repo.git("init", "-q", "-b", "main")
    repo.write("README.md", "# A project\n\nWorkers: read AGENTS.md.\n")
    repo.write("lib/a", "a\n")
    repo.commit("seed")
    for args, stdin in (
        (("init",), None),
        (("update",), None),
    ):
        assert repo.mj(*args, stdin=stdin).code == 0
    repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(repo, "M000")
    for ident, deps in (("I0001", ""), ("I0002", ""), ("I0003", "I0001")):
        issue(repo, ident, deps)
    repo.commit("adopt")
    for args, stdin in (
        (("start", "compose", "--scope", "lib"), None),
        (("checkpoint",), "started\n"),
        (("decision", "add", "keep spaces", "--why", "the style guide"), None),
        (("question", "add", "which one?"), None),
        (("capture", "prompt", "--provider", "claude-code"), PROMPT),
        (("capture", "prompt", "--provider", "claude-code"), "not a payload"),  # logged
    ):
        result = repo.mj(*args, stdin=stdin)
        assert result.code == 0, (args, result)
    return root


def _copy(seed: Path, where: Path) -> Repo:
    shutil.copytree(seed, where, symlinks=True)
    from conftest import make_env

    return Repo(where, make_env(where.parent))


def _snapshot(root: Path) -> dict[str, str]:
    """Every file outside .git, normalised, by its repository-relative path (normalised too:
    files whose names differ only by a time or an id share one key, their texts sorted under
    it, so that neither is lost to the other)."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(".git/") or relative == ".git" or not path.is_file():
            continue
        if "/tmp/" in relative:
            continue
        text = _normal(path.read_text(errors="replace"), root)
        found.setdefault(_normal(relative, root), []).append(text)
    return {name: "\n\0\n".join(sorted(texts)) for name, texts in found.items()}


def _normal(text: str, root: Path) -> str:
    text = text.replace(str(root), "<root>")
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _sh(repo: Repo, script: str, stdin: str | None) -> tuple[int, str, str]:
    env = dict(repo.env)
    env["PATH"] = f"{bin_dir()}{os.pathsep}{env['PATH']}"
    proc = subprocess.run(
        ["/bin/sh", "-c", script],
        cwd=repo.root,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def printed_equals(
    repo: Repo,
    tmp_path: Path,
    args: tuple[str, ...],
    prepare: object = None,
    *,
    each: bool = False,
) -> str:
    """`repo` copied, `prepare` run (before the copy, or in each copy when `each`: an open
    episode names its own checkout), then `majordomus <args> --json` in `repo` and the pipeline
    it prints under `sh` in the copy: the same exit code, stdout and files. The pipeline."""
    if callable(prepare) and not each:
        prepare(repo)
    piped = _copy(repo.root, tmp_path / "piped")
    if callable(prepare) and each:
        prepare(repo)
        prepare(piped)
    printed = piped.mj(*args, "--json", "--pipeline").out.strip()
    direct = repo.mj(*args, "--json")
    code, out, err = _sh(piped, printed, None)
    assert code == direct.code, (printed, direct, err)
    assert _normal(out, piped.root) == _normal(direct.out, repo.root)
    assert _snapshot(piped.root) == _snapshot(repo.root)
    return printed


@pytest.mark.parametrize(("args", "stdin"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_printed_pipeline_equals_the_command(
    prepared: Path, tmp_path: Path, args: tuple[str, ...], stdin: str | None
) -> None:
    direct_repo = _copy(prepared, tmp_path / "direct")
    piped_repo = _copy(prepared, tmp_path / "piped")
    printed = piped_repo.mj(*args, "--json", "--pipeline")
    assert printed.code == 0 and printed.out.startswith("mj-"), printed
    assert "pipefail" not in printed.out
    direct = direct_repo.mj(*args, "--json", stdin=stdin)
    code, out, err = _sh(piped_repo, printed.out.strip(), stdin)
    assert code == direct.code, (printed.out, direct, err)
    assert _normal(out, piped_repo.root) == _normal(direct.out, direct_repo.root)
    assert err.count("\n") == direct.err.count("\n"), (err, direct.err)
    assert _snapshot(piped_repo.root) == _snapshot(direct_repo.root)


def test_init_in_a_repository_without_a_layer(tmp_path: Path) -> None:
    from conftest import make_env

    made: list[Repo] = []
    for name in ("direct", "piped"):
        root = tmp_path / name
        root.mkdir()
        repo = Repo(root, make_env(tmp_path))
        repo.git("init", "-q", "-b", "main")
        repo.write("README.md", "# A project\n")
        repo.commit("seed")
        made.append(repo)
    direct = made[0].mj("init", "--json")
    printed = made[1].mj("init", "--json", "--pipeline")
    code, out, _ = _sh(made[1], printed.out.strip(), None)
    assert code == direct.code == 0
    lines = [line for line in direct.out.splitlines() if '"kind":"hook"' not in line]
    assert _normal(out, made[1].root).splitlines() == [_normal(x, made[0].root) for x in lines]
    assert _snapshot(made[0].root) == _snapshot(made[1].root)


@pytest.mark.parametrize("broken", [False, True])
def test_init_import_in_a_repository_with_instructions(tmp_path: Path, broken: bool) -> None:
    from conftest import make_env
    from importrepo import seed

    made: list[Repo] = []
    for name in ("direct", "piped"):
        root = tmp_path / name
        root.mkdir()
        repo = Repo(root, make_env(tmp_path))
        repo.git("init", "-q", "-b", "main")
        seed(repo)
        if broken:  # the first stage stops the second: nothing is written either way
            repo.write(".cursor/rules/x.mdc", "---\npriority: 1\n---\nBe kind.\n")
        made.append(repo)
    direct = made[0].mj("init", "--import", "--json")
    printed = made[1].mj("init", "--import", "--json", "--pipeline")
    assert printed.out.strip() == (
        "mj-policy instructions | mj-policy init-facts --import | mj-policy init-judge"
        " | mj-policy init-write | mj-policy adopt-facts | mj-policy adopt-judge"
        " | mj-policy adopt-write | mj-state log"
    )
    code, out, err = _sh(made[1], printed.out.strip(), None)
    assert code == direct.code == (10 if broken else 0), (direct, err)
    lines = [line for line in direct.out.splitlines() if '"kind":"hook"' not in line]
    assert _normal(out, made[1].root).splitlines() == [_normal(x, made[0].root) for x in lines]
    assert _snapshot(made[0].root) == _snapshot(made[1].root)


def _declared_commands() -> list[dict[str, Any]]:
    """The commands as `share/commands.json` declares them (read as a file: the wheels run of
    this suite has the tools installed elsewhere, not importable here)."""
    import json

    text = (Path(__file__).resolve().parents[1] / "share" / "commands.json").read_text()
    commands: list[dict[str, Any]] = json.loads(text)["commands"]
    return commands


def _literal(step: dict[str, Any], spec: dict[str, Any]) -> tuple[str, ...]:
    """A declared stage's words without the options the command fills in (`--format @format`),
    with a stand-in for each required positional the command forwards to it (`show <id>`)."""
    kept: list[str] = []
    for word in step["stage"]:
        if word.startswith("@"):
            kept.pop()  # the flag it is the value of
        else:
            kept.append(word)
    forwarded = set(step.get("forward") or [])
    for option in spec.get("options") or []:
        if option["name"] in forwarded and option.get("required") and "flag" not in option:
            kept.append("x")
    return tuple(kept)


def _together(spec: dict[str, Any], one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two steps of `spec`'s pipeline can run in one invocation: not when one runs only
    with an option the other runs without, nor with two options of one exclusive group."""
    if (one.get("when") and one.get("when") == other.get("unless")) or (
        other.get("when") and other.get("when") == one.get("unless")
    ):
        return False
    groups = {o["name"]: o.get("exclusive") for o in spec.get("options") or []}
    a, b = one.get("when"), other.get("when")
    return not (a and b and a != b and groups.get(a) and groups.get(a) == groups.get(b))


def _following(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of `spec` that some earlier step can feed: each reads a stream."""
    steps = spec.get("pipeline") or []
    return [
        step
        for index, step in enumerate(steps)
        if any(_together(spec, earlier, step) for earlier in steps[:index])
    ]


@pytest.mark.parametrize(
    "stage",
    sorted(
        {  # every stage that follows another in some command's pipeline: each reads a stream
            _literal(step, spec) for spec in _declared_commands() for step in _following(spec)
        }
    ),
    ids=" ".join,
)
def test_a_stage_reading_nothing_stops_with_12(prepared: Path, stage: tuple[str, ...]) -> None:
    repo = Repo(prepared, {**_env(prepared)})
    result = repo.run(*stage, stdin="")
    assert result.code == 12 and result.err.count("\n") == 1, result


def test_an_upstream_failure_is_the_pipelines_exit_code(prepared: Path, tmp_path: Path) -> None:
    repo = _copy(prepared, tmp_path / "r")
    failing = "mj-state facts --prompt nope | mj-context build | mj-context render --format text"
    code, out, err = _sh(repo, failing, None)
    assert code == 12 and out == "" and err.count("\n") == 1, (code, out, err)


def _env(root: Path) -> dict[str, str]:
    from conftest import make_env

    return make_env(root.parent)
