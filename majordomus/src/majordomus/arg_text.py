"""Arguments are UTF-8 text, or the command is refused before it reads or writes anything.

A byte that is not UTF-8 reaches Python as a surrogate escape (`os.fsdecode`). Stored, it
would be one thing in the ledger (JSON keeps the surrogate) and another in a Markdown record
or `current.yaml` (written escaped), and the two copies of one task would never agree again.
`--repo` alone may name a directory whose name is not UTF-8: it is a path, never stored.
"""

from __future__ import annotations

GLOBAL_PATH = "--repo"


def refuse_undecodable(name: str, rest: list[str]) -> None:
    """A `UsageError` (2) naming the first argument that is not UTF-8 and its first bad byte."""
    import os

    from mj_core.errors import UsageError

    for index, arg in enumerate(rest):
        if _is_repo_value(rest, index):
            continue
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as error:
            byte = ord(arg[error.start]) - 0xDC00
            shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
            raise UsageError(
                f"{name}: argument {index + 1} ({shown[:60]}) is not UTF-8 text"
                f" (byte 0x{byte:02x}); give the text in UTF-8"
            ) from None


def _is_repo_value(rest: list[str], index: int) -> bool:
    arg = rest[index]
    if arg.startswith(GLOBAL_PATH + "="):
        return True
    return index > 0 and rest[index - 1] == GLOBAL_PATH
