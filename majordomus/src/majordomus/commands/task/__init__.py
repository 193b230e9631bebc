"""The renderers of the TASK group: `start`, `check`, `finish`, `evidence`, `plan`, `sync`,
`claims`, `verify`.

Imports: `majordomus`, `mj_core`, `mj_core.yaml`.
Imported by: `majordomus`, `majordomus.commands.context`.
"""
