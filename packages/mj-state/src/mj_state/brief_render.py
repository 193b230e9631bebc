"""`mj-context render`: the built briefing as text for a person or one JSON document. The
stage is `mj-context`'s; the module is here because a session's working context stores the
briefing as this text (`mj_state.session.start`), and the prompt archive knows its first line.

Both forms come from the same records, so they carry the same selection. A FAIL finding in the
stream (the budget could not be met) is not printed: after the briefing, the stage ends with
that message and exit 10.

Every line either form prints goes through `mj_core.sanitise`, the one sanitiser: control
characters and terminal escape sequences are removed, a line is cut at `limits.BRIEFING_LINE`
characters, and a line of stored text (a section's body) that would read as a heading is
indented — so a record cannot forge a section (`## GIT`) or drive the reader's terminal, and
the line count the budget reports is the count of lines printed.
"""

from __future__ import annotations

from mj_core import sanitise
from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError
from mj_core.limits import BRIEFING_LINE
from mj_core.stream.stage import Stage

HEAD = "# Majordomus context — "  # the briefing's first line, then when it was built

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

DISCLAIMER = (
    "# a projection of durable state, not a source of truth: validate every line against git"
)
TOP_LEVEL = ("git", "task")  # carried as objects in the JSON form, not as sections
COUNTED = ("always", "import")  # what a client puts into every conversation, wherever it works
SHOWN = 4  # the other files the --for header names before it counts the rest


class Briefing:
    def __init__(self, stream: Iterable[Record]) -> None:
        self.head: Record = {}
        self.sections: list[Record] = []
        self.excluded: list[Record] = []
        self.budget: Record = {}
        self.failures: list[Record] = []
        self.loads: list[Record] = []  # the --for provider's load receipt (`brief-receipt`)
        for record in stream:
            kind = record.get("kind")
            if kind == "briefing":
                self.head = record
            elif kind == "section":
                self.sections.append(record)
            elif kind == "excluded":
                self.excluded.append(record)
            elif kind == "budget":
                self.budget = record
            elif kind == "finding" and record.get("level") == "FAIL":
                self.failures.append(record)
            elif kind == "load":
                self.loads.append(record)

    def provider(self, name: str | None) -> Record | None:
        if name is None:
            return None
        projections = self.head.get("projections") or []
        for projection in projections:
            if projection.get("provider") == name:
                return _received(dict(projection), [r for r in self.loads if r["provider"] == name])
        known = ", ".join(str(p.get("provider")) for p in projections) or "none"
        raise UsageError(f"--for {name}: no projection for that provider in the policy ({known})")


def _received(provider: Record, loads: list[Record]) -> Record:
    """The provider as its load receipt has it, when there is one: whether its client loads
    its file into every conversation (or finds it on disk at all), and every file the client
    puts into every conversation, in the order it assembles them."""
    if not loads:
        return provider
    own = next((r for r in loads if r["path"] == provider["target"]), None)
    provider["always_loaded"] = own is not None and own["loaded"] and own["why"] == "always"
    provider["on_disk"] = own is not None and own["lines"] is not None
    provider["loads"] = [r["path"] for r in loads if r["loaded"] and r["why"] in COUNTED]
    return provider


def header(provider: Record) -> str:
    """`# for P — its file F (always loaded)`, then the other files its client loads with it."""
    loaded = "always loaded" if provider.get("always_loaded") else "not always loaded"
    if provider.get("on_disk") is False:
        loaded = "not on disk: `majordomus update` writes it"
    line = f"# for {provider['provider']} — its file {provider['target']} ({loaded})"
    also = [p for p in provider.get("loads") or () if p != provider["target"]]
    if also:
        line += f"; its client also loads {', '.join(also[:SHOWN])}"
    if len(also) > SHOWN:
        line += f" and {len(also) - SHOWN} more (`majordomus receipt --for {provider['provider']}`)"
    return line


def section_lines(section: Record) -> list[str]:
    """A section as printed: its title, then each body line as stored text — except the
    heading `decision add` writes for each decision (`## <date> — <title>`), shown as the
    entry's own heading: its date cannot read as a section's name."""
    entries = section["id"] == "decisions"
    body = [
        _line(line)
        if entries and _dated(str(line))
        else sanitise.body_line(str(line), BRIEFING_LINE)
        for line in section["body"]
    ]
    return [_line(section["title"]), *body]


def _dated(line: str) -> bool:
    """`## YYYY-MM-DD — …`, the heading of a decision entry."""
    date = line[3:13]
    shaped = date[4:5] == date[7:8] == "-" and (date[:4] + date[5:7] + date[8:]).isdigit()
    return line.startswith("## ") and shaped and line[13:16] == " — " and len(line) > 16


def section_text(section: Record) -> str:
    return "\n".join(section_lines(section)) + "\n"


def _line(text: object) -> str:
    return sanitise.line(str(text), BRIEFING_LINE)


def text(brief: Briefing, provider: Record | None) -> str:
    out: list[str] = []
    if provider is not None:
        out.append(_line(header(provider)))
    out += [_line(f"{HEAD}{brief.head['generated_at']}"), DISCLAIMER, ""]
    for section in brief.sections:
        out += [*section_lines(section), ""]
    if brief.excluded:
        excluded = [_line(f"- {e['item']} — {e['reason']}") for e in brief.excluded]
        out += ["## EXCLUDED", *excluded, ""]
    out += ["## BUDGET", budget_line(brief.budget)]
    return "\n".join(out) + "\n"


def budget_line(budget: Record) -> str:
    line = f"{budget['lines']} of {budget['limit']} lines"
    if budget["dropped"]:
        line += f" (dropped: {' '.join(budget['dropped'])})"
    return line


def document(brief: Briefing, provider: Record | None) -> Record:
    out: Record = {
        "kind": "context",
        "schema": brief.head["schema"],
        "generated_at": brief.head["generated_at"],
        "git": brief.head["git"],
        "task": brief.head["task"],
        "sections": [
            {"id": s["id"], "lines": 1 + len(s["body"]), "text": section_text(s)}
            for s in brief.sections
            if s["id"] not in TOP_LEVEL
        ],
        "excluded": [{"item": e["item"], "reason": e["reason"]} for e in brief.excluded],
        "budget": {k: brief.budget[k] for k in ("lines", "limit", "dropped")},
    }
    if provider is not None:
        out["for"] = provider
    return out


def json_line(document: Record) -> str:
    from mj_core.stream import jsonl

    return jsonl.dumps(document).decode("utf-8")


def render(stream: Iterable[Record], form: str, provider_name: str | None) -> Iterator[Record]:
    brief = Briefing(stream)
    if not brief.head:
        return
    provider = brief.provider(provider_name)
    try:
        # the JSON document is a renderer's text too: one line, written verbatim, so the
        # stream keeps a `kind` on every record (share/schemas/pipeline/text.json)
        shown = json_line(document(brief, provider)) if form == "json" else text(brief, provider)
        out = {"kind": "text", "text": shown}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ContractUnmet(
            f"<stdin>: a briefing record lacks or mistypes {exc} — pipe mj-context build"
        ) from None
    yield out
    if brief.failures:
        raise ContractUnmet(f"context: {brief.failures[0]['message']}")


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return render(context.records(options.input), options.format, options.provider_for)


STAGES = {
    "render": Stage(_run, raw=True),
}
