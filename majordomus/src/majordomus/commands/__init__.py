"""The dispatcher's renderers: one module per command, in the folder of the command's group
(`task`, `context`, `memory`, `rules`, `system`, as `share/commands.json` groups them).

What the commands are, their options and their pipelines are declared in `share/commands.yaml`
(`mj_core.declaration.commands`); a module here only shows a command's stream. The modules
import the packages' stages and `majordomus.render`; `majordomus.cli` imports them by name.

Imports: `mj_core.declaration`.
Imported by: `majordomus`.
"""

from __future__ import annotations


def module_name(command: str) -> str:
    """The module that renders (or runs) `command`; an action renders with its parent."""
    from mj_core.declaration import one as declread

    parent = command.split(" ", 1)[0]
    for group in declread.head()["groups"]:
        if parent in group["commands"]:
            return f"majordomus.commands.{group['name'].lower()}.{parent.replace('-', '_')}"
    return f"majordomus.commands.{parent.replace('-', '_')}"  # no group: not a command
