"""The plan's listings kept for the next run (`mj_policy.plan.views`, `majordomus.plan_fast`):
a listing answered from `.ai/local/cache/plan-views.json` is the ordinary one byte for byte,
exit code and error line included, and it is shown only while git vouches for the plan it was
computed from."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import Repo
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

KEPT = ".ai/local/cache/plan-views.json"
LISTINGS = [
    ("status",),
    ("list",),
    ("ready",),
    ("blocked",),
    ("graph",),
    ("next",),
    ("ready", "--milestone", "M000"),
    ("list", "--milestone", "M001"),
    ("next", "--milestone", "M001"),  # nothing READY there: 12, and its one line
    ("blocked", "--milestone", "M009"),  # no such milestone: 12
]


@pytest.fixture
def committed(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    milestone(layer_repo, "M001", order=1)
    issue(layer_repo, "I0001", extra=DONE)
    issue(layer_repo, "I0002", "I0001")
    issue(layer_repo, "I0003", "I0002")
    issue(layer_repo, "I0004", "I0003", milestone="M001")
    layer_repo.commit("a plan")
    return layer_repo


def run(repo: Repo, args: tuple[str, ...], where: str = ".") -> tuple[int, str, str, bool]:
    """(exit, stdout, stderr without the timing report, whether the kept listing answered)."""
    result = repo.shell(f"cd {where} && MJ_TIMING=1 majordomus plan {' '.join(args)}")
    lines = result.err.splitlines(keepends=True)
    timed = [line.startswith(("TIMING", "phase", "count")) or '"phases":' in line for line in lines]
    report = "".join(line for line, was in zip(lines, timed, strict=True) if was)
    said = "".join(line for line, was in zip(lines, timed, strict=True) if not was)
    return result.code, result.out, said, ": kept" in report and ": run" not in report


@pytest.mark.parametrize("args", LISTINGS, ids=" ".join)
@pytest.mark.parametrize("form", [(), ("--json",)], ids=["text", "json"])
def test_a_kept_listing_is_the_ordinary_one_byte_for_byte(
    committed: Repo, args: tuple[str, ...], form: tuple[str, ...]
) -> None:
    (committed.root / "lib").mkdir()
    ordinary = run(committed, (*args, *form))
    assert not ordinary[3] and ordinary[1] + ordinary[2], ordinary  # computed, then kept
    for where in (".", "lib"):  # from a subdirectory too: the same checkout's listing
        kept = run(committed, (*args, *form), where)
        assert kept[3], kept
        assert kept[:3] == ordinary[:3]


def test_a_listing_with_nothing_kept_asks_git_each_question_once(committed: Repo) -> None:
    """`plan ready` with no cache asks git the plan's tree and status (its key, asked while the
    files are read) and the issue files' status (the markers' stage), each once."""
    for _ in range(2):  # and again once the cache is removed
        result = committed.shell("MJ_TIMING=1 majordomus plan ready")
        asked = re.search(r"^count\s+(\d+)\s+git$", result.err, re.M)
        assert result.code == 0 and result.out.startswith("I0002"), result.err
        assert asked is not None and asked.group(1) == "3", result.err
        shutil.rmtree(committed.root / ".ai/local/cache")


def test_a_kept_listing_is_shown_only_for_the_plan_it_was_made_from(committed: Repo) -> None:
    first = run(committed, ("ready",))
    assert first[1].startswith("I0002") and run(committed, ("ready",))[3]
    issue(committed, "I0002", "I0001", extra=DONE)  # changed, not committed: the files answer
    changed = run(committed, ("ready",))
    assert not changed[3] and changed[1].startswith("I0003"), changed
    assert changed[0] == 10 and "FAIL plan" in changed[1]  # the hand-written marker, named
    listing = "".join(line for line in changed[1].splitlines(True) if not line.startswith("FAIL"))
    committed.git("add", "-A")  # staged only: still not what HEAD holds
    assert not run(committed, ("ready",))[3]
    committed.commit("I0002 done")
    assert not run(committed, ("ready",))[3]  # another tree: computed afresh, kept again
    again = run(committed, ("ready",))
    assert again[3] and again[1] == listing and again[0] == 0
    committed.write(f"{BASE}/issues/stray.txt", "untracked\n")  # an untracked file under it
    assert not run(committed, ("ready",))[3]


def test_a_forged_or_broken_kept_listing_is_never_shown(committed: Repo) -> None:
    honest = run(committed, ("ready",))
    path = committed.root / KEPT
    data = json.loads(path.read_text())
    slot = next(iter(data["answers"]))
    data["answers"][slot]["records"][0]["title"] = "forged"
    data["key"] = "0" * 64
    path.write_text(json.dumps(data))
    assert run(committed, ("ready",))[:3] == honest[:3]  # another key: computed again
    path.write_text("{not json")
    assert run(committed, ("ready",))[:3] == honest[:3]
    assert json.loads(path.read_text())["key"] != "0" * 64  # kept again from the files
    manifest = committed.root / ".ai/manifest.yaml"
    manifest.write_text(manifest.read_text() + "\n")  # the manifest maps the plan: part of the key
    assert not run(committed, ("ready",))[3]


def test_only_a_plain_listing_is_answered_from_what_was_kept(committed: Repo) -> None:
    run(committed, ("ready",))
    assert run(committed, ("ready",))[3]
    for other in (("ready", "--pipeline"), ("ready", "--help"), ("ready", "extra"),
                  ("--repo", ".", "ready"), ("waves",), ("validate",)):  # fmt: skip
        assert not run(committed, other)[3], other


@pytest.mark.parametrize(
    "args", [("plan", "ready"), ("plan", "list"), ("plan", "validate"), ("context",)], ids=" ".join
)
def test_the_printed_pipeline_equals_the_command_a_kept_listing_included(
    committed: Repo, args: tuple[str, ...]
) -> None:
    from test_pipeline_equivalence import _normal
    from test_pipeline_equivalence import _sh

    assert committed.mj("start", "the third part", "--issue", "I0003").code == 0
    issue(committed, "I0002", "I0001", extra="started_at: 2026-12-01T10:00:00Z\n")  # by hand
    printed = committed.mj(*args, "--json", "--pipeline")
    assert printed.code == 0 and printed.out.startswith("mj-"), printed
    code, out, _ = _sh(committed, printed.out.strip(), None)
    committed.commit("the hand-written marker committed: history now")  # a clean plan, kept
    for _ in range(2):  # computed, then (for a listing) answered from what was kept
        direct = committed.mj(*args, "--json")
        again = _sh(committed, printed.out.strip(), None)
        assert again[0] == direct.code
        assert _normal(again[1], committed.root) == _normal(direct.out, committed.root)
    assert code == (0 if args == ("context",) else 10), out  # the marker, uncommitted
