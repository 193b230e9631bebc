"""Every command and tool stage, declared once (`share/commands.yaml`), read as data.

`share/commands.json` is that file generated as JSON (`python -m mj_core.declaration.generate`),
read here
in well under a millisecond: the dispatcher's parser, each tool's parser, `--pipeline`,
docs/CLI.md and the benchmark's targets are all built from it, so an option, its help and a
composition exist in one place only. `Option` turns one declared option into an argparse
argument and its parsed value back into argv, which is how a composition forwards the
options a person gave to the stage that reads them: by the declaration, never by a
hand-written translator.
"""

from __future__ import annotations

from functools import cache

from mj_core import files
from mj_core import share
from mj_core.english import argparse
from mj_core.errors import InternalError
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

FILE = "commands.json"


@cache
def declaration() -> Record:
    """The whole declaration (a broken install → 13)."""
    try:
        data: Record = jsonl.loads_line(files.read_bytes(share.path(FILE)))
    except (OSError, ValueError) as exc:
        raise InternalError(f"share/{FILE}: {exc} — broken install") from None
    return data


@cache
def commands() -> dict[str, Record]:
    """Command name (`decision add` for an action) → its declaration, in usage order."""
    return {str(entry["name"]): entry for entry in declaration()["commands"]}


def public() -> list[str]:
    """The commands `majordomus --help` lists, in usage order (actions are their parent's)."""
    from mj_core.declaration import one as declread

    return [name for group in declread.head()["groups"] for name in group["commands"]]


def names() -> dict[str, int]:
    """Every declared command's name, in usage order (`commands()` without their bodies)."""
    from mj_core.declaration import one as declread

    return declread.names()


def value_flags() -> list[str]:
    """Every option flag of any command that takes a value (`--budget-lines`, not `--json`)."""
    from mj_core.declaration import one as declread

    return list(declread.head()["value_flags"])


def command(name: str) -> Record:
    """One command's declaration, read without the others (`mj_core.declaration.one`)."""
    from mj_core.declaration import one as declread

    found = declread.command(name)
    if found is None:
        raise InternalError(f"share/{FILE}: no command {name!r}")
    return found


def outcomes() -> tuple[str, ...]:
    from mj_core.declaration import one as declread

    return tuple(declread.head()["outcomes"])


@cache
def stages(tool: str) -> dict[str, Record]:
    """A tool's stages: name → declaration with every option it reads (its own, and each a
    command's pipeline forwards to it), in the order they were declared; found from every
    command here, where `stage` takes what the generator wrote beside the stage."""
    every = list(commands().values())
    return {
        str(entry["name"]): _merged(entry, forwarded(entry, every))
        for entry in declaration()["stages"]
        if entry["tool"] == tool
    }


def stage(tool: str, name: str) -> Record | None:
    """`stages(tool)[name]` (None: no such stage), read from the stage's own line: the
    options commands forward to it are written there (`forwarded`), so no other command's
    declaration is decoded for it."""
    from mj_core.declaration import one as declread

    entry = declread.stage(tool, name)
    if entry is None:
        return None
    written = entry.get("forwarded")
    if not isinstance(written, list):
        raise InternalError(
            f"share/{FILE}: stage {tool} {name} carries no forwarded options — broken install "
            "(run `python -m mj_core.declaration.generate`)"
        )
    return _merged(entry, written)


def _merged(entry: Record, extra: list[Record]) -> Record:
    own = list(entry.get("options") or [])
    return {**{k: v for k, v in entry.items() if k != "forwarded"}, "options": own + extra}


def forwarded(entry: Record, every: list[Record]) -> list[Record]:
    """The options the commands in `every` forward to the stage `entry` that it does not
    declare itself: each once, in the order the commands and their steps name them."""
    target = [entry["tool"], entry["name"]]
    known = {o["name"] for o in entry.get("options") or []}
    found: list[Record] = []
    for spec in every:
        declared = {o["name"]: o for o in spec.get("options") or []}
        for step in spec.get("pipeline") or []:
            if list(step["stage"][:2]) != target:
                continue
            for name in step.get("forward") or []:
                if name not in known:
                    found.append(declared[name])
                    known.add(name)
    return found


class Option:
    """One declared option: added to a parser, and rendered back into argv from its value."""

    __slots__ = ("spec",)

    def __init__(self, spec: Record) -> None:
        self.spec = spec

    @property
    def name(self) -> str:
        return str(self.spec["name"])

    @property
    def flag(self) -> str | None:
        flag = self.spec.get("flag")
        return str(flag) if flag else None

    def add(self, parser: Any) -> None:
        """Add this option to `parser` (or a mutually exclusive group of it)."""
        spec, kwargs = self.spec, self._kwargs()
        if self.flag is None:
            nargs = spec.get("nargs")
            if nargs is not None:
                kwargs["nargs"] = nargs
            parser.add_argument(self.name, **kwargs)
            return
        parser.add_argument(self.flag, dest=self.name, **kwargs)

    def _kwargs(self) -> Record:
        spec = self.spec
        kind = spec.get("kind", "flag" if spec.get("flag") else "value")
        kwargs: Record = {"help": spec.get("help")}
        if spec.get("metavar"):
            kwargs["metavar"] = spec["metavar"]
        if kind == "flag":
            kwargs["action"] = "store_true"
            return kwargs
        if spec.get("required") and self.flag is not None:
            kwargs["required"] = True
        if "default" in spec:
            kwargs["default"] = spec["default"]
        if kind in ("positive", "count"):
            kwargs["type"] = _whole(1 if kind == "positive" else 0)
        elif kind == "repeat":
            kwargs["action"] = "append"
            if spec.get("type") in ("positive", "count"):
                kwargs["type"] = _whole(1 if spec["type"] == "positive" else 0)
        choices = spec.get("choices")
        if choices is not None:
            kwargs["choices"] = list(outcomes()) if choices == "@outcomes" else list(choices)
        return kwargs

    def argv(self, value: Any) -> list[str]:
        """This option as it would be typed, for `value` (nothing when it is not set)."""
        if value is None or value is False or value == []:
            return []
        if self.flag is None:
            return [str(v) for v in value] if isinstance(value, list) else [str(value)]
        if value is True:
            return [self.flag]
        if isinstance(value, list):
            return [part for item in value for part in (self.flag, str(item))]
        return [self.flag, str(value)]


def _whole(least: int) -> Any:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < least:
            raise argparse.ArgumentTypeError(f"{text!r}: a whole number ≥ {least} is expected")
        return int(text)

    parse.__name__ = "number"
    return parse


def add_options(parser: argparse.ArgumentParser, specs: list[Record]) -> None:
    """Add every option of `specs` to `parser`, each exclusive group as one argparse group."""
    groups: dict[str, Any] = {}
    for spec in specs:
        target: Any = parser
        group = spec.get("exclusive")
        if group:
            target = groups.get(group)
            if target is None:
                target = groups[group] = parser.add_mutually_exclusive_group()
        Option(spec).add(target)


def stage_argv(step: Record, spec: Record, values: Any, *, json_output: bool) -> list[str]:
    """One pipeline step of command `spec` as argv: its fixed words (`@format`, `{name}`
    filled in), then each forwarded option as given (positionals last)."""
    fixed = [_fill(str(word), values, json_output=json_output) for word in step["stage"]]
    declared = {o["name"]: Option(o) for o in spec.get("options") or []}
    flagged: list[str] = []
    positional: list[str] = []
    for name in step.get("forward") or []:
        option = declared[name]
        words = option.argv(getattr(values, name, None))
        (positional if option.flag is None else flagged).extend(words)
    if any(word.startswith("-") for word in positional):
        positional.insert(0, "--")
    return [*fixed, *flagged, *positional]


def _fill(word: str, values: Any, *, json_output: bool) -> str:
    if word == "@format":
        return "json" if json_output else "text"
    if word.endswith("}") and "{" in word:  # `{name}`, or `--flag={name}` for any value
        head, _, name = word[:-1].partition("{")
        return head + str(getattr(values, name))
    return word


def steps(spec: Record, values: Any) -> list[Record]:
    """The pipeline steps of `spec` that run for these parsed options (`when`, `unless`)."""
    return [
        step
        for step in spec.get("pipeline") or []
        if (not step.get("when") or getattr(values, str(step["when"]), None))
        and not (step.get("unless") and getattr(values, str(step["unless"]), None))
    ]
