"""Errors that carry their exit code; raised below `main`, turned into codes by `cli.guard`."""

from __future__ import annotations

from mj_core.exitcodes import ExitCode


class MjError(Exception):
    """An expected failure: its message is one line naming file, line and key."""

    code: ExitCode = ExitCode.INTERNAL_ERROR

    def __init__(self, message: str, code: ExitCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class UsageError(MjError):
    code = ExitCode.USAGE


class ContractUnmet(MjError):
    code = ExitCode.CONTRACT_UNMET


class MissingArtifact(MjError):
    code = ExitCode.MISSING_ARTIFACT


class InternalError(MjError):
    code = ExitCode.INTERNAL_ERROR


class Refused(MjError):
    code = ExitCode.REFUSED
