"""One `bench` invocation: pick the targets, measure them in each scenario, then report.

The order of verdicts: a target that failed its run → 13 (naming it); then `--check`'s
verdict (10 regression, 12 no baseline, 15 incomparable baseline). `--report-only` prints the
verdict it would have returned and exits 0, for CI on a machine too noisy to gate on.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from mj_core import paths
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.exit_codes import ExitCode
from mj_core.findings import Finding
from mj_core.findings import render_text
from mj_core.findings import verdict

from mj_watch.bench import baseline_check
from mj_watch.bench import fixture
from mj_watch.bench import markdown
from mj_watch.bench import report
from mj_watch.bench import results
from mj_watch.bench import sampling
from mj_watch.bench import scenario
from mj_watch.bench import targets
from mj_watch.bench.scenario import Scenario
from mj_watch.bench.settings import Settings

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import IO
    from typing import Any

    from mj_watch.bench.targets import Target


class Session:
    def __init__(
        self,
        options: argparse.Namespace,
        root: Path,
        *,
        out: IO[str],
        err: IO[str],
        plan: sampling.Plan,
        policy: Settings,
    ) -> None:
        self.options = options
        self.root = root
        self.out = out
        self.err = err
        self.plan = plan
        self.policy = policy

    def targets(self) -> list[targets.Target]:
        from mj_core.declaration import commands as declare

        public = [name for name in declare.public() if name != "bench"]
        floor = {t.command: t for t in targets.floor()}
        names = [n for n in self.options.commands if n not in floor]
        chosen = targets.select(names, public)
        if self.options.all or not self.options.commands:
            return [*floor.values(), *chosen]
        return [floor[n] for n in self.options.commands if n in floor] + chosen

    def list_targets(self) -> int:
        if getattr(self.options, "json", False):
            from mj_watch.bench import json_lines as jsonlines

            return jsonlines.targets(self.out, self.targets())
        for target in self.targets():
            self.out.write(
                f"{target.command:<16} {target.klass:<9} accepts {sorted(target.accept)}\n"
            )
        return 0

    def scenarios(self) -> Iterator[Scenario]:
        if not self.options.fixture:
            yield scenario.repository(self.root)
            return
        for name in dict.fromkeys(self.options.fixture):
            scales = self.options.scale or [1]
            for scale in dict.fromkeys(scales if name != "small" else [1]):  # small is small
                self.progress(f"generating fixture {name} ×{scale}")
                yield fixture.scenario(name, scale)

    def measure(self) -> list[dict[str, Any]]:
        chosen = self.targets()
        if not self.options.fixture:
            self.refuse_over_an_active_task(chosen)
        rows: list[dict[str, Any]] = []
        for number, place in enumerate(self.scenarios()):
            here = [t for t in chosen if number == 0 or not t.once]
            try:
                rows += sampling.rows(here, place, self.plan, self.progress)
            finally:
                place.close()
        self.progress("")
        return rows

    def refuse_over_an_active_task(self, chosen: list[Target]) -> None:
        """15 before anything runs when this checkout has an active task and a target starts
        one of its own (`start`, or a setup that does): in a copy of this checkout that start
        is refused, so the target could only fail."""
        starting = [
            t.command
            for t in chosen
            if t.command == "start" or any("start" in step for step in t.setup)
        ]
        if not starting or not (self.root / ".ai" / "manifest.yaml").is_file():
            return
        from mj_policy.layer.loader import load
        from mj_state.task import state as taskstate

        try:
            active = taskstate.read_task(load(self.root)).active
        except MjError:
            return  # a layer that does not load: the targets say so themselves
        if active is not None:
            raise Refused(
                f"bench: task {active.id} is active in this checkout, and {', '.join(starting)} "
                "start a task of their own — finish it first, name other targets, or measure a "
                "generated repository (--fixture small, large, governed or records)"
            )

    def run(self) -> int:
        begun = results.start()
        rows = self.measure()
        profile = {
            "samples": self.plan.samples,
            "warmup": self.plan.warmup,
            "mode": self.options.mode,
        }
        doc = results.document(self.root, begun, profile, rows)
        failed = [row for row in rows if row["status"] != "ok"]
        checked: list[Finding] = []
        problem: MjError | None = None
        try:
            if self.options.write_baseline and not failed:
                results.write_baseline(
                    self.root, self.baseline_path(), doc, force=self.options.force
                )
            if self.options.check:
                checked = self.check(doc)
        except MjError as exc:
            problem = exc
        self.show(doc, checked)
        self.keep(doc)
        if self.options.markdown:
            markdown.write(self.root, Path(self.options.markdown), doc)
        code = self.verdict(failed, checked, problem)
        if getattr(self.options, "json", False):
            from mj_watch.bench import json_lines as jsonlines

            jsonlines.summary(self.out, code, len(checked))
        return code

    def check(self, doc: dict[str, Any]) -> list[Finding]:
        path = self.baseline_path()
        loaded = results.load_baseline(self.root, path)
        baseline = baseline_check.index(loaded, results.shown(self.root, path))
        extra = ("--baseline", self.options.baseline) if self.options.baseline else ()
        return list(
            baseline_check.findings(doc["results"], baseline, self.policy.regression, extra)
        )

    def baseline_path(self) -> Path:
        if self.options.baseline:
            return paths.guard_write(self.root, self.root / self.options.baseline)
        if not (self.root / ".ai" / "manifest.yaml").is_file():
            raise MissingArtifact(
                f"{results.BASELINE}: {self.root} has no .ai layer — name a file with --baseline"
            )
        return self.root / results.BASELINE

    def keep(self, doc: dict[str, Any]) -> None:
        if self.options.no_save:
            return
        if not (self.root / ".ai" / "manifest.yaml").is_file():
            self.note(f"results: not kept — {self.root} has no .ai layer (see --no-save)")
            return
        path = results.save(self.root, doc)
        self.note(f"results: {path.relative_to(self.root).as_posix()}")

    def show(self, doc: dict[str, Any], checked: list[Finding]) -> None:
        if getattr(self.options, "json", False):
            from mj_watch.bench import json_lines as jsonlines

            jsonlines.run(self.out, doc, [finding.record() for finding in checked])
            return
        if self.options.format == "json":
            shown = dict(doc)
            if self.options.check:
                shown["check"] = [finding.record() for finding in checked]
            self.out.write(report.json_document(shown))
            return
        for line in report.table(doc):
            self.out.write(line + "\n")
        for finding in checked:
            self.out.write(render_text(finding.record()) + "\n")

    def verdict(
        self, failed: list[dict[str, Any]], checked: list[Finding], problem: MjError | None
    ) -> int:
        code = int(verdict(checked))
        for row in failed:
            self.err.write(
                f"majordomus: bench: target {row['command']} failed in {row['scenario']}: "
                f"{row['status']} — {row.get('message', '')}\n"
            )
        if failed:
            code = int(ExitCode.INTERNAL_ERROR)
        elif problem is not None:
            if not self.options.report_only:
                raise problem
            self.err.write(f"majordomus: {problem.message}\n")
            code = int(problem.code)
        if self.options.report_only:
            self.note(f"bench: verdict {code} ({ExitCode(code).name}) — reported only, exit 0")
            return 0
        return code

    def note(self, text: str) -> None:
        if self.options.format == "text" and not getattr(self.options, "json", False):
            self.out.write(text + "\n")

    def progress(self, text: str) -> None:
        if self.err.isatty():
            self.err.write(f"\r\033[K{text}")
            self.err.flush()
