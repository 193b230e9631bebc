"""What a dispatched command gets: where it runs, its global options, its streams."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import IO


@dataclass
class Invocation:
    cwd: Path
    repo: Path | None = None
    json: bool = False
    pipeline: bool = False
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    stdin: IO[bytes] | None = None
    _root: Path | None = None

    def root(self) -> Path:
        """The repository the command works on; outside git → usage error (2)."""
        if self._root is None:
            from mj_core import git

            self._root = git.toplevel(self.repo or self.cwd)
        return self._root
