"""`mj-watch plan-start`: a start of a plan issue judged over its facts (`start`).

Imports: `mj_core.stream`, `mj_state.plan`.
Imported by: nothing else of the tool.
"""
