"""`majordomus archive`: what git's index holds by profile (`facts`), the plan judged from it
(`judge`), and the archive written (`write`) with its manifest and restore script (`file`).

Imports: `mj_core`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`, `mj_core.write`,
`mj_core.yaml`.
Imported by: nothing else of the tool.
"""
