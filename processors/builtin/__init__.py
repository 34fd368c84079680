"""Built-in guardrail processors (one module each) and the registry the studio's palette is built from."""
