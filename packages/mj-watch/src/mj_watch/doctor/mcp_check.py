"""Doctor's look at the MCP wiring: each MCP client configuration in the repository, reported
as wired (it starts `majordomus mcp`) or not. Advice only: a client without the server still
works, so nothing here fails; a configuration that names the server and starts something
else, or does not parse, is a WARN with the command that shows it."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.doctor.facts_view import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator


def mcp_wiring(facts: Facts) -> Iterator[Finding]:
    seen = facts.facts.get("mcp")  # facts gathered before this check carry none
    for client in (seen or {}).get("clients") or []:
        config, provider, state = client["config"], client["provider"], client["state"]
        install = f"majordomus mcp install --provider {provider}"
        if state == "wired":
            yield Finding("OK", "mcp", config, f"{provider}: wired — starts `majordomus mcp`")
        elif state == "unwired":
            yield Finding(
                "INFO", "mcp", config, f"{provider}: not wired — no majordomus server", install
            )
        elif state == "other":
            said = f"{provider}: not wired — its majordomus server does not start `majordomus mcp`"
            yield Finding("WARN", "mcp", config, said, f"cat {config}")
        else:
            yield Finding(
                "WARN",
                "mcp",
                config,
                f"{provider}: not wired — {client['problem']}",
                f"cat {config}",
            )
