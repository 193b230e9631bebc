"""Records read from a file or stdin, held to their kind's schema before a stage sees them.

A stage fed in-process gets records its upstream stage built; a stage fed a file or stdin gets
whatever someone wrote — a saved facts file edited by hand, a truncated pipe. Every record whose
`kind` has a schema under `share/schemas/pipeline/` is validated against it, so a wrong shape is
refused (10) with one line naming the input, the record and the field, instead of reaching a
judge that would break on it. An `append` record (a ledger line for `mj-state log` to write)
of an event its schema does not list — one only the tool's own commands write (a finish, a
decision, a released stop) — is refused (15) naming the event. jsonschema is imported only
here, and only when such input arrives: the in-process compositions on the hook path never pay
for it.
"""

from __future__ import annotations

from functools import cache

from mj_core import files
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


@cache
def _validator(kind: str) -> Any:
    try:
        data = files.read_bytes(share.path("schemas", "pipeline", f"{kind}.json"))
    except FileNotFoundError:  # a kind no tool writes: a stage that takes it judges it
        return None
    from jsonschema.validators import Draft202012Validator

    return Draft202012Validator(jsonl.loads_line(data))


def checked(records: Iterable[Record], name: str) -> Iterator[Record]:
    """`records` unchanged, each first held to its kind's schema (a wrong shape → 10)."""
    for number, record in enumerate(records, start=1):
        kind = record.get("kind")
        validator = _validator(kind) if isinstance(kind, str) and kind.isidentifier() else None
        if validator is not None:
            if kind == "append":
                _owed(validator.schema, record, name, number)
            problem = _first_problem(validator, record)
            if problem is not None:
                what = f"{kind} {record.get('fact')!r}" if kind == "fact" else kind
                raise ContractUnmet(f"{name}: record {number} ({what}): {problem}")
        yield record


def _owed(schema: Record, record: Record, name: str, number: int) -> None:
    """An `append` record's event is one a stage hands the ledger's writer; else 15."""
    owed = ((schema.get("properties") or {}).get("event") or {}).get("enum") or []
    event = record.get("event")
    if event not in owed:
        raise Refused(
            f"{name}: record {number}: event {event!r} is not a line a stage hands the ledger's "
            "writer (only the tool's own commands write it) — refused, nothing appended"
        )


def _first_problem(validator: Any, record: Record) -> str | None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(record))
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path)
    message = str(error.message).splitlines()[0][:160]
    return f"{where}: {message}" if where else message
