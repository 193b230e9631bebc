from __future__ import annotations

from pathlib import Path

import pytest
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_state.task import scope


def test_normalise_strips_slashes_dots_and_duplicates(tmp_path: Path) -> None:
    assert scope.normalise(tmp_path, "lib/,./docs//,lib") == ["lib", "docs"]
    assert scope.normalise(tmp_path, ".") == ["."]


@pytest.mark.parametrize("argument", ["../x", "lib,../../etc", "/etc"])
def test_escapes_are_refused(tmp_path: Path, argument: str) -> None:
    with pytest.raises(Refused):
        scope.normalise(tmp_path, argument)


def test_symlink_out_of_the_repository_is_an_escape(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "out").symlink_to(tmp_path)
    with pytest.raises(Refused):
        scope.normalise(root, "out/elsewhere")


def test_empty_member_is_usage(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        scope.normalise(tmp_path, "lib,,docs")


def test_outside_uses_path_boundaries() -> None:
    touched = ["lib/a.py", "library/b.py", "lib", ".ai/local/x", "CLAUDE.md", "docs/CLAUDE.md"]
    allowed = scope.always_allowed({"projections": [{"target": "CLAUDE.md"}]})
    assert ".ai/local" in allowed and "CLAUDE.md" not in allowed  # a projection target is in
    # scope only as `update` writes it
    assert scope.outside(touched, ["lib"], allowed) == ["library/b.py", "CLAUDE.md",
                                                        "docs/CLAUDE.md"]  # fmt: skip
    own = ["CLAUDE.md"]  # the tool's own write, recognised by `scope.writes`
    assert scope.outside(touched, ["lib"], allowed, own) == ["library/b.py", "docs/CLAUDE.md"]
    assert scope.outside(touched, ["."], []) == [".ai/local/x"]  # `.` does not name the layer


def test_the_layer_is_in_scope_only_for_a_claim_naming_it() -> None:
    touched = [".ai/repo/policy.yaml", ".ai/repo/profiles/x.yaml", ".ai/local/state/a", "src/a"]
    allowed = scope.always_allowed({})
    assert scope.outside(touched, ["."], allowed) == touched[:2]
    assert scope.outside(touched, ["src", ".ai/repo/policy.yaml"], allowed) == touched[1:2]
    assert scope.outside(touched, ["src", ".ai/repo"], allowed) == []
