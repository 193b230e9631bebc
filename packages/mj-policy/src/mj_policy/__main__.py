from __future__ import annotations

from mj_policy.cli import main

raise SystemExit(main())
