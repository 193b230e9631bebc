"""End to end with the real clients that have an adapter, Claude Code and Gemini CLI (testing
recipe: REAL-CLIENTS.md).

Each client comes from the npm prefix `realclients.clients()` shares with the providers' tests
(installed there once when absent, outside the repository); without npm or the registry the
test is skipped with the reason. `capture
install` wires the hooks, then `claude -p` runs against a model server on 127.0.0.1 that
records every request. What the model was told is read from the recorded requests; what the
sitting left behind is read from disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
import realclients
from conftest import Repo
from conftest import bin_dir

FAKE_KEY = "sk-ant-api03-" + "Z" * 40
CHECKPOINT = "Next: prove the briefing reaches the model"


@pytest.fixture(scope="session")
def claude() -> Path:
    """Claude Code from the real clients' shared cache (`realclients`), installed when absent."""
    return Path(realclients.binary(realclients.clients(), "claude"))


@pytest.fixture(scope="session")
def gemini() -> Path:
    return Path(realclients.binary(realclients.clients(), "gemini"))


class Recorder(BaseHTTPRequestHandler):
    """Records each request and answers as the Anthropic Messages API would, briefly."""

    seen: list[dict[str, object]]

    def log_message(self, *args: object) -> None:
        return None

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        self.seen.append({"path": self.path, "body": body})
        try:
            streaming = bool(json.loads(body).get("stream"))
        except (ValueError, AttributeError):
            streaming = False
        if "/models/" in self.path:  # Gemini (generateContent, countTokens): one candidate
            reply = json.dumps(_candidate())
            if "alt=sse" in self.path:
                self._send("text/event-stream", f"data: {reply}\r\n\r\n".encode())
            else:
                self._send("application/json", reply.encode())
        elif "count_tokens" in self.path:
            self._send("application/json", json.dumps({"input_tokens": 10}).encode())
        elif streaming:
            self._send("text/event-stream", _events())
        else:
            self._send("application/json", json.dumps(_message()).encode())

    def do_GET(self) -> None:
        self._send("application/json", b"{}")

    def _send(self, kind: str, data: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _candidate() -> dict[str, object]:
    return {
        "candidates": [
            {"content": {"parts": [{"text": "done"}], "role": "model"}, "finishReason": "STOP"}
        ],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "totalTokens": 2,
    }


def _message() -> dict[str, object]:
    return {
        "id": "msg_mock",
        "type": "message",
        "role": "assistant",
        "model": "claude-mock",
        "content": [{"type": "text", "text": "done"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


def _events() -> bytes:
    start = {**_message(), "content": [], "stop_reason": None}
    events = [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "done"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in events).encode()


@pytest.fixture
def model_server() -> tuple[str, list[dict[str, object]]]:
    seen: list[dict[str, object]] = []
    handler = type("Handler", (Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def test_claude_code_gets_the_briefing_and_the_sitting_leaves_its_record(
    layer_repo: Repo,
    claude: Path,
    model_server: tuple[str, list[dict[str, object]]],
    tmp_path: Path,
) -> None:
    url, seen = model_server
    assert layer_repo.mj("start", "prove the hooks end to end", "--scope", "README.md").code == 0
    assert layer_repo.mj("checkpoint", stdin=f"{CHECKPOINT}\n").code == 0
    assert layer_repo.mj("capture", "install").code == 0
    home = tmp_path / "client-home"
    home.mkdir()
    env = {
        **layer_repo.env,
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "00000000",  # no letter: no credential
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "PATH": f"{bin_dir()}{os.pathsep}{layer_repo.env['PATH']}",
    }
    prompt = f"hello; my deploy key is {FAKE_KEY}"
    done = subprocess.run(
        [str(claude), "-p", prompt],
        cwd=layer_repo.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    told = "\n".join(str(request["body"]) for request in seen)
    assert "prove the hooks end to end" in told  # the task
    assert "scope        README.md" in told  # its scope
    assert CHECKPOINT in told  # the latest checkpoint
    state = layer_repo.root / ".ai/local/state"
    assert list((state / "sessions-open").glob("*.yaml")) == []
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    text = record.read_text()
    assert "provider: claude-code" in text
    session = text.split("session_id: ", 1)[1].split("\n", 1)[0]
    (archived,) = (layer_repo.root / ".ai/local/prompts").glob("*.json")
    data = json.loads(archived.read_text())
    assert FAKE_KEY not in archived.read_text() and "[REDACTED]" in data["prompt"]
    assert data["episode"] == session and data["episode_link"] == "open"
    lines = [json.loads(x) for x in (state / "ledger.jsonl").read_text().splitlines()]
    stamped = [line["event"] for line in lines if line.get("session") == session]
    assert stamped[0] == "session.started" and stamped[-1] == "session.closed"
    assert "task.handed_over" in stamped
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()


def test_gemini_cli_gets_the_briefing_and_the_sitting_leaves_its_record(
    layer_repo: Repo,
    gemini: Path,
    model_server: tuple[str, list[dict[str, object]]],
    tmp_path: Path,
) -> None:
    url, seen = model_server
    assert layer_repo.mj("start", "prove the gemini hooks", "--scope", "README.md").code == 0
    assert layer_repo.mj("checkpoint", stdin=f"{CHECKPOINT}\n").code == 0
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    home = tmp_path / "client-home"
    (home / ".gemini").mkdir(parents=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "telemetry": {"enabled": False},
        "privacy": {"usageStatisticsEnabled": False},
    }
    (home / ".gemini/settings.json").write_text(json.dumps(settings))
    env = {
        **layer_repo.env,
        "HOME": str(home),
        "GOOGLE_GEMINI_BASE_URL": url,
        "GEMINI_API_KEY": "00000000",  # no letter: no credential
        "GEMINI_CLI_TRUST_WORKSPACE": "true",  # headless: the project's hooks may run
        "PATH": f"{bin_dir()}{os.pathsep}{layer_repo.env['PATH']}",
    }
    done = subprocess.run(
        # a named model: no routing classifier asks the canned server for JSON (and retries)
        [str(gemini), "-m", "gemini-2.5-flash", "-p", f"hello; my deploy key is {FAKE_KEY}"],
        cwd=layer_repo.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    told = "\n".join(str(request["body"]) for request in seen)
    assert "prove the gemini hooks" in told and "scope        README.md" in told
    assert CHECKPOINT in told
    state = layer_repo.root / ".ai/local/state"
    opened = [json.loads(x) for x in (state / "ledger.jsonl").read_text().splitlines()]
    session = next(x["session"] for x in opened if x["event"] == "session.started")
    (archived,) = (layer_repo.root / ".ai/local/prompts").glob("*.json")
    data = json.loads(archived.read_text())
    assert FAKE_KEY not in archived.read_text() and "[REDACTED]" in data["prompt"]
    assert data["episode"] == session and data["provider"] == "gemini"
    # SessionEnd is best effort in Gemini CLI (it does not wait for the hook): give it time
    import time

    for _ in range(100):
        if list((layer_repo.root / ".ai/repo/sessions").glob("*.md")):
            break
        time.sleep(0.1)
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    assert f"session_id: {session}" in record.read_text()
    assert "provider: gemini" in record.read_text()
    lines = [json.loads(x) for x in (state / "ledger.jsonl").read_text().splitlines()]
    stamped = [line["event"] for line in lines if line.get("session") == session]
    assert stamped[0] == "session.started" and stamped[-1] == "session.closed"
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()
