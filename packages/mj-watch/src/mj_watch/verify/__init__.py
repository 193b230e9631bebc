"""`majordomus verify`, CI's judge: the re-runs (`rerun`: every claimed completion's pinned
verification run again in a throw-away copy of the commit it names, and `doctor` and
`update --check` at head, `verify.head_layer`), the judgement (`verdict`, pure: coverage, witness,
re-proof,
layer), and the reports CI reads (`reports`: JUnit XML and SARIF 2.1.0, `junit`, `sarif`). The
facts of the range, the base policy and the published ledgers are `mj_state.verifyfacts`'s.

Imports: `mj_core`, `mj_core.git`, `mj_core.stream`, `mj_core.write`, `mj_state.finish`,
`mj_state.verifyfacts`.
Imported by: nothing else of the tool.
"""
