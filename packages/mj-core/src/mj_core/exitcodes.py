"""The exit-code contract: the interface every tool and hook relies on."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    USAGE = 2
    CONTRACT_UNMET = 10
    DRIFT_FOUND = 11
    MISSING_ARTIFACT = 12
    INTERNAL_ERROR = 13
    REFUSED = 15
