"""`majordomus capture tool [--provider P] [--repo R]` on its own path: the hook runs before
every tool call, so it is answered before the declaration is read or a parser is built
(`mj_watch.act.hook` judges; `majordomus capture tool --help` still goes through the parser).
Its arguments are the shim's; anything else is said once on stderr and the call goes through
(the exit is 0 whatever happens: a hook must never stop the person's session).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import IO


def main(args: list[str], out: IO[str], err: IO[str], stdin: IO[bytes] | None = None) -> int:
    provider, where, bad = _options(args)
    if bad:
        err.write(f"WARN majordomus capture tool: {bad}; the call goes through unjudged\n")
        return 0
    from mj_watch.act import hook as toolhook

    stream = stdin if stdin is not None else sys.stdin.buffer
    try:
        raw = b"" if stream.isatty() else stream.read(toolhook.MAX_PAYLOAD + 1)
    except (OSError, ValueError) as exc:
        err.write(f"WARN majordomus capture tool: stdin not read ({exc}); not judged\n")
        return 0
    done = toolhook.run(provider, raw, where or os.getcwd())
    if done.answer:
        out.write(done.answer)
        out.flush()
    if done.warn:
        err.write(done.warn)
    return 0


def _options(args: list[str]) -> tuple[str, str | None, str | None]:
    """(provider, --repo, a problem with the arguments or None)."""
    provider, where = "claude-code", None
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name in ("--provider", "--repo") and (eq or rest):
            value = value if eq else rest.pop(0)
            if name == "--provider":
                provider = value
            else:
                where = value
        else:
            return provider, where, f"unknown argument {arg[:80]!r}"
    return provider, where, None
