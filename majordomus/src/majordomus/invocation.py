"""What a dispatched command gets: where it runs, its global options, its streams."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO


class Invocation:
    __slots__ = ("_root", "cwd", "json", "pipeline", "repo", "stderr", "stdin", "stdout")

    def __init__(  # noqa: PLR0917 - the global options, in their public order
        self,
        cwd: Path,
        repo: Path | None = None,
        json: bool = False,
        pipeline: bool = False,
        stdout: IO[str] | None = None,
        stderr: IO[str] | None = None,
        stdin: IO[bytes] | None = None,
        _root: Path | None = None,
    ) -> None:
        self.cwd = cwd
        self.repo = repo
        self.json = json
        self.pipeline = pipeline
        self.stdout: IO[str] = sys.stdout if stdout is None else stdout
        self.stderr: IO[str] = sys.stderr if stderr is None else stderr
        self.stdin = stdin
        self._root = _root

    def root(self) -> Path:
        """The repository the command works on; outside git → usage error (2)."""
        if self._root is None:
            from mj_core.git import questions as git

            self._root = git.toplevel(self.repo or self.cwd)
        return self._root
