"""`capture render|reconcile|prune` (CLI-REFERENCE §2.19): the prompt archive's upkeep. Records
are what count: render rebuilds renderings and never a record; reconcile links an orphaned
record only on surviving evidence and refuses ambiguity; prune keeps each record, with a
tombstone in place of its text; --dry-run writes nothing."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from conftest import Repo
from test_capture import installed
from test_capture import shim

PROMPTS = ".ai/local/prompts"


def prompt(repo: Repo, session: str, text: str) -> Path:
    before = set(_records(repo))
    result = shim(
        repo,
        "majordomus-capture",
        {"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": text},
    )
    assert result.returncode == 0 and not (repo.root / PROMPTS / "failures.log").exists()
    (new,) = set(_records(repo)) - before
    return new


def _records(repo: Repo) -> list[Path]:
    return sorted((repo.root / PROMPTS).glob("*.json"))


def start(repo: Repo, session: str) -> None:
    payload = {"session_id": session, "hook_event_name": "SessionStart", "source": "startup"}
    assert shim(repo, "majordomus-session-start", payload).returncode == 0


def end(repo: Repo, session: str) -> None:
    payload = {"session_id": session, "hook_event_name": "SessionEnd", "reason": "exit"}
    assert shim(repo, "majordomus-session-end", payload).returncode == 0


def snapshot(repo: Repo) -> dict[str, bytes]:
    base = repo.root / ".ai"
    return {str(p.relative_to(base)): p.read_bytes() for p in base.rglob("*") if p.is_file()}


def test_render_rebuilds_missing_renderings_and_never_a_record(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    first = prompt(repo, "ps-1", "first | with a pipe and ``` a fence")
    second = prompt(repo, "ps-1", "second")
    records = {p: p.read_bytes() for p in (first, second)}
    renderings = {p: p.with_suffix(".md").read_bytes() for p in (first, second)}
    first.with_suffix(".md").unlink()
    result = repo.mj("capture", "render")
    assert result.code == 0, result
    assert f"render: {PROMPTS}/{first.stem}.md — was missing" in result.out
    assert second.stem not in result.out  # present: left alone without --force
    assert "capture render: 1 done, 0 not done, 0 failed" in result.out
    assert {p: p.with_suffix(".md").read_bytes() for p in (first, second)} == renderings
    assert stat.S_IMODE(first.with_suffix(".md").stat().st_mode) == 0o600
    second.with_suffix(".md").write_text("hand edited\n")
    forced = repo.mj("capture", "render", "--force", "--json")
    assert forced.code == 0, forced
    lines = [json.loads(line) for line in forced.out.splitlines()]
    assert [r["detail"] for r in lines if r["kind"] == "prompt-record"] == ["rebuilt", "rebuilt"]
    assert second.with_suffix(".md").read_bytes() == renderings[second]
    assert {p: p.read_bytes() for p in (first, second)} == records


def test_a_file_that_is_not_a_record_fails_naming_it_and_the_rest_is_done(
    layer_repo: Repo,
) -> None:
    repo = installed(layer_repo)
    good = prompt(repo, "ps-1", "good")
    good.with_suffix(".md").unlink()
    (repo.root / PROMPTS / "00000000000000-bad.json").write_text('{"schema": "other"}\n')
    (repo.root / PROMPTS / "00000000000001-torn.json").write_text('{"schema": "majordo')
    result = repo.mj("capture", "render")
    assert result.code == 10, result
    assert f"{PROMPTS}/00000000000000-bad.json — not a capture record" in result.out
    assert result.out.startswith("FAIL prompts ")
    assert f"{PROMPTS}/00000000000001-torn.json" in result.out
    assert good.with_suffix(".md").is_file()  # the good one still rendered
    assert not (repo.root / PROMPTS / "00000000000000-bad.md").exists()


def test_reconcile_links_an_orphan_from_the_working_context_then_the_ledger(
    layer_repo: Repo,
) -> None:
    repo = installed(layer_repo)
    orphan = prompt(repo, "ps-7", "captured before its episode opened")
    assert json.loads(orphan.read_text())["episode_link"] == "orphan"
    nothing = repo.mj("capture", "reconcile")
    assert nothing.code == 0, nothing
    assert "reconcile (not done)" in nothing.out and "no episode of ps-7 survives" in nothing.out
    start(repo, "ps-7")
    dry = repo.mj("capture", "reconcile", "--dry-run")
    assert dry.code == 0 and "(session-context)" in dry.out and "dry run" in dry.out, dry
    assert json.loads(orphan.read_text())["episode_link"] == "orphan"
    done = repo.mj("capture", "reconcile")
    assert done.code == 0, done
    record = json.loads(orphan.read_text())
    episode = record["episode"]
    assert record["episode_link"] == "session-context" and episode.startswith("s-")
    assert f"episode: {json.dumps(episode)}" in orphan.with_suffix(".md").read_text()
    again = repo.mj("capture", "reconcile")
    assert again.code == 0 and "0 done, 0 not done" in again.out  # linked now: not touched
    end(repo, "ps-7")
    late = prompt(repo, "ps-7", "captured after it closed")
    for context in (repo.root / ".ai/local/session-contexts").glob("*.md"):
        context.unlink()  # only the ledger's session.closed line and its record remain
    linked = repo.mj("capture", "reconcile")
    assert linked.code == 0, linked
    assert json.loads(late.read_text())["episode"] == episode
    assert json.loads(late.read_text())["episode_link"] == "ledger"


def test_a_ledger_line_naming_a_path_elsewhere_is_no_evidence(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    orphan = prompt(repo, "ps-5", "which episode?")
    line = {"ts": "2026-12-01T10:00:00Z", "event": "session.closed", "outcome": "closed"}
    line["session"] = "s-20261201100000-abcd"
    with (repo.root / ".ai/local/state/ledger.jsonl").open("a") as ledger:
        for where in ("/etc/passwd", "../outside.md", ".ai/repo/sessions/../../x.md"):
            ledger.write(json.dumps({**line, "session_path": where}) + "\n")
    before = orphan.read_bytes()
    result = repo.mj("capture", "reconcile")
    assert result.code == 0 and "no episode of ps-5 survives" in result.out, result
    assert orphan.read_bytes() == before


def test_reconcile_refuses_two_episodes_for_one_provider_session(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    for _ in range(2):  # a resumed provider session: the same id, a second episode
        start(repo, "ps-9")
        end(repo, "ps-9")
    orphan = prompt(repo, "ps-9", "which episode?")
    before = orphan.read_bytes()
    result = repo.mj("capture", "reconcile")
    assert result.code == 0, result
    assert (
        "refuse (not done)" in result.out and "2 episodes claim provider session ps-9" in result.out
    )
    assert orphan.read_bytes() == before


def test_a_legacy_record_without_a_provider_session_is_never_linked(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    start(repo, "ps-3")
    result = shim(
        repo,
        "majordomus-capture",
        {"prompt": "no session id", "hook_event_name": "UserPromptSubmit"},
    )
    assert result.returncode == 0
    (legacy,) = _records(repo)
    assert json.loads(legacy.read_text())["episode_link"] == "unlinked-legacy"
    before = legacy.read_bytes()
    assert repo.mj("capture", "reconcile").code == 0
    assert legacy.read_bytes() == before


def _age(path: Path, days: int) -> None:
    record = json.loads(path.read_text())
    year = int(record["captured_at"][:4]) - 1 - days // 365
    record["captured_at"] = f"{year}" + record["captured_at"][4:]
    path.write_text(json.dumps(record, indent=2) + "\n")


def test_prune_drops_old_texts_then_the_oldest_over_the_byte_cap(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    old = prompt(repo, "ps-1", "an old prompt")
    _age(old, 400)
    big = [prompt(repo, "ps-1", f"prompt {n} " + "x" * 100) for n in range(3)]
    policy = repo.root / ".ai/repo/policy.yaml"
    policy.write_text(
        policy.read_text() + "\nprompts:\n  retention_max_days: 30\n  retention_max_bytes: 250\n"
    )
    before = snapshot(repo)
    dry = repo.mj("capture", "prune", "--dry-run")
    assert dry.code == 0, dry
    assert "older than prompts.retention_max_days (30)" in dry.out
    assert "over prompts.retention_max_bytes (250)" in dry.out
    assert "capture prune: 0 done, 2 not done" in dry.out
    assert snapshot(repo) == before
    result = repo.mj("capture", "prune")
    assert result.code == 0, result
    for pruned, why in ((old, "retention_max_days"), (big[0], "retention_max_bytes")):
        record = json.loads(pruned.read_text())
        assert "prompt" not in record and why in record["tombstone"]["reason"]
        assert record["tombstone"]["bytes"] > 0 and record["provider_session"] == "ps-1"
        assert "pruned at" in pruned.with_suffix(".md").read_text()
    for kept in big[1:]:
        assert "prompt" in json.loads(kept.read_text())
    assert len(_records(repo)) == 4  # every record kept
    again = repo.mj("capture", "prune")
    assert again.code == 0 and "0 done, 0 not done" in again.out


def test_prune_refuses_a_policy_limit_that_is_not_a_positive_integer(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    policy = repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\nprompts:\n  retention_max_days: soon\n")
    result = repo.mj("capture", "prune")
    assert result.code == 10, result
    assert "policy.yaml" in result.err and "retention_max_days" in result.err
    policy.write_text(policy.read_text().replace("retention_max_days: soon", "keep_days: 3"))
    unknown = repo.mj("capture", "prune")
    assert unknown.code == 10 and "keep_days" in unknown.err, unknown


def test_the_upkeep_actions_print_their_pipeline(layer_repo: Repo) -> None:
    for action, stage in (
        (
            ["render", "--force"],
            "mj-state capture-render-facts --force | mj-state capture-render-judge"
            " | mj-state capture-render-write",
        ),
        (
            ["reconcile", "--dry-run"],
            "mj-state capture-reconcile-facts --dry-run | mj-state capture-reconcile-judge"
            " | mj-state capture-reconcile-write",
        ),
        (
            ["prune"],
            "mj-state capture-prune-facts | mj-state capture-prune-judge"
            " | mj-state capture-prune-write",
        ),
    ):
        result = layer_repo.mj("capture", *action, "--pipeline")
        assert result.code == 0 and result.out.strip() == stage, result
    assert not (layer_repo.root / PROMPTS).exists()  # printed, not run
