"""Tools: what an agent can call, and where tools come from.

``tool`` is the ``Tool`` type, ``decorator`` the ``@tool`` decorator, ``calling`` what a call needs (results
made JSON-safe, a writer for sync tools), ``schema`` the JSON schemas derived from a function's
signature, ``docstrings`` the argument help read from its docstring, ``mcp`` tools served by Model Context
Protocol servers. ``Tool``, ``@tool``, ``tools_by_name`` and ``serialize_result`` are re-exported here: they are
what agents and plug-ins use.
"""

from processors.tools.calling import serialize_result
from processors.tools.decorator import tool, tools_by_name
from processors.tools.tool import Tool, parse_docstring

__all__ = ["Tool", "parse_docstring", "serialize_result", "tool", "tools_by_name"]
