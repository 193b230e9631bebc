"""Knowledge as files: the records (`notes`) and a candidate awaiting judgement (`awaiting`);
the sources declaration (`sources`) and the reference graph compiled from the repository's
files (`index`: `extract`, `mdlinks`, `graph`, kept in `cache`, listed by `listing`).

Imports: `mj_core`, `mj_core.git`, `mj_core.schema`, `mj_core.stream`, `mj_core.write`,
`mj_core.yaml`.
Imported by: `majordomus`, `mj_knowledge`, `mj_state`, `mj_watch`.
"""
