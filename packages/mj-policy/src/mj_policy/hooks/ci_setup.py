"""`init --ci github|gitlab`: the CI job that runs `majordomus verify` where the worker cannot
reach, written from the shipped template (`share/ci/<name>.yml`) with this majordomus's version
pinned: `.github/workflows/majordomus.yml` or `.gitlab-ci.yml` (`mj_policy.layer.init_write`).
An existing file is never overwritten (15, naming it, `mj_policy.layer.init_judge`): a
repository's own CI file is its own to merge."""

from __future__ import annotations

TARGETS = {"github": ".github/workflows/majordomus.yml", "gitlab": ".gitlab-ci.yml"}
