"""Credentials in text: the cheap gate (`gate`), the one detector (`detect`, with `detect-secrets`
run by `scan` and the shapes it has no plugin for in `shapes`), and whole-value redaction.

Imports: nothing else of the tool.
Imported by: `majordomus`, `mj_context`, `mj_knowledge`, `mj_policy`, `mj_state`, `mj_watch`.
"""
