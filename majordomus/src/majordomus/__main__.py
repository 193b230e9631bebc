from __future__ import annotations

from majordomus.cli import main

raise SystemExit(main())
