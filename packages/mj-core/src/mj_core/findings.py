"""The finding: what every judge emits, its two renderings, and the verdict over a stream."""

from __future__ import annotations

from mj_core.errors import InternalError
from mj_core.exit_codes import ExitCode

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

LEVELS = ("OK", "INFO", "WARN", "FAIL", "DRIFT", "REFUSE")
_NEEDS_REPRODUCE = ("FAIL", "DRIFT")


_FIELDS = ("level", "category", "subject", "message", "reproduce", "code", "path")


class Finding:
    """One judgement; immutable, compared and hashed by its fields."""

    __slots__ = _FIELDS

    level: str
    category: str
    subject: str
    message: str
    reproduce: str | None
    code: int | None  # the exit code a FAIL carries when its doctrine declares one
    path: str | None  # the repository file it is about, where a report locates it (CI annotations)

    def __init__(  # noqa: PLR0917 - the positional order is the public constructor's
        self,
        level: str,
        category: str,
        subject: str,
        message: str,
        reproduce: str | None = None,
        code: int | None = None,
        path: str | None = None,
    ) -> None:
        if level not in LEVELS:
            raise InternalError(f"finding with unknown level {level!r}")
        if level in _NEEDS_REPRODUCE and not reproduce:
            raise InternalError(f"{level} {category} {subject} carries no reproduce command")
        init = object.__setattr__  # the class refuses assignment; only `__init__` sets fields
        init(self, "level", level)
        init(self, "category", category)
        init(self, "subject", subject)
        init(self, "message", message)
        init(self, "reproduce", reproduce)
        init(self, "code", code)
        init(self, "path", path)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Finding is immutable: cannot assign {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Finding is immutable: cannot delete {name!r}")

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Finding], tuple[object, ...]]:
        return (Finding, self._fields())  # copy and pickle rebuild through the constructor

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"Finding({inner})"

    def replace(self, **changes: Any) -> Finding:
        """A copy with some fields changed (checked again, like a new finding)."""
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        return Finding(**values)

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "finding",
            "level": self.level,
            "category": self.category,
            "subject": self.subject,
            "message": self.message,
            "reproduce": self.reproduce,
        }
        if self.code is not None:
            out["code"] = self.code
        if self.path is not None:
            out["path"] = self.path
        return out

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Finding:
        return cls(
            level=record["level"],
            category=record["category"],
            subject=record["subject"],
            message=record["message"],
            reproduce=record.get("reproduce"),
            code=record.get("code"),
            path=record.get("path"),
        )

    def text(self) -> str:
        return render_text(self.record())


def render_text(record: dict[str, Any]) -> str:
    """`<LEVEL> <category> <subject> — <message>  [reproduce: <command>]`."""
    line = (
        f"{record['level']:<4} {record['category']:<11} {record['subject']} — {record['message']}"
    )
    if record.get("reproduce") and record["level"] != "OK":
        line += f"  [reproduce: {record['reproduce']}]"
    return line


def verdict(records: Iterable[dict[str, Any] | Finding]) -> ExitCode:
    """Any FAIL → its code (10 by default); else any DRIFT → 11; else 0."""
    fail: ExitCode | None = None
    drift = False
    for item in records:
        rec = item.record() if isinstance(item, Finding) else item
        if rec.get("kind", "finding") != "finding":
            continue
        if rec["level"] == "FAIL" and fail is None:
            fail = ExitCode(rec.get("code") or ExitCode.CONTRACT_UNMET)
        elif rec["level"] == "DRIFT":
            drift = True
    if fail is not None:
        return fail
    return ExitCode.DRIFT_FOUND if drift else ExitCode.OK


def counts(records: Iterable[dict[str, Any]]) -> dict[str, int]:
    out = {level: 0 for level in LEVELS}
    for rec in records:
        if rec.get("kind") == "finding":
            out[rec["level"]] += 1
    return out
