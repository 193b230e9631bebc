"""`majordomus claims`: rendered with `sync` (`majordomus.commands.task.sync`)."""

from __future__ import annotations

from majordomus.commands.task.sync import render

__all__ = ["render"]
