"""`capture reconcile` as facts | judge | writer: `facts` lists the orphaned prompt records and
the evidence that survives (working contexts, `session.closed` lines), `judge` links each or
refuses the ambiguous, `write` links them after gathering and judging again.

Imports: `mj_state.capture`, `mj_state.capture.prune`, `mj_core`, `mj_core.stream`.
Imported by: nothing else of the tool.
"""
