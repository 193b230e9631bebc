"""`majordomus verify --witness`: a published ledger is judged against what the remote held
when the base was judged (the run on the default branch recorded it with `--witness-out`), so
a line published before the base and rewritten since — the whole chain recomputed from it and
force-pushed, one chain that only grew as it now is — FAILs naming the line; a ledger deleted
since FAILs naming it; the rewrite is never recorded as what the remote held."""

from __future__ import annotations

import json
from pathlib import Path

from remoteworld import clone_id
from verifyworld import World
from verifyworld import failing
from verifyworld import honest
from verifyworld import rewrite_published


def test_a_line_published_before_base_and_rewritten_since_fails(tmp_path: Path) -> None:
    world = World(tmp_path)
    try:
        early = world.worker()
        honest(early, "early")  # started, finished and published by the tool
        early.git("push", "-q", "origin", "HEAD:refs/heads/main")  # the default branch moves
        base = early.git("rev-parse", "HEAD").strip()
        held, again = tmp_path / "held.json", tmp_path / "again.json"
        code, findings, err = world.verify("main", "--witness-out", str(held))  # CI on main
        assert code == 0, (findings, err)
        ref = f"refs/majordomus/ledger/{clone_id(early)}"
        lines = world.remote.published(clone_id(early))
        number = next(n for n, x in enumerate(lines, 1) if '"task.started"' in x)
        widened = lambda line: {**line, "scope": ["."]}  # noqa: E731 - the hostile edit
        rewrite_published(early, ref, number, widened)
        assert world.remote.published(clone_id(early))[number - 1] != lines[number - 1]

        late = world.worker()
        honest(late, "late")
        world.push(late, "late")
        code, findings, _ = world.verify("late", base=base)  # no record: judged as it is now
        assert code == 0 and ("witness", "INFO") in {(f["category"], f["level"]) for f in findings}
        code, findings, err = world.verify(
            "late", "--witness", str(held), "--witness-out", str(again), base=base
        )
        assert code == 10, (findings, err)
        [line] = [f for f in failing(findings, "witness") if f["subject"] == ref]
        assert f"line {number} is not the line the remote held when {base[:12]}" in str(
            line["message"]
        ), line
        kept = {x["ref"]: x for x in json.loads(again.read_text())["ledgers"]}
        assert kept[ref] == {x["ref"]: x for x in json.loads(held.read_text())["ledgers"]}[ref]

        world.remote.git_bare("update-ref", "-d", ref)  # deleted
        code, findings, _ = world.verify("late", "--witness", str(held), base=base)
        assert code == 10
        [line] = [f for f in failing(findings, "witness") if f["subject"] == ref]
        assert "deleted since" in str(line["message"]), line
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": 1, "head": "x", "ledgers": []}\n')
        code, _, err = world.verify("late", "--witness", str(bad), base=base)
        assert code == 2 and "key head" in err, err
    finally:
        world.remote.close()
