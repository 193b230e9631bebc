from __future__ import annotations

from mj_state.cli import script

script()
