"""`mj-policy mcp-install-write`: the one write of `mcp install --write` — the file the verdict
of `mj-policy mcp-install-judge` names, written atomically through the confined writer (created
when absent, replaced when it was there).

It passes the judge's stream on; an `mcp-install` verdict becomes the write. It does not take
the verdict on trust: it reads the file again itself (`mj_policy.mcp_install.facts`) and judges
again: a refusal there is the command's, and a verdict that differs (another file or text, a
file that changed or an entry added since judging) writes nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_policy.mcp_install import facts as installfacts
from mj_policy.mcp_install import judge as installjudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "mcp-install", lambda verdict: (install(context.root(), verdict),)
    )


def install(root: Path, verdict: Record) -> Record:
    """The verdict judged again over the file as it is now, then written."""
    again = installjudge.judge(installfacts.gather(root, str(verdict.get("provider")), write=True))
    if again != verdict:
        raise Refused(
            f"mcp install: the verdict is not what {verdict.get('config')} gives now; "
            "nothing was written"
        )
    from mj_core.write import atomic

    path = root / str(verdict["config"])
    atomic.create(
        path, str(verdict["content"]).encode(), replace=bool(verdict["replace"]), root=root
    )
    return dict(verdict["record"])


STAGES = {"mcp-install-write": Stage(run)}
