"""`session start` is facts | judge | writer: `mj-state facts | mj-context build | mj-state
session-start-facts | mj-state session-start-judge | mj-state session-start-write`.

The judge reads the briefing and its one `session-start` fact and never the repository. The
writer gathers the fact again and judges again, so a verdict for another key, one judged before
an episode of its key was opened, or a replayed one opens nothing (15). The open record's
identity (repository, worktree, branch, head, working tree) comes from git in the writer,
never from the stream.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from conftest import files_under
from conftest import forged
from test_pipeline_equivalence import printed_equals

STATE = ".ai/local/state"
HOOK = ("--provider", "claude-code", "--provider-session", "ps-1")


def _opened(repo: Repo) -> None:
    assert repo.mj("session", "start").code == 0


# (preparation, command arguments): each in a fresh pair of copies
CASES = [
    (None, ("session", "start")),
    (None, ("session", "start", "--owner", "ana", "--worker", "a model", *HOOK)),
    (_opened, ("session", "start")),
    (_opened, ("session", "start", "--if-open", "keep")),
    (_opened, ("session", "start", *HOOK)),
    (None, ("session", "start", "--provider", "claude-code")),
]


@pytest.mark.parametrize(("prepare", "args"), CASES)
def test_the_printed_pipeline_under_sh_is_the_command(
    layer_repo: Repo, tmp_path: Path, prepare: object, args: tuple[str, ...]
) -> None:
    printed = printed_equals(layer_repo, tmp_path, args, prepare, each=True)
    assert "| mj-state session-start-judge | mj-state session-start-write" in printed


def test_the_cases_differ(layer_repo: Repo) -> None:
    """Opened, refused when open, kept, a second key opened beside it, a usage error."""
    codes = [layer_repo.mj(*args).code for _, args in CASES]
    assert codes == [0, 0, 15, 0, 15, 2]
    opened = sorted(p.name for p in (layer_repo.root / STATE / "sessions-open").glob("*.yaml"))
    assert opened == ["hand.yaml", "ps-1.yaml"]


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    """The judge's stream of `session start` with `args`, as a worker would capture it."""
    printed = repo.mj("session", "start", *args, "--pipeline").out.strip()
    judging = printed.rsplit(" | ", 1)[0]  # everything but the writer
    done = repo.shell(judging)
    assert done.code == 0, done
    return [json.loads(line) for line in done.out.splitlines()]


@pytest.mark.parametrize("change", [{"key": "ps-9"}, {"provider_session": "ps-9"},
                                    {"key": "ps-9", "provider": "claude-code",
                                     "provider_session": "ps-1"}])  # fmt: skip
def test_a_verdict_for_another_key_opens_nothing(layer_repo: Repo, change: dict) -> None:
    stream = _stream(layer_repo)
    before = files_under(layer_repo, ".ai/local")
    result = layer_repo.run("mj-state", "session-start-write", stdin=forged(stream, **change))
    assert result.code in (2, 15), result
    assert files_under(layer_repo, ".ai/local") == before


def test_a_verdict_judged_before_its_key_opened_or_replayed_opens_nothing(
    layer_repo: Repo,
) -> None:
    stream = _stream(layer_repo, *HOOK)
    first = layer_repo.run("mj-state", "session-start-write", stdin=forged(stream))
    assert first.code == 0, first
    before = files_under(layer_repo, ".ai/local")
    replay = layer_repo.run("mj-state", "session-start-write", stdin=forged(stream))
    assert replay.code == 15 and "already open" in replay.err, replay
    assert files_under(layer_repo, ".ai/local") == before


def test_the_open_record_takes_its_identity_from_git(layer_repo: Repo) -> None:
    """Nothing of the verdict names a head or a branch: a verdict given them is refused by
    its schema and opens nothing; the honest one records git's own."""
    stream = _stream(layer_repo)
    before = files_under(layer_repo, ".ai/local")
    forged_head = forged(stream, head="0" * 40, branch="elsewhere")
    refused = layer_repo.run("mj-state", "session-start-write", stdin=forged_head)
    assert refused.code == 10 and "unexpected" in refused.err, refused
    assert files_under(layer_repo, ".ai/local") == before
    assert layer_repo.run("mj-state", "session-start-write", stdin=forged(stream)).code == 0
    (opened,) = (layer_repo.root / STATE / "sessions-open").glob("*.yaml")
    text = opened.read_text()
    assert f"start_head: {layer_repo.git('rev-parse', 'HEAD').strip()}" in text
    assert "branch: main" in text


def test_the_judge_reads_its_input_and_nothing_else(layer_repo: Repo, tmp_path: Path) -> None:
    """The same input judged in the repository and in an empty directory gives the same
    record; what the fact says decides it; a judge with no fact is 12."""
    _opened(layer_repo)
    printed = layer_repo.mj("session", "start", "--if-open", "keep", "--pipeline").out.strip()
    gathered = layer_repo.shell(printed.rsplit(" | ", 2)[0])  # up to the facts
    assert gathered.code == 0, gathered
    inside = layer_repo.run("mj-state", "session-start-judge", stdin=gathered.out)
    elsewhere = layer_repo.run("mj-state", "session-start-judge", stdin=gathered.out, cwd=tmp_path)
    assert inside.code == 0 and (inside.out, inside.err) == (elsewhere.out, elsewhere.err)
    assert '"action":"kept"' in inside.out
    lines = gathered.out.splitlines()
    told = [json.dumps({**json.loads(x), "here": "/another/checkout"})
            if '"fact":"session-start"' in x else x for x in lines]  # fmt: skip
    other = layer_repo.run("mj-state", "session-start-judge", stdin="\n".join(told) + "\n")
    assert other.code == 15 and "another checkout" in other.err, other
    briefing_only = layer_repo.shell(printed.rsplit(" | ", 3)[0])
    result = layer_repo.run("mj-state", "session-start-judge", stdin=briefing_only.out)
    assert result.code == 12 and "mj-state session-start-facts" in result.err, result
