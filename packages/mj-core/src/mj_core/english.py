"""argparse, with its messages taken as written and without importing gettext.

argparse binds gettext's `gettext` and `ngettext` when it is first imported and asks them for
every message it builds or prints. gettext's import alone compiles a plural-forms tokenizer
(about 3 M instructions), and each lookup imports `locale` and searches the file system for a
catalogue. The tool speaks English only (its help is docs/CLI.md), so argparse is imported here
while a stand-in holding those two names is `gettext` in `sys.modules`, and the stand-in is
taken away at once: a later `import gettext` loads the real module. The messages are what
gettext gives when no catalogue is installed. A process that imported argparse or gettext first
(a library) keeps its own, with argparse's two names set to the same stand-ins.
"""

from __future__ import annotations

import sys
import types

__all__ = ["argparse"]


def _as_written(message: str) -> str:
    return message


def _as_written_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _imported() -> types.ModuleType:
    if "argparse" not in sys.modules and "gettext" not in sys.modules:
        stand_in = types.ModuleType("gettext")
        vars(stand_in).update(gettext=_as_written, ngettext=_as_written_plural)
        sys.modules["gettext"] = stand_in
        try:
            import argparse
        finally:
            if sys.modules.get("gettext") is stand_in:
                del sys.modules["gettext"]
    import argparse

    vars(argparse).update(_=_as_written, ngettext=_as_written_plural)
    return argparse


TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
else:
    argparse = _imported()
