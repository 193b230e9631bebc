"""What the dispatcher says to a small mistake, and a group's own help.

An unknown command or action is one line naming the nearest one (`did you mean start?`),
never the whole usage; `majordomus <group> --help` lists the group's actions, each with its
one line from the declaration.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice `word` most likely meant (the choices it begins, when several do), or None
    when none is near."""
    import difflib

    known = list(choices)
    starts = [choice for choice in known if choice.startswith(word) and len(word) >= 3]
    if len(starts) > 1:
        return f"{', '.join(starts[:-1])} or {starts[-1]}"
    if starts:
        return starts[0]
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_command(word: str, public: Iterable[str]) -> str:
    """The one line an unknown command gets."""
    meant = nearest(word, public)
    hint = f"did you mean {meant}?" if meant else "majordomus --help lists them"
    return f"majordomus: unknown command: {word} ({hint})"


def unknown_action(group: str, word: str, actions: list[str]) -> str:
    """The one line an unknown action of `group` gets (no `majordomus:` prefix: the funnel's)."""
    meant = nearest(word, actions)
    hint = f"did you mean {meant}?" if meant else f"its actions: {', '.join(actions)}"
    return f"{group}: unknown action {word} ({hint})"


def group_help(name: str, own: str | None, legend: str) -> str:
    """`majordomus <group> --help`: the group's own help when it runs by itself (`own`), else
    its usage line and one line; then its actions, the default marked (and `legend`, the exit
    codes, when the group's own help did not end with it)."""
    from mj_core.declaration import commands as declare

    spec = declare.command(name)
    if own is None:
        lines = [f"usage: majordomus {name} <action> [options]", "", spec["help"], ""]
    else:
        lines = [own.rstrip(), ""]
    lines.append("actions:")
    width = max(len(action) for action in spec["actions"])
    for action in spec["actions"]:
        about = declare.command(f"{name} {action}")["help"]
        mark = " (the default)" if action == spec.get("default") else ""
        lines.append(f"  {action:<{width}}  {about}{mark}")
    lines += ["", f"`majordomus {name} <action> --help` shows an action's options."]
    if own is None:
        lines += ["", legend]
    return "\n".join(lines) + "\n"
