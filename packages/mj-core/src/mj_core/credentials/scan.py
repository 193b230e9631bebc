"""The detector library, `detect-secrets`, run on the lines the gate passed.

Imported only when a text has such lines (the library costs about 170 ms to import). Every
plugin the library ships is used, with its default settings, except the two in `LEFT_OUT`. Each
plugin's own search (`analyze_string`) runs on each line; its network verification never does.
The keyword plugin runs with the regexes the library keeps for a source file's type, or, for
text that is no such file (a prompt, a record's body, notes, docs), with all of them. The
library's false-positive filters (a sequence, a UUID, an id, a template, `$VAR`, a call or index
on the right-hand side, no letter) apply to the two guessing plugins, keyword and entropy, as
the library applies them; a vendor's shape is never filtered away. A value assigned unquoted
(`NAME=value`, `key: value`) is weighed by the entropy plugin as if quoted, as the library's
config and YAML transformers do for files of those types.
"""

from __future__ import annotations

import re

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.filters import heuristic
from detect_secrets.plugins.base import BasePlugin
from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
from detect_secrets.plugins.keyword import QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP
from detect_secrets.plugins.keyword import REGEX_BY_FILETYPE
from detect_secrets.plugins.keyword import KeywordDetector
from detect_secrets.util.filetype import determine_file_type

from mj_core.credentials import gate as credentialgate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from collections.abc import Mapping
    from re import Pattern

LEFT_OUT = {
    "Public IP (ipv4)": "an address is not a credential",
    "Hex High Entropy String": "a hex string is a digest or a commit id (the tool writes them)",
}
HEURISTIC = ("Secret Keyword", "Base64 High Entropy String")
_ALL_KEYWORD_REGEXES: dict[Pattern[str], int] = {
    regex: group
    for table in (QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, *REGEX_BY_FILETYPE.values())
    for regex, group in table.items()
}
_NAME = re.compile(r"(?:^|[\s{,;(])[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*$")
_plugins: list[BasePlugin] = []


def plugins() -> list[BasePlugin]:
    """One instance of every plugin in use, with the library's defaults."""
    if not _plugins:
        classes: Mapping[str, type[BasePlugin]] = get_mapping_from_secret_type_to_class()
        _plugins.extend(cls() for kind, cls in sorted(classes.items()) if kind not in LEFT_OUT)
    return _plugins


def scan(lines: Iterable[tuple[int, str]], name: str | None) -> Iterator[tuple[int, str, str]]:
    """(line number, kind, value) of every secret the plugins find in the numbered lines."""
    keywords = _keyword_regexes(name)
    guesses = name is None or not (heuristic.is_lock_file(name) or heuristic.is_non_text_file(name))
    for number, raw in lines:
        line = raw.rstrip()
        for plugin in plugins():
            if plugin.secret_type in HEURISTIC and not guesses:
                continue
            for value in _values(plugin, line, keywords):
                if plugin.secret_type not in HEURISTIC or not _filtered(plugin, value, line):
                    yield number, plugin.secret_type, value


def _keyword_regexes(name: str | None) -> dict[Pattern[str], int]:
    """The library's keyword regexes for a source file's type (where an unquoted right-hand
    side is a name, not a value); all of them for text, notes and any other file."""
    typed = REGEX_BY_FILETYPE.get(determine_file_type(name)) if name is not None else None
    return _ALL_KEYWORD_REGEXES if typed is None else typed


def _values(plugin: BasePlugin, line: str, keywords: dict[Pattern[str], int]) -> Iterator[str]:
    if isinstance(plugin, KeywordDetector):
        yield from plugin.analyze_string(line, denylist_regex_to_group=keywords)
    elif isinstance(plugin, HighEntropyStringsPlugin):
        quoted = [*plugin.analyze_string(line), *_assigned(plugin, line)]
        yield from (v for v in quoted if _entropic(plugin, v))
    else:
        yield from plugin.analyze_string(line)


def _assigned(plugin: HighEntropyStringsPlugin, line: str) -> Iterator[str]:
    """Values assigned unquoted on `line`, each as the plugin finds it once quoted."""
    for match in re.finditer(credentialgate.OPERATOR, line):
        if _NAME.search(line, 0, match.start()):
            yield from plugin.analyze_string(f'"{match.group(1)}"')


def _entropic(plugin: HighEntropyStringsPlugin, value: str) -> bool:
    """The plugin's own test; a value with too few distinct characters cannot pass it (its
    entropy is at most their count's logarithm), and is not weighed."""
    enough = len(set(value)) > 2**plugin.entropy_limit
    return enough and plugin.calculate_shannon_entropy(value) > plugin.entropy_limit


def _filtered(plugin: BasePlugin, value: str, line: str) -> bool:
    """The library's default false-positive filters that take a secret or a line."""
    return (
        heuristic.is_sequential_string(value)
        or heuristic.is_potential_uuid(value)
        or heuristic.is_likely_id_string(value, line, plugin)
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_indirect_reference(line)
        or heuristic.is_not_alphanumeric_string(value)
    )
