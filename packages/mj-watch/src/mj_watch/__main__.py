from __future__ import annotations

from mj_watch.cli import main

raise SystemExit(main())
