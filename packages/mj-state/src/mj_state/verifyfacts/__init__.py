"""`majordomus verify`'s facts: what CI judges a range of commits on, read where the worker
cannot reach — the commits of `base..head` and the paths each changes (`verifyfacts.range_facts`),
the
policy as it stood at `base` (never the head's: a change cannot weaken its own judge,
CLI-REFERENCE Decision 19), and every clone's ledger as the remote witnessed it under
`refs/majordomus/` (`published`: the chain walked, the tasks started and finished on it).
`snapshot` lays a commit's tree out in a throw-away directory through a private index, so
nothing is written to the repository. The re-runs and the judgement are `mj_watch.verify`'s.

Imports: `mj_state.finish`, `mj_state.remote`, `mj_core`, `mj_core.git`, `mj_core.stream`,
`mj_policy.layer`.
Imported by: `mj_watch`.
"""
