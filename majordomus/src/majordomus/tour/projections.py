"""The tour's provider-file steps: a person's actions around `majordomus update`.

Kept apart from `commands/tour.py` so that file stays a list of steps; each function has the
tour's action shape `(root, last output) -> what was done`.
"""

from __future__ import annotations

from majordomus.tour import world as tour_world

TYPE_CHECKING = False  # annotations only
if TYPE_CHECKING:
    from pathlib import Path


def commit_provider_files(root: Path, last: str) -> str:
    """Commit what `update` wrote; the commit runs through the pre-commit hook (doctor)."""
    del last
    import subprocess  # the tour runs a real `git commit`; importing the module stays cheap

    env = tour_world.environment(tour_world.executable())
    subprocess.run(("git", "add", "-A"), cwd=root, env=env, check=True, capture_output=True)
    proc = subprocess.run(
        ("git", "commit", "-q", "-m", "provider files from the policy"),
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    said = "git add -A; git commit -m 'provider files from the policy'   # runs the pre-commit hook"
    return f"{said}\n{proc.stdout}{proc.stderr}git commit exit {proc.returncode}\n"


def hand_edit_claude(root: Path, last: str) -> str:
    """What a person should not do: edit a generated region by hand."""
    del last
    path = root / "CLAUDE.md"
    text = path.read_text(encoding="utf-8")
    edited = text.replace("<!-- majordomus:end -->", "Always use tabs.\n<!-- majordomus:end -->", 1)
    path.write_text(edited, encoding="utf-8")
    return "added 'Always use tabs.' inside the generated region of CLAUDE.md\n"
