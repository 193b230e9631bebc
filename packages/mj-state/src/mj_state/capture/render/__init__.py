"""`capture render` as facts | judge | writer: `facts` lists the archive's records and whether
each has its rendering, `judge` names the renderings to rebuild, `write` rebuilds them from the
records after listing and judging again.

Imports: `mj_state.capture`, `mj_state.capture.prune`, `mj_core`, `mj_core.stream`,
`mj_core.write`.
Imported by: nothing else of the tool.
"""
