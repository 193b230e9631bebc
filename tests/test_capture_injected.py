"""The prompt archive holds the person's words only.

Gemini CLI 0.61, run headless (`gemini -p`), puts what the SessionStart hooks answered in front
of the person's prompt, and its BeforeAgent hook hands that text on as the prompt:
`<hook_context>{the hooks' additionalContext, < and > escaped}</hook_context>` then a blank line
then the prompt. The archive drops exactly that block when it carries this majordomus's
briefing, and keeps everything the person typed, a look-alike block of their own included.
"""

from __future__ import annotations

import json
import subprocess

from conftest import Repo


def shim(repo: Repo, where: str, name: str, payload: dict[str, object]) -> None:
    env = {**repo.env, "GEMINI_PROJECT_DIR": str(repo.root), "CLAUDE_PROJECT_DIR": str(repo.root)}
    done = subprocess.run(
        [str(repo.root / where / name)],
        cwd=repo.root,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done


def archived(repo: Repo) -> list[str]:
    found = sorted((repo.root / ".ai/local/prompts").glob("*.json"))
    return [json.loads(path.read_text())["prompt"] for path in found]


def briefing(repo: Repo, key: str) -> str:
    """What the SessionStart shim answered, as Gemini CLI wraps it (escaped, in its tags)."""
    env = {**repo.env, "GEMINI_PROJECT_DIR": str(repo.root)}
    payload = {"hook_event_name": "SessionStart", "session_id": key, "source": "startup"}
    done = subprocess.run(
        [str(repo.root / ".gemini/hooks/majordomus-session-start")],
        cwd=repo.root,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("# Majordomus context — ")
    return context.replace("<", "&lt;").replace(">", "&gt;")


def test_the_briefing_gemini_puts_before_the_prompt_is_not_archived(layer_repo: Repo) -> None:
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    assert layer_repo.mj("start", "tidy the readme", "--scope", "README.md").code == 0
    context = briefing(layer_repo, "g-7")
    said = "please say hi\n\n<hook_context>mine</hook_context> stays"
    for prompt in (
        f"<hook_context>{context}</hook_context>\n\n{said}",
        # another hook's context before ours, joined by a newline as the client joins them
        f"<hook_context>other hook's words\n{context}</hook_context>\n\n{said}",
    ):
        payload = {"hook_event_name": "BeforeAgent", "session_id": "g-7", "prompt": prompt}
        shim(layer_repo, ".gemini/hooks", "majordomus-capture", payload)
    assert archived(layer_repo) == [said, said]


def test_what_the_person_typed_is_kept_whatever_it_looks_like(layer_repo: Repo) -> None:
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    assert layer_repo.mj("capture", "install").code == 0
    context = briefing(layer_repo, "g-8")
    kept = [
        "<hook_context>my own note</hook_context>\n\nhello",  # no briefing of ours in it
        f"hello <hook_context>{context}</hook_context>\n\nthere",  # not in front
        f"<hook_context>{context}</hook_context>hello",  # not the client's blank line
        f"<hook_context><b>{context}</b></hook_context>\n\nhi",  # the client escapes < and >
    ]
    for prompt in kept:
        payload = {"hook_event_name": "BeforeAgent", "session_id": "g-8", "prompt": prompt}
        shim(layer_repo, ".gemini/hooks", "majordomus-capture", payload)
    # Claude Code puts nothing in front of a prompt: its text is the person's, as it came
    claude = f"<hook_context>{context}</hook_context>\n\nfrom claude"
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "c-8", "prompt": claude}
    shim(layer_repo, ".claude/hooks", "majordomus-capture", payload)
    assert sorted(archived(layer_repo)) == sorted([*kept, claude])


def test_a_prompt_that_is_only_the_injected_briefing_archives_nothing(layer_repo: Repo) -> None:
    assert layer_repo.mj("capture", "install", "--provider", "gemini").code == 0
    context = briefing(layer_repo, "g-9")
    payload = {
        "hook_event_name": "BeforeAgent",
        "session_id": "g-9",
        "prompt": f"<hook_context>{context}</hook_context>",
    }
    shim(layer_repo, ".gemini/hooks", "majordomus-capture", payload)
    assert archived(layer_repo) == []
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()
