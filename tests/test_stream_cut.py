"""A stage whose upstream died mid-write: the stream is cut inside its last line. The reading
stage stops with 13 in one line (a broken stage), never with a YAML syntax error and 10 as if a
person had handed it a bad document."""

from __future__ import annotations

from conftest import Repo


def test_a_stream_cut_inside_its_last_line_stops_the_next_stage_with_13(layer_repo: Repo) -> None:
    facts = layer_repo.run("mj-state", "facts")
    assert facts.code == 0, facts
    whole = facts.out
    assert whole.count("\n") > 2
    for cut in (len(whole) - 7, whole.rindex("\n", 0, len(whole) - 1) - 3):
        done = layer_repo.run("mj-knowledge", "pointers", stdin=whole[:cut])
        assert done.code == 13, (cut, done)
        assert done.err.count("\n") == 1 and "cut inside line" in done.err, done
        assert "yaml" not in done.err.lower()
    assert layer_repo.run("mj-knowledge", "pointers", stdin=whole).code == 0


def test_check_without_its_place_fact_is_12_like_any_other_missing_fact(layer_repo: Repo) -> None:
    """The check judge judges with the facts it is handed: without `place` (where the state
    lives, the policy's scope rules) it cannot, and says so, as it does for the seven others."""
    assert layer_repo.mj("start", "parse", "--scope", "lib").code == 0
    facts = layer_repo.run("mj-state", "facts", "--for", "check")
    assert facts.code == 0, facts
    lines = facts.out.splitlines(keepends=True)
    kept = [x for x in lines if '"fact":"place"' not in x.replace(" ", "")]
    assert len(kept) == len(lines) - 1
    done = layer_repo.run("mj-state", "check", stdin="".join(kept))
    assert done.code == 12, done
    assert done.err.count("\n") == 1 and "no place fact" in done.err, done
    assert layer_repo.run("mj-state", "check", stdin=facts.out).code in (0, 10)
