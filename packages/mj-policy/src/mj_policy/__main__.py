from __future__ import annotations

from mj_policy.cli import script

script()
