"""`init` is facts | judge | writer: `mj-policy init-facts | mj-policy init-judge | mj-policy
init-write | mj-state log`.

The judge reads its one `init` fact and never the repository, and refuses before the first
write. The writer gathers the facts again and judges again, so a verdict with a path added, one
judged before a file appeared or a ledger was made, or a replayed one writes nothing (15); what
it writes comes from the shipped skeleton, never from the stream.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from conftest import judged
from conftest import make_env
from test_pipeline_equivalence import _normal
from test_pipeline_equivalence import _sh
from test_pipeline_equivalence import _snapshot

LEDGER = ".ai/local/state/ledger.jsonl"
POLICY = ".ai/repo/policy.yaml"
OURS = "version: 1\n# our own policy\n"


def _partial(repo: Repo) -> None:
    """A layer begun by hand: our own policy, an ignore file without a final newline."""
    repo.write(POLICY, OURS)
    repo.write(".gitignore", "build")


def _adopted(repo: Repo) -> None:
    assert repo.mj("init").code == 0
    (repo.root / ".ai/repo/prompts/resume.md").unlink()


def _linked_ignore(repo: Repo) -> None:
    (repo.root / "elsewhere").write_text("x\n")
    (repo.root / ".gitignore").unlink(missing_ok=True)
    (repo.root / ".gitignore").symlink_to("elsewhere")


# (preparation, command arguments): each in a fresh pair of copies
CASES = [
    (None, ("init",)),
    (_partial, ("init",)),
    (_partial, ("init", "--extend")),
    (_adopted, ("init", "--extend")),
    (_linked_ignore, ("init",)),
    (None, ("init", "--ci", "gitlab")),
]


@pytest.mark.parametrize(("prepare", "args"), CASES)
def test_the_printed_pipeline_under_sh_is_the_command(
    git_repo: Repo, tmp_path: Path, prepare: object, args: tuple[str, ...]
) -> None:
    if callable(prepare):
        prepare(git_repo)
    shutil.copytree(git_repo.root, tmp_path / "piped", symlinks=True)
    piped = Repo(tmp_path / "piped", make_env(tmp_path))
    printed = piped.mj(*args, "--json", "--pipeline").out.strip()
    assert printed.startswith("mj-policy init-facts") and "| mj-policy init-write |" in printed
    direct = git_repo.mj(*args, "--json")
    code, out, err = _sh(piped, printed, None)
    assert code == direct.code, (printed, direct, err)
    # the command adds the hook lines it prints (`kind: hook`), which no stage writes
    shown = [line for line in direct.out.splitlines() if '"kind":"hook"' not in line]
    assert _normal(out, piped.root).splitlines() == [_normal(x, git_repo.root) for x in shown]
    assert _snapshot(piped.root) == _snapshot(git_repo.root)


def test_the_cases_differ(git_repo: Repo) -> None:
    """The pairs above are not alike: a refusal, a partial layer completed around our policy,
    a layer that owes no adoption line, a link refused before any write."""
    _partial(git_repo)
    assert git_repo.mj("init").code == 15
    assert git_repo.mj("init", "--extend").code == 0
    assert (git_repo.root / POLICY).read_text() == OURS
    assert (git_repo.root / ".gitignore").read_text() == "build\n.ai/local\n"
    ledger = (git_repo.root / LEDGER).read_text()
    assert ledger.count('"layer.adopted"') == 1
    (git_repo.root / ".ai/repo/prompts/resume.md").unlink()
    done = git_repo.mj("init", "--extend", "--json")
    assert done.code == 0 and '"path":".ai/repo/prompts/resume.md"' in done.out
    assert (git_repo.root / LEDGER).read_text() == ledger


def test_a_link_is_refused_before_any_write(git_repo: Repo) -> None:
    _linked_ignore(git_repo)
    result = git_repo.mj("init")
    assert result.code == 15 and ".gitignore" in result.err, result
    assert not (git_repo.root / ".ai").exists()
    assert (git_repo.root / "elsewhere").read_text() == "x\n"


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-policy", "init-facts", "init-judge", *args)


def _tree(root: Path) -> dict[str, bytes]:
    """Every file outside `.git/`, by its path."""
    files = (p for p in sorted(root.rglob("*")) if p.is_file())
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in files
            if p.relative_to(root).parts[0] != ".git"}  # fmt: skip


@pytest.mark.parametrize(
    "change",
    [
        {"created": [".ai/repo/policy.yaml", "lib/planted.sh"]},
        {"created": []},
        {"adoption": False},
        {"ci": "github", "created": [".github/workflows/majordomus.yml"]},
        {"created": [".ai/manifest.yaml"]},
    ],
)
def test_an_edited_verdict_writes_nothing(git_repo: Repo, change: dict[str, object]) -> None:
    stream = _stream(git_repo)
    before = _tree(git_repo.root)
    result = git_repo.run("mj-policy", "init-write", stdin=forged(stream, **change))
    assert result.code == 15 and "nothing was written" in result.err, result
    assert _tree(git_repo.root) == before


def test_a_verdict_judged_before_a_file_appeared_writes_nothing(git_repo: Repo) -> None:
    stream = _stream(git_repo)
    git_repo.write(POLICY, OURS)
    before = _tree(git_repo.root)
    result = git_repo.run("mj-policy", "init-write", stdin=forged(stream))
    assert result.code == 15, result
    assert _tree(git_repo.root) == before


def test_a_replayed_verdict_writes_nothing(git_repo: Repo) -> None:
    stream = _stream(git_repo, "--extend")
    first = git_repo.run("mj-policy", "init-write", stdin=forged(stream))
    assert first.code == 0, first
    assert git_repo.run("mj-state", "log", stdin=first.out).code == 0
    (git_repo.root / ".ai/repo/prompts/resume.md").unlink()
    before = _tree(git_repo.root)
    replay = git_repo.run("mj-policy", "init-write", stdin=forged(stream))
    assert replay.code == 15, replay
    assert _tree(git_repo.root) == before  # neither the prompt nor a second adoption line


def test_the_judge_reads_its_fact_and_nothing_else(git_repo: Repo, tmp_path: Path) -> None:
    """The same facts judged in the repository and in an empty directory give the same
    records; a fact that says `.ai/` is there is refused whatever the tree holds; the judge
    given another stage's facts is 12."""
    for args in ((), ("--extend",), ("--ci", "github")):
        facts = git_repo.run("mj-policy", "init-facts", *args)
        inside = git_repo.run("mj-policy", "init-judge", stdin=facts.out)
        elsewhere = git_repo.run("mj-policy", "init-judge", stdin=facts.out, cwd=tmp_path)
        assert inside.code == 0 and (inside.out, inside.err) == (elsewhere.out, elsewhere.err)
    fact, *rest = git_repo.run("mj-policy", "init-facts").out.splitlines()
    said = {**json.loads(fact), "ai": "directory", "manifest": True}
    stream = "\n".join([json.dumps(said), *rest]) + "\n"
    refused = git_repo.run("mj-policy", "init-judge", stdin=stream, cwd=tmp_path)
    assert refused.code == 15 and "already exists" in refused.err, refused
    verdict = git_repo.run("mj-policy", "init-judge", stdin=facts.out)  # a stream, no fact
    result = git_repo.run("mj-policy", "init-judge", stdin=verdict.out)
    assert result.code == 12 and "mj-policy init-facts" in result.err, result
