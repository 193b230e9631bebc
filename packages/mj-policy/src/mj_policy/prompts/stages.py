"""`mj-policy prompt-list|prompt-show`: the repository's prompt assets, each checked in full."""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.prompts import assets as prompts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def _assets(context: Context) -> tuple[layer_mod.Layer, Any, str]:
    lay = layer_mod.load(context.root())
    directory = lay.section("prompts")
    return lay, directory, lay.relative(directory)


def _list(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    _, directory, shown = _assets(context)
    for name in prompts.names(directory):
        yield prompts.load(directory, name, shown).record()


def _show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    _, directory, shown = _assets(context)
    asset = prompts.load(directory, options.name, shown)
    yield {**asset.record(), "body": asset.body}


STAGES = {
    "prompt-list": Stage(_list),
    "prompt-show": Stage(_show),
}
