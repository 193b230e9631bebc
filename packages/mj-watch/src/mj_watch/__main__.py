from __future__ import annotations

from mj_watch.cli import script

script()
