"""`python -m mj_watch.bench …`: the benchmark without the dispatcher in front (tox, CI)."""

from __future__ import annotations

from mj_watch.bench.entry import main

raise SystemExit(main())
