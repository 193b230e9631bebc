"""`majordomus claims`: rendered with `sync` (`majordomus.commands.sync`)."""

from __future__ import annotations

from majordomus.commands.sync import render

__all__ = ["render"]
