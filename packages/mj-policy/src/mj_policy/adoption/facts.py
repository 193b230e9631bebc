"""`mj-policy instructions`: the repository's instruction files as `piece` records — every
piece `init --import` would make a rule of, with where it is, its sha256, its text and what it
reaches — and a `not-imported` record for each part of a file that is not a piece, with why.

Files named with `@path` by a file whose client expands such lines are read after it, up to
five references deep (as Claude Code follows them), each once, reaching what the file naming
it reaches. Nothing is written.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_policy.adoption import read as importread
from mj_policy.adoption import sources as importsources

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

DEPTH = 5


def gather(root: Path) -> Iterator[Record]:
    sources = importsources.find(root)
    queue: list[tuple[importsources.Source, tuple[str, list[str]] | None, int]] = [
        (s, None, 0) for s in sources
    ]
    seen = {s.path for s in sources}
    while queue:
        source, reach, depth = queue.pop(0)
        reading = importread.read(root, source, reach)
        yield from records(reading)
        for path, number in reading.references:
            if path in seen or depth >= DEPTH:
                continue
            seen.add(path)
            if importsources.checked(root, path):
                named = importsources.Source(path, "reference", via=f"{source.path}:{number}")
                queue.append((named, (reading.reach, reading.paths), depth + 1))


def records(reading: importread.Reading) -> Iterator[Record]:
    source = reading.source
    for piece in reading.pieces:
        yield {
            "kind": "piece",
            "file": source.path,
            "lines": [piece.first, piece.last],
            "sha256": piece.sha256,
            "title": piece.title,
            "label": label(reading),
            "body": piece.body,
            "reach": reading.reach,
            "paths": reading.paths,
            "providers": list(source.providers),
            "description": reading.description,
            "via": source.via,
        }
    for first, last, why in reading.left:
        yield {"kind": "not-imported", "file": source.path, "lines": [first, last], "reason": why}


def label(reading: importread.Reading) -> str:
    """What names a piece without a heading: the provider's description of the file, else
    the file (a rule file by its name)."""
    from mj_policy.adoption import split as importsplit

    source = reading.source
    if reading.description:
        return importsplit.one_line(reading.description)
    name = source.path.rsplit("/", 1)[-1]
    if source.kind in ("mdc", "instructions"):
        return name.removesuffix(".mdc").removesuffix(".instructions.md")
    return source.path if source.kind != "cursorrules" else name


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from gather(context.root())


STAGES = {
    "instructions": Stage(_run),
}
