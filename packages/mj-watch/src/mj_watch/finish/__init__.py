"""`mj-watch finish`: the finish contract (`contract`) judged over the finish facts (`judge`).

Imports: `mj_core`, `mj_core.stream`, `mj_state`, `mj_state.ledger`, `mj_state.task`.
Imported by: `mj_watch.doctrine`.
"""
