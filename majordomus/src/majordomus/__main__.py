from __future__ import annotations

from majordomus.cli import script

script()
