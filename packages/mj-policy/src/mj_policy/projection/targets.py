"""A projection target on disk, judged against its own stamp and against the new output.

`verify` answers whether the file matches the stamp it carries; `judge` answers what writing
the new output would do to this file, and whether it may: `update` acts on it, and `update
--check`, doctor and watch all judge a target by it, so they cannot disagree.
"""

from __future__ import annotations

from mj_core import timing
from mj_core.yaml.strict import decode

from mj_policy.projection import region
from mj_policy.projection import stamps
from mj_policy.projection.render import file_text

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.projection.render import Rendered

# What writing would do; the last two (and `REFUSED_STATES`) are refused without --force.
MISSING = "missing"
CURRENT = "current"
STALE = "stale"  # generated and untouched, but the new output differs
RESTAMP = "restamp"  # the text is the new output; only its stamp is out of date
APPEND = "append"  # region mode: the file has no region yet
HAND_EDITED = "hand-edited"
UNSTAMPED = "unstamped"
REFUSED_STATES = (HAND_EDITED, UNSTAMPED, "unimported")  # the last: `mj_policy.adoption.handover`


class Verified:
    """Doctor's view: the generated part of a target and whether it matches its stamp."""

    __slots__ = ("actual", "generated", "stamp", "state")

    def __init__(self, state: str, stamp: stamps.Stamp | None, generated: str, actual: str) -> None:
        self.state = state  # ok | hand-edited | unstamped | no-region
        self.stamp = stamp
        self.generated = generated  # file mode: the file without the stamp line; region: body
        self.actual = actual  # the content hash of `generated`


class Judged:
    """Update's view of one target: its state, the file as it is and as it would be written."""

    __slots__ = ("new", "new_part", "old", "old_part", "rendered", "seen", "state")

    def __init__(  # noqa: PLR0917 — the NamedTuple's field order, kept
        self,
        rendered: Rendered,
        state: str,
        old: str | None,
        new: str,
        old_part: str,
        new_part: str,
        seen: Verified | None = None,
    ) -> None:
        self.rendered = rendered
        self.state = state
        self.seen = seen  # the file against its own stamp, when it has one to be judged by
        self.old = old  # the whole file as it is, None when there is no file
        self.new = new  # the whole file as update would write it
        self.old_part = old_part  # what --diff compares: the file, or in region mode its body
        self.new_part = new_part


def read(path: Path, shown: str) -> str | None:
    if not path.is_file():
        return None
    timing.count("files read")
    return decode(path.read_bytes(), shown)


def verify(text: str, mode: str, name: str) -> Verified:
    """Judge a target against its own stamp; malformed region markers raise Refused (15)."""
    if mode == "region":
        found = region.find(text, name)
        if found is None:
            return Verified("no-region", None, "", "")
        stamp, generated = found.stamp, found.body
    else:
        split = stamps.read_file_stamp(text)
        stamp, generated = split.stamp, split.covered
    actual = stamps.content_hash(generated)
    if stamp is None:
        return Verified(UNSTAMPED, None, generated, actual)
    return Verified("ok" if stamp.content == actual else HAND_EDITED, stamp, generated, actual)


def judge(rendered: Rendered, policy_file: str, old: str | None) -> Judged:
    """The state of the target as `old` holds it against the new output (malformed region
    markers raise Refused, 15)."""
    name = rendered.projection.target
    if rendered.projection.mode == "region":
        return _judge_region(rendered, old, name)
    new = file_text(rendered, policy_file)
    if not old:  # an empty file holds nothing to lose: a write a crash left empty, or a `touch`
        return Judged(rendered, MISSING, old, new, "", new)
    seen = verify(old, "file", name)
    return Judged(rendered, _state(seen, old, new, rendered), old, new, old, new, seen)


def _judge_region(rendered: Rendered, old: str | None, name: str) -> Judged:
    host = old or ""
    found = region.find(host, name)
    new = region.splice(host, found, rendered.inputs, rendered.content, rendered.generated)
    if old is None:
        return Judged(rendered, MISSING, None, new, "", rendered.generated)
    if found is None:
        return Judged(rendered, APPEND, old, new, "", rendered.generated)
    seen = verify(old, "region", name)
    state = _state(seen, old, new, rendered)
    return Judged(rendered, state, old, new, found.body, rendered.generated, seen)


def _state(seen: Verified, old: str, new: str, rendered: Rendered) -> str:
    if old == new:
        return CURRENT
    if seen.state == UNSTAMPED:
        return UNSTAMPED
    if seen.generated == rendered.generated:
        return RESTAMP
    return STALE if seen.state == "ok" else HAND_EDITED
