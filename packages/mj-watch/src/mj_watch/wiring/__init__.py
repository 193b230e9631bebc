"""Whether each declared enforcement really runs: git's hook files (`files`), the static proof of a
hook (`prove`, `evaluate`, `step`, `loop`, `state`, `walking`, `target`, `call`, `commands`),
pre-commit, toolchain files and CI (`precommit`, `toolchain`, `ci_call`), the proof by running
(`proving`), and the judge (`check`).

Imports: `mj_watch.doctor`, `mj_watch.shell`, `mj_core`, `mj_core.git`, `mj_policy.hooks`.
Imported by: `mj_watch.doctor`, `mj_watch.doctrine`.
"""
