from __future__ import annotations

from mj_context.cli import main

raise SystemExit(main())
