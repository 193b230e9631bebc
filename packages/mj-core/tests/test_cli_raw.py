"""A renderer stage writes its text records verbatim; every other stage writes JSON Lines."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from io import BytesIO
from io import StringIO

from mj_core.cli import tool_main
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mj_core.cli import Record  # an annotation-only alias: it does not exist at run time


def _text(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield {"kind": "text", "text": "# heading\nline\n"}


DECLARED = {"raw": {"help": "text", "options": []}, "lines": {"help": "json", "options": []}}


def test_raw_stage_writes_text_and_other_stages_json_lines() -> None:
    table = {"raw": Stage(_text, raw=True), "lines": Stage(_text)}

    def run(name: str) -> bytes:
        out = BytesIO()
        code = tool_main("t", "d", table, [name], stdout=out, stderr=StringIO(), declared=DECLARED)
        assert code == 0
        return out.getvalue()

    assert run("raw") == b"# heading\nline\n"  # text for a person: no summary line after it
    text, summary = run("lines").splitlines()
    assert text == b'{"kind":"text","text":"# heading\\nline\\n"}'
    assert summary == b'{"kind":"summary","stage":"t lines","exit":0,"counts":{"text":1}}'
