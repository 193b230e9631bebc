"""`capture prune` as facts | judge | writer: `facts` lists the archive's records (when each
was captured and how many bytes its text holds, never the text), `judge` names the texts to
drop, `write` drops them after listing and judging again.

Imports: `mj_state.capture`, `mj_core`, `mj_core.stream`.
Imported by: `mj_state.capture.reconcile`, `mj_state.capture.render`.
"""
