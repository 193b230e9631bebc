"""Every command and stage declared once: `share/commands.yaml` generated into
`share/commands.json` (`generate`), read whole (`commands`) or one entry at a time (`one`).

Imports: `mj_core`, `mj_core.schema`, `mj_core.stream`, `mj_core.yaml`.
Imported by: `mj_core`, `majordomus`, `mj_watch`.
"""
