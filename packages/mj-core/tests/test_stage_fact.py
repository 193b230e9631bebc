"""`Context.the_fact`: a judge over one fact takes exactly one of that name from its input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Context

SUMMARY = {"kind": "summary", "stage": "mj-state x", "exit": 0, "counts": {}}


def given(*records: dict[str, Any]) -> Context:
    return Context(Path("."), upstream=[*records, SUMMARY])


def test_the_one_fact_of_its_name_is_taken_among_others() -> None:
    wanted = {"kind": "fact", "fact": "plan-start", "id": "I1"}
    other = {"kind": "fact", "fact": "place", "state": ".ai/local/state"}
    assert given(other, wanted).the_fact(None, "plan-start", "mj-state plan-start-facts") == wanted


@pytest.mark.parametrize("count", [0, 2])
def test_none_or_several_is_a_missing_artifact_naming_the_gatherer(count: int) -> None:
    facts = [{"kind": "fact", "fact": "plan-start", "id": f"I{n}"} for n in range(count)]
    with pytest.raises(MissingArtifact, match="mj-state plan-start-facts") as raised:
        given(*facts).the_fact(None, "plan-start", "mj-state plan-start-facts")
    assert ("more than one" in raised.value.message) == (count == 2)
