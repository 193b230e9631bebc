"""The git remote as coordinator and forward-only witness: every line of code that talks to the
remote or publishes to it lives in this folder, and nothing on a hook's path imports it.

What it does: `majordomus sync` (`remote.sync_facts` | `remote.sync_judge` | `remote.sync_write`)
publishes this clone's
ledger as a chain of commits under `refs/majordomus/ledger/<clone-id>`, renews and releases its
claims, and mirrors every clone's claims; `start`, `plan start`, `adr propose` and `finish` take
and release claims through `hooks` (`claims` does the compare-and-swap); `majordomus claims`
lists them (`remote.claim_list`). The policy's block is read by `remote.config`, the layout of the
refs is
`layout`, the claim document `remote.claim_doc`, the published ledger `segment`, this clone's id
`clone`, its own claims and the mirror's file `held`, what the store holds `reading`, the
private object store every git command runs in `store`, and the network calls — each bounded
by `remote.timeout`, run by `mj_core.git.run` with its scrubbed environment and safe settings —
`transport`. The compare-and-swap is git's own
(`git push --atomic --force-with-lease=<ref>:<expected>`), never a lock file on the remote.

What it never does: run from `check`, `finish --check`, `context`, `doctor` or a client hook.
Those read the last sync's mirror through `mj_state.mirror`, which lives outside this folder on
purpose (reading one JSON file is not remote code) and never imports it
(`tests/test_startup_imports.py` holds them to that). Without `remote:` in the policy nothing
here runs and no command opens a connection.

Imports: `mj_state`, `mj_state.ledger`, `mj_core`, `mj_core.git`, `mj_core.stream`,
`mj_core.write`, `mj_policy.layer`.
Imported by: `mj_state`, `mj_state.checkpoint`, `mj_state.finish`, `mj_state.plan`,
`mj_state.records`, `mj_state.task`, `mj_state.verifyfacts`.
"""
