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
