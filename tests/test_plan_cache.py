"""The plan's listings from `.ai/local/cache/plan-model.json` (mj_policy.plan.cache): the same
output as parsing every file, used only while git vouches the plan is what it was made from,
and never trusted over the files when it does not match."""

from __future__ import annotations

import json
import stat

import pytest
from conftest import Repo
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import STARTED
from test_plan import issue
from test_plan import milestone

VIEWS = ("status", "list", "ready", "blocked", "waves", "graph", "next")
CACHE = ".ai/local/cache/plan-model.json"
KEPT = ".ai/local/cache/plan-views.json"  # the listings themselves (tests/test_plan_views.py)


@pytest.fixture
def committed(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    issue(layer_repo, "I0003", "I0001")
    layer_repo.commit("a plan")
    return layer_repo


def views(repo: Repo) -> dict[str, tuple[int, str]]:
    out = {}
    for view in VIEWS:
        for form in ((), ("--json",)):
            result = repo.mj("plan", view, *form)
            out[f"{view} {' '.join(form)}"] = (result.code, result.out)
    return out


def test_a_cached_listing_equals_the_parsed_one(committed: Repo) -> None:
    cache = committed.root / CACHE
    parsed = {}
    for name in VIEWS:  # each view parsed afresh: the cache is removed before each
        cache.unlink(missing_ok=True)
        parsed[name] = committed.mj("plan", name, "--json").out
        assert cache.is_file() and stat.S_IMODE(cache.stat().st_mode) == 0o600
    cached = {name: committed.mj("plan", name, "--json").out for name in VIEWS}
    assert cached == parsed
    assert all(cached.values())


def test_a_change_under_the_plan_is_seen_at_once(committed: Repo) -> None:
    before = views(committed)
    issue(committed, "I0001", extra=DONE)  # not committed: git reports it, the files are read
    ready = committed.mj("plan", "ready")
    assert ready.code == 10, ready  # and the marker nobody's `plan done` wrote is named
    dirty = "".join(line for line in ready.out.splitlines(True) if not line.startswith("FAIL"))
    assert dirty.startswith("I0002") and "I0001 " not in dirty, dirty
    committed.commit("I0001 done")  # clean again, another key: parsed, cached anew
    assert committed.mj("plan", "ready").out == dirty
    assert json.loads((committed.root / CACHE).read_text())["key"] != ""
    issue(committed, "I0001", extra=STARTED)
    committed.commit("back to active")
    assert committed.mj("plan", "list").out != before["list "][1]
    assert committed.mj("plan", "list").out.startswith("I0001   ACTIVE")


def test_a_forged_or_broken_cache_is_never_taken_over_the_files(committed: Repo) -> None:
    honest = committed.mj("plan", "ready").out
    (committed.root / KEPT).unlink()  # the kept listing aside: the model's cache is read
    cache = committed.root / CACHE
    data = json.loads(cache.read_text())
    data["key"] = "0" * 64  # another key: ignored
    for fields in data["issue"]:
        fields[1]["completed_at"] = "2026-12-01T12:00:00Z"
    cache.write_text(json.dumps(data))
    assert committed.mj("plan", "ready").out == honest
    (committed.root / KEPT).unlink()
    cache.write_text("{not json")
    assert committed.mj("plan", "ready").out == honest
    assert json.loads(cache.read_text())["key"] != "0" * 64  # written again from the files


def test_a_defect_is_refused_from_the_cache_too(committed: Repo) -> None:
    issue(committed, "I0002", "I0009")
    committed.commit("a dangling dependency")
    first = committed.mj("plan", "ready")
    second = committed.mj("plan", "ready")
    assert first.code == second.code == 10
    assert first.err == second.err and "I0009" in first.err
