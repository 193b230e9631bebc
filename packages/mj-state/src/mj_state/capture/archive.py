"""The prompt archive and the capture failure log (`.ai/local/prompts/`).

A provider's prompt hook hands over one JSON payload. The person's text (key `prompt`, else
`prompt_text`, else `text`) is redacted of every credential (`mj_core.credentials.detect`) before
anything is written (the record keeps how many, of which kinds; never a value), then archived
as `YYYYMMDDHHMMSS-<slug>.json` (the record) and `.md` (its rendering), both 0600 in a 0700
directory. What a client put in front of the person's words is not theirs and is dropped first
(`person_text`): Gemini CLI's block holding this majordomus's briefing. A payload from another
event is skipped, and one whose text was only that block; one already archived (same provider
prompt id) is not written twice. Anything that goes wrong
is one line in `failures.log`, never an error for the provider: a hook must not block the
person's prompt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mj_core import clock
from mj_core import ids

from mj_state import identity
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

SCHEMA = "majordomus.capture/v1"
TEXT_KEYS = ("prompt", "prompt_text", "text")
PROMPT_EVENTS = ("UserPromptSubmit", "BeforeAgent")  # Claude Code's, Gemini CLI's
FAILURES = "failures.log"
MAX_PAYLOAD = 1 << 20
_SLUG = r"[^a-z0-9]+"  # compiled on first use (a hook that archives no prompt never does)
# Gemini CLI 0.61 run headless (`gemini -p`) puts what its SessionStart hooks answered before
# the prompt, and its BeforeAgent hook hands the whole on: `<hook_context>`, the hooks'
# `additionalContext` joined by newlines with `<` and `>` escaped (so the block holds neither),
# `</hook_context>`, a blank line, then the prompt. Only a block holding the briefing this
# majordomus printed (a line beginning as its first line does) is the client's, and dropped.
INJECTING = ("gemini",)
_INJECTED = r"<hook_context>([^<>]*)</hook_context>(?:\n\n|\Z)"


def archive_dir(root: Path) -> Path:
    return root / ".ai" / "local" / "prompts"


def failure_log(root: Path) -> Path:
    return archive_dir(root) / FAILURES


def log_failure(root: Path, where: str, message: str) -> None:
    """One line in the failure log (doctor reports it while it is not empty); never raises."""
    from mj_core.write import atomic

    if not (root / ".ai").is_dir():
        return  # a repository without a layer: nothing of ours to write into
    import contextlib  # only a failure is logged: not imported on a hook run that succeeds

    line = f"{clock.iso(clock.now())} {where}: {' '.join(message.split())}\n"
    with contextlib.suppress(Exception):  # the log of last resort has nowhere else to go
        atomic.append_block(failure_log(root), line.encode(), root=root)


def probe_path(root: Path, provider: str) -> Path:
    """Where a synthetic payload's run of the shim leaves its nonce (not in the archive)."""
    return root / ".ai" / "local" / "state" / f"capture-probe-{provider}.json"


def write_probe(root: Path, provider: str, nonce: str, wiring: str) -> None:
    """What `capture status` looks for after running the installed shim (this run's nonce),
    and doctor later (the digest of the wiring the probe ran through)."""
    from mj_core.write import atomic

    now = clock.iso(clock.now())
    data = json.dumps({"provider": provider, "probe": nonce, "at": now, "wiring": wiring})
    atomic.create(probe_path(root, provider), (data + "\n").encode(), mode=0o600, replace=True)


def payload_of(raw: bytes) -> Record:
    """The payload as a mapping; anything else is a ValueError naming what it is."""
    if len(raw) > MAX_PAYLOAD:
        raise ValueError(f"payload over {MAX_PAYLOAD} bytes")
    value = json.loads(raw.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("payload is not a JSON object")
    return value


def provider_session(payload: Record) -> str | None:
    """The provider's session id when it can key an episode (a safe file name), else None."""
    value = payload.get("session_id")
    if isinstance(value, str) and re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$", value):
        return None if value == sessions.HAND else value
    return None


def archive(root: Path, provider: str, payload: Record) -> Path | None:
    """Archive the prompt of `payload`; its path, or None when there is nothing to archive."""
    event = payload.get("hook_event_name")
    if isinstance(event, str) and event not in PROMPT_EVENTS:
        return None  # not the person's prompt
    text = next((payload[k] for k in TEXT_KEYS if isinstance(payload.get(k), str)), None)
    if text is None:
        raise ValueError(f"payload carries no prompt text ({', '.join(TEXT_KEYS)})")
    text = person_text(provider, text)
    if not text:
        return None  # only what the client put there: the person said nothing
    prompt_id = payload.get("prompt_id")
    if isinstance(prompt_id, str) and _archived(root, prompt_id):
        return None
    from mj_core.credentials import detect as credentials  # loaded only when a prompt arrives

    redacted, kinds = credentials.redact(text)
    record = _record(root, provider, payload, redacted, kinds)
    return _write(root, record)


def person_text(provider: str, text: str) -> str:
    """`text` without the block a client put in front of it (`INJECTING`, `_INJECTED`), when
    that block holds this majordomus's briefing; else `text` as it came."""
    if provider not in INJECTING or not text.startswith("<hook_context>"):
        return text
    from mj_state.brief_render import HEAD  # only for a prompt that begins with a block

    match = re.match(_INJECTED, text)
    if match is None or not any(line.startswith(HEAD) for line in match.group(1).split("\n")):
        return text
    return text[match.end() :]


def _archived(root: Path, prompt_id: str) -> bool:
    needle = json.dumps(prompt_id)
    for path in sorted(archive_dir(root).glob("*.json")):
        if f'"prompt_id": {needle}' in path.read_text(encoding="utf-8", errors="replace"):
            return True
    return False


def _record(root: Path, provider: str, payload: Record, text: str, kinds: dict[str, int]) -> Record:
    moment = clock.now()
    state = root / ".ai" / "local" / "state"
    key = provider_session(payload)
    record: Record = {
        "schema": SCHEMA,
        "captured_at": clock.iso(moment),
        "provider": provider,
    }
    if key is not None:
        record["provider_session"] = key
    if isinstance(payload.get("prompt_id"), str):
        record["prompt_id"] = payload["prompt_id"]
    record.update(_episode(root, state, key))
    record["repository_id"] = str(identity.position(root)["repository_id"])
    record["worktree_id"] = identity.worktree_id(root)
    record["redacted"] = sum(kinds.values())
    record["redactions"] = kinds
    record["prompt"] = text
    return record


def _episode(root: Path, state: Path, key: str | None) -> Record:
    """`episode` and `episode_link`: the episode open for this provider session, if any."""
    if key is not None and sessions.open_path(state, key).is_file():
        try:
            data = sessions.read_open(state, key, root)
        except Exception:  # an unreadable episode leaves the prompt unlinked
            return {"episode_link": "orphan"}
        return {"episode": data["session_id"], "episode_link": "open"}
    return {"episode_link": "orphan" if key is not None else "unlinked-legacy"}


def _write(root: Path, record: Record) -> Path:
    from mj_core.write import atomic

    moment = clock.parse_iso(str(record["captured_at"])) or clock.now()
    slug = re.sub(_SLUG, "-", str(record["prompt"]).lower()).strip("-")[:40] or "prompt"
    stem = f"{clock.digits(moment)}-{slug}"
    directory = archive_dir(root)
    data = (json.dumps(record, indent=2, ensure_ascii=True) + "\n").encode()
    for attempt in range(8):
        name = stem if attempt == 0 else f"{stem}-{ids.random_hex(4)}"
        path = directory / f"{name}.json"
        if not path.exists():
            break
    atomic.create(path, data, mode=0o600, root=root)
    atomic.create(path.with_suffix(".md"), rendering(record), mode=0o600, root=root)
    return path


def rendering(record: Record) -> bytes:
    """Front matter, the fields as a table, then `## PROMPT` in a fence longer than any
    backtick run inside it."""
    fields = [(k, v) for k, v in record.items() if k != "prompt"]
    front = "".join(f"{k}: {json.dumps(v)}\n" for k, v in fields)
    cells = [(k, str(v).replace("|", "\\|")) for k, v in fields]
    table = "| field | value |\n|---|---|\n" + "".join(f"| {k} | {v} |\n" for k, v in cells)
    stone = record.get("tombstone")
    if "prompt" not in record and isinstance(stone, dict):  # pruned: the text is gone
        said = f"pruned at {stone.get('pruned_at')}: {stone.get('reason')}"
        return f"---\n{front}---\n\n{table}\n## PROMPT\n\n({said})\n".encode()
    text = str(record["prompt"])
    runs = [len(m) for m in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    body = f"---\n{front}---\n\n{table}\n## PROMPT\n\n{fence}\n{text}\n{fence}\n"
    return body.encode()
