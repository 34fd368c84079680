"""Tools: what an agent can call, and where tools come from.

``tool`` is the ``Tool`` type and the ``@tool`` decorator, ``schema`` the JSON schemas derived from a function's
signature, ``docstrings`` the argument help read from its docstring, ``mcp`` tools served by Model Context
Protocol servers. The first is re-exported here: it is what agents and plug-ins use.
"""

from processors.tools.tool import Tool, parse_docstring, serialize_result, tool, tools_by_name

__all__ = ["Tool", "parse_docstring", "serialize_result", "tool", "tools_by_name"]
