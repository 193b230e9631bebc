"""Prompt assets `.ai/repo/prompts/<name>.md` (`assets`) and their stages (`stages`).

Imports: `mj_policy.layer`, `mj_core`, `mj_core.stream`, `mj_core.yaml`.
Imported by: `mj_context`, `mj_state`, `mj_watch`.
"""
