"""A renderer stage writes its text records verbatim; every other stage writes JSON Lines."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from io import BytesIO
from io import StringIO

from mj_core.cli import Context
from mj_core.cli import Stage
from mj_core.cli import tool_main

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mj_core.cli import Record  # an annotation-only alias: it does not exist at run time


def _text(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield {"kind": "text", "text": "# heading\nline\n"}


def _none(parser: argparse.ArgumentParser) -> None:
    del parser


def test_raw_stage_writes_text_and_other_stages_json_lines() -> None:
    table = {
        "raw": Stage("text", _none, _text, raw=True),
        "lines": Stage("json", _none, _text),
    }
    out = BytesIO()
    assert tool_main("t", "d", table, ["raw"], stdout=out, stderr=StringIO()) == 0
    assert out.getvalue() == b"# heading\nline\n"
    out = BytesIO()
    assert tool_main("t", "d", table, ["lines"], stdout=out, stderr=StringIO()) == 0
    assert out.getvalue() == b'{"kind":"text","text":"# heading\\nline\\n"}\n'
