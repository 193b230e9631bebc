"""The finding: what every judge emits, its two renderings, and the verdict over a stream."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mj_core.errors import InternalError
from mj_core.exitcodes import ExitCode

LEVELS = ("OK", "INFO", "WARN", "FAIL", "DRIFT", "REFUSE")
_NEEDS_REPRODUCE = ("FAIL", "DRIFT")


@dataclass(frozen=True)
class Finding:
    level: str
    category: str
    subject: str
    message: str
    reproduce: str | None = None
    code: int | None = None  # the exit code a FAIL carries when its doctrine declares one

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise InternalError(f"finding with unknown level {self.level!r}")
        if self.level in _NEEDS_REPRODUCE and not self.reproduce:
            raise InternalError(
                f"{self.level} {self.category} {self.subject} carries no reproduce command"
            )

    def replace(self, **changes: Any) -> Finding:
        """A copy with some fields changed (checked again, like a new finding)."""
        values: dict[str, Any] = {
            "level": self.level,
            "category": self.category,
            "subject": self.subject,
            "message": self.message,
            "reproduce": self.reproduce,
            "code": self.code,
        }
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
