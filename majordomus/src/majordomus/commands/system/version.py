"""`majordomus version`: the installed package's version; reads no repository state.

The version is read from the installed distribution's metadata directory
(`majordomus-<version>.dist-info` on `sys.path`), found with one directory listing per path entry
rather than through `importlib.metadata`, whose import alone costs more than the whole budget of
this command.
"""

from __future__ import annotations

import os
import sys

_PREFIX = "majordomus-"
_SUFFIX = ".dist-info"


def installed() -> str:
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(_PREFIX) and name.endswith(_SUFFIX):
                return name[len(_PREFIX) : -len(_SUFFIX)]
    from importlib.metadata import version  # unusual layouts (zipped installs)

    return version("majordomus")
