from __future__ import annotations

from mj_context.cli import script

script()
