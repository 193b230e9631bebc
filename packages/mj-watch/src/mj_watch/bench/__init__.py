"""The benchmark harness behind `majordomus bench`: measuring is watching.

`entry` runs one invocation (`session`): the targets the declaration names (`targets`), in the
current repository or a generated fixture (`scenario`, `fixture`, `fixture_history`), each
process timed by a launcher (`measure`) and sampled (`sampling`, `stats`); the run is kept and
judged against a baseline (`results`, `baseline_check`, `settings`) and shown as a table or JSON
(`report`) or as the Markdown tables between the markers of a file (`markdown`). Importing this
package imports none of them.

Imports: `mj_core`, `mj_core.declaration`, `mj_core.git`, `mj_core.stream`, `mj_core.write`,
`mj_core.yaml`, `mj_policy.layer`, `mj_policy.projection`, `mj_state`, `mj_state.ledger`,
`mj_state.records`, `mj_state.task`.
Imported by: `majordomus`.
"""
