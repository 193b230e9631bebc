"""`mj-context prompt-render`: a prompt asset with its tokens filled from the facts.

`{{CONTEXT}}` becomes the briefing `majordomus context` would print (same facts, same build);
every other token comes from the facts directly.
"""

from __future__ import annotations

from mj_core.errors import UsageError
from mj_core.stream.stage import Stage
from mj_state import brief_render as render

from mj_context import build
from mj_context import prompt_values as promptvalues

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def prompt_render(stream: Iterable[Record], form: str) -> Iterator[Record]:
    records = list(stream)
    facts = {r["fact"]: r for r in records if r.get("kind") == "fact"}
    if not facts:
        return
    fact = facts.get("prompt")
    if fact is None:
        raise UsageError("the facts carry no prompt — run `mj-state facts --prompt <name>`")
    context_text = None
    if promptvalues.nests_context(fact):
        context_text = render.text(render.Briefing(build.build(records)), None)
    text = promptvalues.render(fact, facts, context_text)
    if form == "json":
        yield {"kind": "prompt", "name": fact["name"], "path": fact["path"], "text": text}
    else:
        yield {"kind": "text", "text": text}


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return prompt_render(context.records(options.input), options.format)


STAGES = {
    "prompt-render": Stage(_run, raw=True),
}
