"""The ledger: `.ai/local/state/ledger.jsonl`, append-only JSON Lines with a closed vocabulary.

Writers go through `append` (`mj_state.ledger.write`): the envelope (ts, event, head, branch,
by, session, task_id) is computed there, never supplied; the event must be declared in
`share/events.yaml` with its required payload keys, each of its declared type; the line is one
`write()` under an exclusive lock, chained to the line before it by `prev`
(`mj_state.ledger.chain`).
The readers (`mj_state.ledger.read`, lines; and `mj_state.ledger.scan`, verdicts) and the writer
are named here for the ledger's callers.
"""

from __future__ import annotations

from mj_state.ledger.read import Event
from mj_state.ledger.read import Line
from mj_state.ledger.read import newest_first
from mj_state.ledger.read import parse
from mj_state.ledger.read import parse_line
from mj_state.ledger.read import raw_lines
from mj_state.ledger.read import read
from mj_state.ledger.read import vocabulary
from mj_state.ledger.scan import Scan
from mj_state.ledger.scan import problem
from mj_state.ledger.scan import scan
from mj_state.ledger.scan import task_rows
from mj_state.ledger.scan import task_scan
from mj_state.ledger.write import ENVELOPE
from mj_state.ledger.write import NAME
from mj_state.ledger.write import append
from mj_state.ledger.write import envelope
from mj_state.ledger.write import open_session
from mj_state.ledger.write import path
from mj_state.ledger.write import write_chained
from mj_state.ledger.write import write_tip

__all__ = [  # the readers and the writer, named here for the ledger's callers
    "ENVELOPE",
    "NAME",
    "Event",
    "Line",
    "Scan",
    "append",
    "envelope",
    "newest_first",
    "open_session",
    "parse",
    "parse_line",
    "path",
    "problem",
    "raw_lines",
    "read",
    "scan",
    "task_rows",
    "task_scan",
    "vocabulary",
    "write_chained",
    "write_tip",
]
