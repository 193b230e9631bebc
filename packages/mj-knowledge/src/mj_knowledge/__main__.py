from __future__ import annotations

from mj_knowledge.cli import script

script()
