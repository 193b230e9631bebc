"""`mj-watch adr-propose`: a proposal judged over its facts (`propose`).

Imports: `mj_core.stream`, `mj_state.records`.
Imported by: nothing else of the tool.
"""
