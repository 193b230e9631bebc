"""The renderers of the CONTEXT group: `session`, `context`, `checkpoint`, `handover`.

Imports: `majordomus`, `majordomus.commands.task`, `mj_core`.
Imported by: nothing else of the tool.
"""
