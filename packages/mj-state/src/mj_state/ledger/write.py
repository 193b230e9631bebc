"""The ledger's writer: one event line appended, its envelope computed here and never supplied,
chained to the line before it under the ledger's lock (`mj_state.ledger.store` describes the file
and
names this module's functions for its callers).

A hook that records one line (a refused tool call) imports this module alone: none of the
readers, no YAML unless an episode is open, and no git process where git's files answer
(`mj_core.git.where`).
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core import clock
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import InternalError
from mj_core.errors import MjError
from mj_core.stream import jsonl

from mj_state.ledger import chain

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

ENVELOPE = ("ts", "event", "head", "branch", "by", "session", "task_id", "prev")
NAME = "ledger.jsonl"


def path(state_dir: Path) -> Path:
    return state_dir / NAME


def append(
    root: Path,
    state_dir: Path,
    event: str,
    payload: dict[str, Any],
    *,
    task_id: str | None = None,
    where: dict[str, Any] | None = None,
    moment: int | None = None,
    session: str | None = None,
) -> dict[str, Any]:
    """Append one event line and return it. `where` may pass identity already computed,
    `moment` the time the caller recorded (so a record and its line name the same second), and
    `session` the episode a session writer acts on (else the one open for this process)."""
    line = envelope(
        root,
        state_dir,
        event,
        payload,
        task_id=task_id,
        where=where,
        moment=moment,
        session=session,
    )
    write_chained(path(state_dir), line)
    return line


def write_chained(ledger: Path, line: dict[str, Any]) -> bytes:
    """Append `line` with its `prev` under the ledger's lock, the tip written around it.

    Refused (10) when the ledger's end is not the one `ledger.tip` vouches for: chaining after
    a changed line would seal the change in. A write that fails or comes up short is undone.
    """
    from mj_core.write import atomic  # the writers' module: a judge that only reads never loads it

    tip_path = ledger.with_name(chain.TIP)
    with atomic.locked(ledger) as fd:
        size = os.fstat(fd).st_size
        last, offset = _last_line(fd, size)
        _refuse_unvouched(ledger, _read_tip(tip_path), tip_path.exists(), size, last)
        line["prev"] = chain.prev_after(last, _value(last), only=offset == 0)
        encoded = jsonl.dumps(line)
        data = encoded
        if last is not None and not _ends_with_newline(fd, size):
            data = b"\n" + encoded  # a torn last line stays its own (malformed) line
        done = chain.digest(last) if last is not None else ""
        pending = chain.digest(encoded[:-1])
        _write_tip(tip_path, chain.Tip(size, done, size + len(data), pending))
        _write_all(fd, ledger, size, data)
        _write_tip(tip_path, chain.Tip(size + len(data), pending))
    return encoded


def end(ledger: Path) -> str:
    """The ledger's end as `<size>:<last line's digest>` (`0:` when there is none): what a
    writer compares, before it writes, with the end its facts saw."""
    try:
        fd = os.open(ledger, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return "0:"
    try:
        size = os.fstat(fd).st_size
        last, _ = _last_line(fd, size)
    finally:
        os.close(fd)
    return f"{size}:{chain.digest(last) if last is not None else ''}"


def _last_line(fd: int, size: int) -> tuple[bytes | None, int]:
    """(the ledger's last line without its newline, its offset); (None, 0) when empty."""
    if size == 0:
        return None, 0
    chunk = 4096
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        body = data[:-1] if data.endswith(b"\n") else data
        cut = body.rfind(b"\n")
        if cut != -1 or start == 0:
            return body[cut + 1 :], start + cut + 1
        chunk *= 4


def _ends_with_newline(fd: int, size: int) -> bool:
    return os.pread(fd, 1, size - 1) == b"\n"


def _value(last: bytes | None) -> object:
    """The last line's value when it may be a seal (the only line the appender reads)."""
    if last is None or chain.SEAL.encode() not in last:
        return None
    try:
        return jsonl.loads_line(last)
    except ValueError:
        return None


def _read_tip(tip_path: Path) -> chain.Tip | None:
    try:
        data = tip_path.read_bytes()
    except FileNotFoundError:
        return None
    return chain.parse_tip(data)


def _refuse_unvouched(
    ledger: Path, tip: chain.Tip | None, present: bool, size: int, last: bytes | None
) -> None:
    digest = chain.digest(last) if last is not None else ""
    if tip is not None and tip.vouches(size, digest):
        return
    if tip is not None and last is not None and tip.vouches(size, chain.earlier(last)):
        return  # a tip an earlier build wrote
    if tip is None and not present and (last is None or b'"prev":' not in last):
        return  # an empty ledger, or one written before the chain: this line seals it
    raise ContractUnmet(
        f"{ledger.name}: its newest line is not the one {chain.TIP} vouches for — the ledger was "
        "changed outside majordomus; nothing was appended (see `majordomus history --validate`)"
    )


def _write_tip(tip_path: Path, tip: chain.Tip) -> None:
    from mj_core.write import atomic

    atomic.create(tip_path, tip.render(), mode=0o600, replace=True, durable=False)


def write_tip(ledger: Path, tip: chain.Tip) -> None:
    """Publish the tip of `ledger` (the caller holds the ledger's lock)."""
    _write_tip(ledger.with_name(chain.TIP), tip)


def _write_all(fd: int, ledger: Path, size: int, data: bytes) -> None:
    """One `write()` of `data`; on failure or a short write the file is cut back to `size`
    and the write refused (15: a full disk or a size limit is the world's fault)."""
    from mj_core.write import atomic

    atomic.write_at_end(fd, data, size, ledger.name)


def envelope(
    root: Path,
    state_dir: Path,
    event: str,
    payload: dict[str, Any],
    *,
    task_id: str | None = None,
    where: dict[str, Any] | None = None,
    moment: int | None = None,
    session: str | None = None,
) -> dict[str, Any]:
    """The full line for `event`: envelope first, then the payload (`prev`, the chain's link,
    is added last, under the lock, by `write_chained`). Tool bugs → 13."""
    _check(event, payload)
    if where is None:
        from mj_core.git import where as gitwhere

        _, head, branch = gitwhere.where(root)
        where = {"head": head, "branch": branch or "DETACHED"}
    line: dict[str, Any] = {
        "ts": clock.iso(clock.now() if moment is None else moment),
        "event": event,
        "head": where.get("head") or "",
        "branch": where.get("branch") or "DETACHED",
        "by": f"majordomus/{share.version()}",
    }
    if session is None:
        session = open_session(root, state_dir)
    if session:
        line["session"] = session
    if task_id:
        line["task_id"] = task_id
    line.update(payload)
    return line


def _check(event: str, payload: dict[str, Any]) -> None:
    from mj_state.ledger.read import vocabulary
    from mj_state.ledger.typed import mistyped

    spec = vocabulary().get(event)
    if spec is None:
        raise InternalError(f"ledger: event {event!r} is not declared in share/events.yaml")
    for key in payload:
        if key in ENVELOPE:
            raise InternalError(f"ledger: {event} payload key {key!r} collides with the envelope")
    missing = [key for key in spec.required if key not in payload]
    if missing:
        raise InternalError(f"ledger: {event} payload lacks required key(s) {', '.join(missing)}")
    wrong = mistyped({**payload, "event": event})  # what a reader would withhold is never written
    if wrong is not None:
        raise InternalError(f"ledger: {wrong}")


def open_session(root: Path, state_dir: Path) -> str | None:
    """The id of the episode open in this checkout for this process, or None.

    The provider session named in the environment, else the `session-current.yaml` pointer; a
    record that cannot be read or belongs to another worktree is no open episode here.
    """
    from mj_state.session import store as sessions

    key = sessions.here_key(state_dir)
    if key is None:
        return None
    candidate = sessions.open_path(state_dir, key)
    from mj_core.yaml import strict as yamlstrict

    try:
        data = yamlstrict.load_file(candidate).data
    except (MjError, OSError):  # an unreadable episode is no episode; recover reports it
        return None
    if not isinstance(data, dict) or str(data.get("worktree", root)) != str(root):
        return None
    session = data.get("session_id")
    return session if isinstance(session, str) else None
