"""`majordomus tour`: the walkthrough runs the real commands in a scratch repository."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import Repo


def test_tour_prints_each_command_its_output_exit_and_files(git_repo: Repo, tmp_path: Path) -> None:
    elsewhere = tmp_path / "not-a-repository"
    elsewhere.mkdir()
    result = git_repo.run("tour", cwd=elsewhere)
    scratch = Path(re.search(r"^scratch repository: (\S+)$", result.out, re.M).group(1))
    try:
        assert result.code == 0, result
        assert "$ majordomus init\n" in result.out and "$ majordomus doctor\n" in result.out
        assert re.search(r"^exit 0$", result.out, re.M)
        assert f"  wrote {scratch / '.ai/manifest.yaml'}\n" in result.out
        assert f"  wrote {scratch / '.git/hooks/pre-commit'}\n" in result.out
        written = re.findall(r"^  wrote (\S+)$", result.out, re.M)
        assert all(path.startswith(f"{scratch}/") for path in written)  # nothing outside it
        assert (scratch / ".ai/manifest.yaml").is_file()  # later steps may move what others wrote
        assert result.out.splitlines()[-1].startswith("tour: ")
        assert not (elsewhere / ".ai").exists()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_tour_shows_a_hand_edit_caught_and_refused(git_repo: Repo, tmp_path: Path) -> None:
    result = git_repo.run("tour", cwd=tmp_path)
    scratch = Path(re.search(r"^scratch repository: (\S+)$", result.out, re.M).group(1))
    try:
        assert result.code == 0, result
        steps = {block.split("\n", 1)[0]: block for block in result.out.split("\n== step ")[1:]}
        caught = next(b for h, b in steps.items() if "doctor catches the edit" in h)
        assert "\n$ majordomus doctor\n" in caught and "\nexit 10\n" in caught
        assert re.search(r"^FAIL .*CLAUDE\.md", caught, re.M)
        refused = next(b for h, b in steps.items() if "update refuses" in h)
        assert "\nexit 15\n" in refused
        forced = next(b for h, b in steps.items() if "regenerate on purpose" in h)
        assert "\n$ majordomus update --force\n" in forced and "\nexit 0\n" in forced
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
