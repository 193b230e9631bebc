"""`init` in-process (`init_write.create`, its three stages in one call): what it writes, what it
refuses, where the hook lines go."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from mj_core import self_exe as selfexe
from mj_core import share
from mj_core.errors import Refused
from mj_policy.hooks import lines as hooklines
from mj_policy.layer import init_write
from mj_policy.layer import loader as layer
from mj_policy.layer import skeleton

ENV = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=ENV, check=True)
    return tmp_path


def test_create_writes_every_source_byte_for_byte(root: Path) -> None:
    created = list(init_write.create(root, extend=False))
    for relative, source in skeleton.sources():
        assert (root / relative).read_bytes() == source.read_bytes()
        assert relative in created
    assert created[-1] == ".gitignore:.ai/local"
    assert layer.load(root).profile_names() == [
        "debugging",
        "deep-work",
        "implementation",
        "routine",
    ]


def test_the_vendored_package_is_the_shipped_one(root: Path) -> None:
    list(init_write.create(root, extend=False))
    shipped = share.path("standard", "majordomus")
    vendored = root / skeleton.VENDORED
    names = sorted(p.relative_to(shipped).as_posix() for p in shipped.rglob("*") if p.is_file())
    assert names == sorted(
        p.relative_to(vendored).as_posix() for p in vendored.rglob("*") if p.is_file()
    )


def test_extend_twice_creates_nothing_the_second_time(root: Path) -> None:
    assert list(init_write.create(root, extend=True))
    assert list(init_write.create(root, extend=True)) == []


def test_tracked_directories_get_a_keep_file_local_ones_do_not(root: Path) -> None:
    list(init_write.create(root, extend=False))
    for relative in skeleton.directories():
        keep = root / relative / skeleton.KEEP
        assert keep.exists() == relative.startswith(skeleton.TRACKED), relative


def test_a_populated_directory_gets_no_keep_file(root: Path) -> None:
    (root / ".ai/repo/skills/review").mkdir(parents=True)
    (root / ".ai/repo/skills/review/SKILL.md").write_text("x\n")
    list(init_write.create(root, extend=True))
    assert not (root / ".ai/repo/skills" / skeleton.KEEP).exists()


def test_refusals_name_extend(root: Path) -> None:
    (root / ".ai").mkdir()
    with pytest.raises(Refused, match=r"move it aside.*--extend"):
        list(init_write.create(root, extend=False))
    list(init_write.create(root, extend=True))
    with pytest.raises(Refused, match=r"already exists.*--extend"):
        list(init_write.create(root, extend=False))


def test_a_file_named_ai_is_refused(root: Path) -> None:
    (root / ".ai").write_text("not a directory\n")
    with pytest.raises(Refused, match="not a directory"):
        list(init_write.create(root, extend=True))


def test_a_symlinked_layer_leading_out_is_refused(
    root: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (root / ".ai").symlink_to(outside)
    with pytest.raises(Refused):
        list(init_write.create(root, extend=True))
    assert list(outside.iterdir()) == []


def test_hook_lines_follow_the_policy_and_core_hooks_path(root: Path) -> None:
    list(init_write.create(root, extend=False))
    here = selfexe.program() or "majordomus"  # the majordomus this process runs as
    assert hooklines.lines(root) == [
        (".git/hooks/pre-commit", f"{shlex.quote(here)} doctor --brief || exit $?"),
        (".git/hooks/pre-push", f"{shlex.quote(here)} finish --check || exit $?"),
    ]
    subprocess.run(["git", "config", "core.hooksPath", "ci/hooks"], cwd=root, env=ENV, check=True)
    assert [hook for hook, _ in hooklines.lines(root)] == [
        "ci/hooks/pre-commit",
        "ci/hooks/pre-push",
    ]


def test_hook_lines_survive_a_broken_policy(root: Path) -> None:
    list(init_write.create(root, extend=False))
    (root / ".ai/repo/policy.yaml").write_text("version: [[1]]\n")
    assert len(hooklines.lines(root)) == 2
