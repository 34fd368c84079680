"""The agent design: what the editor edits (``AgentDesign``), the processor catalogue, building a runtime agent from a
design, the sample agent, and exporting a design as a Python script. No Qt (a contract)."""
