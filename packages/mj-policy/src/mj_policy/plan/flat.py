"""A plan file read the short way: a flat issue or milestone file (`mj_core.yaml.flat`) whose
data holds to its schema (`mj_core.schema.fast`) is taken without the position of each key,
which only a problem's message needs (`plan.model.Flat` reads the file again for one); any other
file is read in full by `plan.model`.

A cold listing of thousands of issues spends most of its time there: a flat, valid file is the
common case, and for it the data is the same either way (tests hold the two readings equal).
A file over the line cap, not a regular file or not UTF-8 is left to the full reading too, which
refuses it in its own words.
"""

from __future__ import annotations

import os
import stat

from mj_core import timing
from mj_core.limits import LAYER
from mj_core.schema import fast as schemafast
from mj_core.yaml import flat as yamlflat

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

_FLAGS = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0)


def data(path: Path | str, kind: str) -> dict[str, Any] | None:
    """The data of a flat file of `kind` that holds to its schema, or None (read it in full)."""
    check = schemafast.holds(kind)
    if check is None:
        return None
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > LAYER[1]:
            return None  # no line can pass the line cap in a file this short
        raw = os.read(fd, found.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    value = yamlflat.read(text)
    if value is None or not check(value):
        return None
    timing.count("files read")
    timing.count("yaml")
    return value
