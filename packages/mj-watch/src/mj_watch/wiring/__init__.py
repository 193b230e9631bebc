"""Whether each declared enforcement really runs: git's hook files (`files`), the static proof of a
hook (`prove`, `evaluate`, `step`, `loop`, `state`, `walking`, `target`, `call`, `commands`),
pre-commit, toolchain files and CI (`precommit`, `toolchain`, `ci_call`), the proof by running
(`proving`), and the judge (`check`).
"""
