"""Which MCP stdio server launches the user allowed: starting one runs a program on this computer.

A design is data, and designs get shared: a stdio MCP server in one names a program, its arguments and its
environment, and starting it runs that program with the user's rights. So a launch runs only once the user has
allowed it — having typed it in the agent settings counts (:meth:`CommandApprovals.approve` is called there), a
launch from a design opened from a file or saved in the store by an earlier session is asked about first, showing
the exact command line and the environment's variables.

An approval is for the exact launch: the command line and every environment variable, name and value (a
changed ``PATH`` or ``PYTHONPATH`` runs another program). Kept in a small JSON file in the user data folder, next
to the key endpoints, written atomically; unreadable content counts as empty (the safe side: nothing allowed).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from studio.design.agent_design import McpServerConfig
from studio.system.files import write_text_atomic

logger = logging.getLogger(__name__)

__all__ = ["CommandApprovals", "launch_signature"]


def launch_signature(config: McpServerConfig) -> str:
    """The exact launch an approval is for: the command line and the environment, as one stable string."""
    return json.dumps({"command": [config.command, *config.args], "env": dict(sorted(config.env.items()))})


class CommandApprovals:
    """The stdio launches the user allowed (``path``: default ``mcp_commands.json`` in the data folder)."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._approved: set[str] | None = None

    def _file(self) -> Path:
        if self._path is None:
            from studio.system.paths import data_dir

            self._path = data_dir() / "mcp_commands.json"
        return self._path

    def _load(self) -> set[str]:
        if self._approved is None:
            self._approved = set()
            try:
                raw = json.loads(self._file().read_text("utf-8"))
            except FileNotFoundError:
                raw = {}
            except (OSError, ValueError) as error:
                logger.warning("cannot read the MCP approvals file (%s); no launch is allowed", error)
                raw = {}
            approved = raw.get("approved") if isinstance(raw, dict) else None
            if isinstance(approved, list):
                self._approved.update(item for item in approved if isinstance(item, str))
        return self._approved

    def is_approved(self, config: McpServerConfig) -> bool:
        """Whether ``config`` may start without asking (HTTP servers run nothing here: always)."""
        return config.transport != "stdio" or launch_signature(config) in self._load()

    def approve(self, config: McpServerConfig) -> None:
        """Allow this exact launch from now on (the user typed it, or said yes when shown it)."""
        approved = self._load()
        signature = launch_signature(config)
        if config.transport != "stdio" or signature in approved:
            return
        approved.add(signature)
        text = json.dumps({"version": 1, "approved": sorted(approved)}, indent=2) + "\n"
        self._file().parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self._file(), text)
