"""Errors that carry their exit code; raised below `main`, turned into codes by `cli.guard`."""

from __future__ import annotations

import os

from mj_core.exit_codes import ExitCode


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


# The world's faults, not the tool's: a full or read-only disk, a file-size limit, a missing or
# misplaced file, no permission. Each becomes one line and 12 (absent) or 15 (refused), never 13.
_ABSENT = ("ENOENT",)
_REFUSED = (
    *("ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "ELOOP"),
    *("ENAMETOOLONG", "EMLINK", "ETXTBSY", "EIO", "EXDEV", "EBUSY"),
)


def world_fault(exc: OSError, shown: str | None = None, *, writing: bool = False) -> MjError | None:
    """The contract error for an OSError the environment caused, or None for any other.

    `shown` names the file (else the error's own file name); `writing` says nothing was changed.
    """
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    if name not in _ABSENT and name not in _REFUSED:
        return None
    where = shown or (os.fsdecode(exc.filename) if exc.filename is not None else "a file")
    what = exc.strerror or name
    message = (
        f"{where}: cannot write ({what}); nothing was changed" if writing else f"{where}: {what}"
    )
    return (MissingArtifact if name in _ABSENT and not writing else Refused)(message)
