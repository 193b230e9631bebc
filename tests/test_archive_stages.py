"""`archive` is facts | judge | writer: `mj-policy archive-facts | mj-policy archive-judge |
mj-policy archive-write`.

The judge reads its one `archive` fact and never the repository: the profile, where the
archive goes, the index entries it keeps and drops are all judged from the fact. The writer
gathers and judges again for the plan's own options (`test_archive`: a plan edited on its way
writes nothing).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import make_env
from test_archive import _members
from test_archive import _prepared
from test_pipeline_equivalence import _sh
from test_pipeline_equivalence import printed_equals

TAKEN = ".ai/local/taken.zip"


def _taken(repo: Repo) -> None:
    _prepared(repo)
    repo.write(TAKEN, "ours\n")


# (preparation, command arguments): each in a fresh pair of copies; nothing here writes an
# archive, whose bytes carry the moment it was made (the writing pair is the next test)
CASES = [
    (_prepared, ("archive", "--list")),
    (_prepared, ("archive", "--dry-run")),
    (_prepared, ("archive", "audit", "--dry-run", "--format", "tar.gz")),
    (_prepared, ("archive", "no-such-profile")),
    (_taken, ("archive", "--out", TAKEN)),
    (_prepared, ("archive", "--out", "lib/inside.zip")),
]


def _pair(repo: Repo, tmp_path: Path) -> Repo:
    shutil.copytree(repo.root, tmp_path / "piped", symlinks=True)
    return Repo(tmp_path / "piped", make_env(tmp_path))


@pytest.mark.parametrize(("prepare", "args"), CASES)
def test_the_printed_pipeline_under_sh_is_the_command(
    layer_repo: Repo, tmp_path: Path, prepare: object, args: tuple[str, ...]
) -> None:
    printed = printed_equals(layer_repo, tmp_path, args, prepare)
    assert printed.startswith("mj-policy archive-facts")
    assert printed.endswith("| mj-policy archive-judge | mj-policy archive-write")


def test_the_cases_cover_each_exit(layer_repo: Repo) -> None:
    _taken(layer_repo)
    codes = [layer_repo.mj(*args).code for _, args in CASES]
    assert codes == [0, 0, 0, 12, 15, 15]


def test_the_printed_pipeline_writes_the_archive_the_command_writes(
    layer_repo: Repo, tmp_path: Path
) -> None:
    _prepared(layer_repo)
    piped = _pair(layer_repo, tmp_path)
    args = ("archive", "--out", ".ai/local/out.tar.gz")
    printed = piped.mj(*args, "--json", "--pipeline").out.strip()
    direct = layer_repo.mj(*args, "--json")
    code, out, _ = _sh(piped, printed, None)
    assert code == direct.code == 0
    written = [json.loads(line) for line in out.splitlines()]
    wanted = [json.loads(line) for line in direct.out.splitlines()]
    assert [r.get("action") for r in written] == [r.get("action") for r in wanted]
    members = _members(piped.root / ".ai/local/out.tar.gz")
    assert members == _members(layer_repo.root / ".ai/local/out.tar.gz")
    assert b"a = 2  # staged\n" in members.values()


def _fact(repo: Repo, *args: str) -> tuple[dict[str, object], list[str]]:
    gathered = repo.run("mj-policy", "archive-facts", *args)
    assert gathered.code == 0, gathered
    first, *rest = gathered.out.splitlines()
    return json.loads(first), rest


def _judged(repo: Repo, fact: dict[str, object], rest: list[str], cwd: Path) -> object:
    return repo.run("mj-policy", "archive-judge", stdin="\n".join([json.dumps(fact), *rest]) + "\n",
                    cwd=cwd)  # fmt: skip


def test_the_judge_reads_its_fact_and_nothing_else(layer_repo: Repo, tmp_path: Path) -> None:
    """The same fact judged in the repository and in an empty directory gives the same plan;
    what the fact says decides it (an unmerged entry 10, an output it says exists 15); the
    judge given another stage's stream is 12."""
    _prepared(layer_repo)
    fact, rest = _fact(layer_repo, "--dry-run")
    inside = _judged(layer_repo, fact, rest, layer_repo.root)
    elsewhere = _judged(layer_repo, fact, rest, tmp_path)
    assert inside.code == 0 and (inside.out, inside.err) == (elsewhere.out, elsewhere.err)
    entries = fact["entries"]
    assert isinstance(entries, list)
    unmerged = {**fact, "entries": [[*entries[0][:2], "2", entries[0][3]], *entries[1:]]}
    result = _judged(layer_repo, unmerged, rest, tmp_path)
    assert result.code == 10 and "unmerged" in result.err, result
    taken = _judged(layer_repo, {**fact, "exists": True}, rest, tmp_path)
    assert taken.code == 15 and "already exists" in taken.err, taken
    forced = _judged(layer_repo, {**fact, "exists": True, "force": True}, rest, tmp_path)
    assert forced.code == 0, forced
    local = [[m, b, s, ".ai/local/" + p] for m, b, s, p in entries]
    empty = _judged(layer_repo, {**fact, "entries": local}, rest, tmp_path)
    assert empty.code == 10 and "selects nothing" in empty.err, empty
    result = layer_repo.run("mj-policy", "archive-judge", stdin=inside.out)
    assert result.code == 12 and "mj-policy archive-facts" in result.err, result
