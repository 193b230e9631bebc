from __future__ import annotations

from mj_knowledge.cli import main

raise SystemExit(main())
