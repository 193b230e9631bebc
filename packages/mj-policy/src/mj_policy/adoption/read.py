"""One instruction file read for `init --import` (and for `update`'s hand-over, which must cut
it the same way): its scope, its pieces, what is left out and the files it names with `@path`.

Read within the layer's limits (`mj_core.limits.LAYER`: a rule file must hold what a piece
holds): over them, not UTF-8 or holding a NUL byte → 10 naming the file (and the line).
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet

from mj_policy.adoption import front as importfront
from mj_policy.adoption import split as importsplit

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.adoption.sources import Source
    from mj_policy.adoption.split import Line

_REFERENCE = re.compile(r"(?<![^\s(])@([^\s`@()<>\[\]]+)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_ONLY_REFERENCES = re.compile(r"\s*(?:@[^\s`@()<>\[\]]+\s*)+")


class Reading:
    """What one file holds for the import."""

    __slots__ = ("description", "left", "paths", "pieces", "reach", "references", "source")

    def __init__(self, source: Source) -> None:
        self.source = source
        self.reach = "always"  # always | paths | on-request
        self.paths: list[str] = []
        self.description = ""  # the provider's own description of the file, when it has one
        self.pieces: list[importsplit.Piece] = []
        self.left: list[tuple[int, int, str]] = []  # (first, last, why) not imported
        self.references: list[tuple[str, int]] = []  # (repository path, line naming it)


def read(root: Path, source: Source, reach: tuple[str, list[str]] | None = None) -> Reading:
    """`reach`: a referenced file reaches what the file naming it reaches."""
    from mj_core import files
    from mj_core.limits import LAYER
    from mj_core.yaml.strict import decode

    from mj_policy.projection import stamps

    found = Reading(source)
    shown = source.path
    text = decode(files.read_capped(root / shown, shown, LAYER), shown).removeprefix("\ufeff")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ContractUnmet(f"{shown}:{line}: a NUL byte — not a text file; import it by hand")
    lines = list(enumerate(stamps.split_lines(text), start=1))
    lines = _generated(lines, shown, found)
    lines = _front(lines, shown, found, reach)
    lines = _referencing(root, lines, found)
    cut = importsplit.split(lines)
    found.pieces, found.left = cut.pieces, found.left + cut.left
    return found


def _generated(lines: list[Line], shown: str, found: Reading) -> list[Line]:
    """The file without the text `majordomus update` wrote into it."""
    from mj_policy.projection import region
    from mj_policy.projection import stamps

    text = "".join(t for _, t in lines)
    stamped = stamps.read_file_stamp(text)
    if stamped.stamp is not None:
        at = stamped.line_index
        if stamped.stamp.content == stamps.content_hash(stamped.covered):
            found.left.append((1, len(lines), "written by `majordomus update`"))
            return []
        found.left.append((at + 1, at + 1, "the stamp of `majordomus update`"))
        return lines[:at] + lines[at + 1 :]
    kept = region.find(text, shown)
    if kept is None:
        return lines
    first = kept.begin_line
    last = first + kept.body.count("\n") + 1
    found.left.append((first, last, "the region `majordomus update` writes"))
    return lines[: first - 1] + lines[last:]


def _front(
    lines: list[Line], shown: str, found: Reading, reach: tuple[str, list[str]] | None
) -> list[Line]:
    """The file without its front matter, which gives its scope."""
    source = found.source
    if reach is not None:  # a file named with `@path`: read whole, as its client reads it
        found.reach, found.paths = reach[0], list(reach[1])
        return lines
    front = importfront.read([t.rstrip("\n") for _, t in lines], shown, source.front_keys)
    if source.nested_in:
        found.reach, found.paths = "paths", [importfront.directory_glob(source.nested_in)]
    elif source.kind == "mdc":
        _scoped(found, front, "globs", importfront.flag(front, "alwaysApply", shown))
    elif source.kind == "instructions":
        _scoped(found, front, "applyTo", False)
    for key in ("description", "name"):
        found.description = found.description or importfront.text(front, key, shown)
    return lines[front.after :]


def _scoped(found: Reading, front: importfront.Front, key: str, always: bool) -> None:
    globs = importfront.globs(front, key, found.source.path)
    if always or sorted(globs) in ([g] for g in importfront.EVERYTHING):
        found.reach = "always"
    elif globs:
        found.reach, found.paths = "paths", globs
    else:
        found.reach = "on-request"


def _referencing(root: Path, lines: list[Line], found: Reading) -> list[Line]:
    """Find the `@path` references of a file whose client expands them; a line of nothing
    but references to files of the repository is not text: those files are imported."""
    from mj_policy.adoption import sources as importsources

    if found.source.kind not in importsources.IMPORTS:
        return lines
    kept = []
    fence = False
    for number, text in lines:
        if text.lstrip().startswith(("```", "~~~")):
            fence = not fence
        named = [] if fence else _named(root, found.source.path, text)
        found.references += [(path, number) for path in named if path]
        if named and all(named) and _ONLY_REFERENCES.fullmatch(text.rstrip("\r\n")):
            found.left.append((number, number, "an @path line: the files it names are imported"))
            continue
        kept.append((number, text))
    return kept


def _named(root: Path, naming: str, text: str) -> list[str]:
    """Each `@path` of the line: its repository path, or '' for one that names no text file
    of the repository (outside it, in its git directory or `.ai/`, or not text)."""
    import posixpath

    out = []
    for found in _REFERENCE.findall(_CODE_SPAN.sub("", text)):
        token = found.rstrip(".,;:!?'\"")
        if token.startswith(("/", "~")) or "\\" in token:
            out.append("")
            continue
        path = posixpath.normpath(posixpath.join(posixpath.dirname(naming), token))
        parts = path.split("/")
        ok = ".." not in parts and ".git" not in parts and parts[0] != ".ai"
        out.append(path if ok and _text(root, path) else "")
    return out


def _text(root: Path, path: str) -> bool:
    """A file the import can read as text (within the layer limits, UTF-8, no NUL byte): one
    that is not (an image, an archive) is no instructions, and the `@path` naming it stays."""
    from mj_core import files
    from mj_core.errors import MjError
    from mj_core.limits import LAYER

    try:
        data = files.read_capped(root / path, path, LAYER)
        return b"\x00" not in data and bool(data.decode("utf-8"))
    except (OSError, MjError, UnicodeDecodeError):
        return False
