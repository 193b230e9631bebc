"""Test-only: SIGKILL this process at one write point of a log record, as `kill -9` would.

`tests/test_record_crash.py` puts this directory first on `PYTHONPATH` and names the point in
`MJTEST_KILL_AT` for one tool process; any process without the variable is left alone. The
points: `ledger-before` / `ledger-after` (the record's ledger line), `publish-before` /
`publish-after` (the log file's rename or append). Only the writes of `decisions.md`,
`open-questions.md` and their three ledger events are counted.
"""

from __future__ import annotations

import os
import signal

AT = os.environ.get("MJTEST_KILL_AT", "")
LOGS = ("decisions.md", "open-questions.md")
EVENTS = ("decision.recorded", "question.opened", "question.resolved")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _install() -> None:
    from mj_core.write import appends
    from mj_core.write import atomic
    from mj_state.ledger import store as ledger
    from mj_state.ledger import write as ledgerwrite

    chained = ledgerwrite.write_chained

    def write_chained(path, line):  # type: ignore[no-untyped-def]
        ours = line.get("event") in EVENTS
        if ours and AT == "ledger-before":
            _die()
        done = chained(path, line)
        if ours and AT == "ledger-after":
            _die()
        return done

    ledger.write_chained = write_chained
    ledgerwrite.write_chained = write_chained  # what `append` calls

    def before_publish(temp, target):  # type: ignore[no-untyped-def]
        if AT == "publish-before" and os.path.basename(str(target)) in LOGS:
            _die()

    atomic._before_publish = before_publish
    create = atomic.create

    def created(path, data, **kw):  # type: ignore[no-untyped-def]
        create(path, data, **kw)
        if AT == "publish-after" and os.path.basename(str(path)) in LOGS:
            _die()

    atomic.create = created
    append = appends.append

    def appended(fd, data, shown):  # type: ignore[no-untyped-def]
        mine = os.path.basename(str(shown)) in LOGS
        if mine and AT == "publish-before":
            _die()
        size = append(fd, data, shown)
        if mine and AT == "publish-after":
            _die()
        return size

    appends.append = appended


if AT:
    _install()
