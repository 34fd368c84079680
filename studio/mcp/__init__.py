"""A design's MCP servers: starting them for a run, and which stdio launches the user allowed. No Qt (a contract)."""
