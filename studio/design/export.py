"""Exporting a design as a runnable Python script that builds the same agent with ``processors``.

The script imports each processor class from its own module (user files by path), reads the API key from the
provider's environment variable (it is never written into the script) and chats on standard input. It needs the
``processors`` package only — never ``studio`` (the offline demo model and tools come from
:mod:`processors.demo.offline`) — plus litellm for a real model and the user's own processor and tool files when
the design uses them; :func:`script_requirements` says which, and the script's docstring repeats it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import logging
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from processors.builtin.registry import Catalogue

from processors.messages.surrogates import scrub
from processors.models.providers import provider_for, provider_name
from studio.design.agent_design import (
    LANES,
    AgentDesign,
    DesignError,
    Lane,
    McpServerConfig,
    _sorted_keys,
)
from studio.design.build import (
    BuiltEntry,
    _default_tools_folder,
    _tool_file_and_function,
    build_chains,
    resolve_tools,
)
from studio.design.export_script import AS_TOOL, BUILD_LOCALS, CHAT, LOAD_FROM_FILE, OPEN_MCP_TOOLS
from studio.design.python_source import bracketed, call, docstring_text, flat_literal, is_name, string_literal
from studio.texts.translator import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)


def design_to_python(
    design: AgentDesign, *, catalogue: Catalogue | None = None, tool_folder: Path | None = None
) -> str:
    """A runnable Python script that builds the same agent with ``processors`` and chats on stdin/stdout.

    Every processor is constructed as ``Type(**options)`` from the module that defines it; the API key is read
    from an environment variable at run time, never written into the script. The script never imports
    ``studio``. Building the design first means an export that could not run is refused with the same
    :class:`DesignError` a run would give, and the script is compiled before it is returned, so a name or text
    that would break its syntax is refused too rather than written. ``catalogue`` defaults to the studio's.
    """
    if catalogue is None:
        from studio.design.catalog import studio_catalogue

        catalogue = studio_catalogue()
    chains = build_chains(design, catalogue)
    resolve_tools(design.tools, tool_folder=tool_folder)  # refuse what would fail when the script runs
    script = scrub(_Script(design, catalogue, tool_folder).render(chains))  # a lone surrogate cannot be saved
    try:
        compile(script, "exported agent script", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:  # ValueError: NUL bytes, in Python < 3.12
        logger.error("the exported script does not compile: %s", error)
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError", "The script could not be generated as valid Python ({error}); nothing was written"
            ),
            path="",
            error=str(error),
        ) from error
    return script


#: The variable an exported script reads its key from when the design names its own server (api_base).
CUSTOM_ENDPOINT_KEY_ENV = "PROCESSOR_STUDIO_API_KEY"


def _custom_endpoint(design: AgentDesign) -> bool:
    from studio.keys.endpoints import EndpointError, is_default_endpoint, target_endpoint

    provider = provider_name(design.model.model)
    try:
        return not is_default_endpoint(provider, target_endpoint(provider, design.model.api_base or None))
    except EndpointError:
        return True


def script_key_env(design: AgentDesign) -> str:
    """The environment variable the exported script reads its key from: the provider's own (``OPENAI_API_KEY``)
    for the provider's service, :data:`CUSTOM_ENDPOINT_KEY_ENV` for a server the design names — a script shared
    with a design's ``api_base`` must not send the user's provider key to that server."""
    if _custom_endpoint(design):
        return CUSTOM_ENDPOINT_KEY_ENV
    return provider_for(design.model.model).key_variable or CUSTOM_ENDPOINT_KEY_ENV


def script_requirements(design: AgentDesign) -> list[str]:
    """What the exported script of ``design`` needs besides Python 3.11+, in words for its docstring and the
    success message: always the ``processors`` package; litellm for a real model; the user files it loads."""
    needs = ["the `processors` package of Processor Studio on the Python path"]
    provider = provider_for(design.model.model)
    if not provider.offline:
        installed = f"{provider.script_needs} installed and " if provider.script_needs else ""
        needs.append(f"{installed}the API key in ${script_key_env(design)}")
    if any(_tool_file_and_function(name) is not None for name in design.tools):
        needs.append("the tool files it names, in the tools folder ($PROCESSOR_STUDIO_TOOLS)")
    servers = [config for config in design.mcp_servers if config.enabled_tools]
    if servers:
        needs.append("the `mcp` package (the official MCP SDK)")
        needs.extend(
            f"the program of MCP server '{config.name}': {config.command_line()}"
            if config.transport == "stdio"
            else f"MCP server '{config.name}' at {config.url}, its Authorization value (if any) in "
            f"${mcp_credential_env(config.name)}"
            for config in servers
        )
    return needs


def mcp_credential_env(server_name: str) -> str:
    """The variable an exported script reads an HTTP MCP server's ``Authorization`` value from (never written
    into the script: the studio keeps it in the keyring)."""
    return "MCP_" + re.sub(r"[^A-Z0-9]", "_", server_name.upper()) + "_AUTHORIZATION"


def _catalogue_class(catalogue: Catalogue, type_name: str, fallback: type) -> tuple[type, Path | None]:
    """The class the catalogue records for ``type_name`` (what ``create`` instantiates), and its user file if any."""
    record = catalogue.get(type_name)
    if record is None:
        return fallback, None
    file = Path(record.source.removeprefix("file:")) if record.source.startswith("file:") else None
    return record.cls, file


class _Script:
    """Writes the exported script: imports collected as classes are met, ``build_agent()``, the chat loop."""

    def __init__(self, design: AgentDesign, catalogue: Catalogue, tool_folder: Path | None) -> None:
        self.design = design
        self.catalogue = catalogue
        self.tool_folder = tool_folder
        self.stdlib: set[str] = {"import asyncio", "import sys"}
        self.imports: dict[str, set[str]] = {"processors": {"Agent"}}
        self.constants: list[str] = []
        self.helpers: list[str] = []
        self.loads: list[str] = []  # statements of build_agent() that load classes from user files
        self.local_names: dict[str, tuple[str, str]] = {}  # local name -> (module or file, its name there)

    # --- names -----------------------------------------------------------------------------------------------
    def _bind(self, origin: str, name: str) -> str:
        local, number = name, 2
        while local in self.local_names and self.local_names[local] != (origin, name):
            local = f"{name}_{number}"
            number += 1
        self.local_names[local] = (origin, name)
        return local

    def _import(self, module: str, name: str) -> str:
        local = self._bind(module, name)
        self.imports.setdefault(module, set()).add(name if local == name else f"{name} as {local}")
        return local

    def _helper(self, source: str) -> None:
        if source in self.helpers:
            return
        self.helpers.append(source)
        if source is AS_TOOL:
            self._import("processors", "Tool")
            self._import("processors", "tool")
        self.stdlib.update({"import importlib.util", "from pathlib import Path", "from typing import Any"})

    def class_expression(self, cls: type, file: Path | None = None) -> str:
        """How the script names ``cls``: imported from its module, or loaded from its file (user files)."""
        qualname = cls.__qualname__
        if "<locals>" in qualname:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "{name} is defined inside a function and cannot be exported"),
                path="",
                name=qualname,
            )
        top, _, rest = qualname.partition(".")
        module_name = cls.__module__
        module = sys.modules.get(module_name)
        if file is None and _importable(module_name, module):
            local = self._import(module_name, top)
        else:
            file = file or getattr(module, "__file__", None)
            if not file:
                raise DesignError.of(
                    QT_TRANSLATE_NOOP("DesignError", "{name} comes from {module}, which a script cannot import"),
                    path="",
                    name=qualname,
                    module=module_name,
                )
            fresh = (str(file), top) not in self.local_names.values()
            local = self._bind(str(file), top)
            if fresh:
                self._helper(LOAD_FROM_FILE)
                self.loads.append(f"{local} = load_from_file(Path({flat_literal(str(file))}), {flat_literal(top)})")
        return f"{local}.{rest}" if rest else local

    # --- the statements of build_agent() -------------------------------------------------------------------
    def chains(self, chains: dict[Lane, list[BuiltEntry]]) -> list[str]:
        statements: list[str] = []
        lists: list[str] = []
        for lane in LANES:
            items = []
            for item in chains[lane]:
                cls, file = _catalogue_class(self.catalogue, item.entry.type, type(item.processor))
                options = _sorted_keys(item.entry.options)
                if item.processor.id == item.default_id:
                    items.append(call(self.class_expression(cls, file), options, 8))
                    continue
                # A de-duplicated id: the processor gets a variable, and its id is set as build_agent() does.
                variable = re.sub(r"\W", "_", item.processor.id)
                if not is_name(variable) or variable in BUILD_LOCALS:
                    variable = f"processor_{variable}"
                constructor = self.class_expression(cls, file)
                statements.append(f"{variable} = {call(constructor, options, 4, before=len(variable) + 3)}")
                statements.append(f"{variable}.id = {flat_literal(item.processor.id)}")
                items.append(variable)
            lists.append(f"{lane}_processors = {bracketed('[', items, ']', 4)}")
        return statements + lists

    def model(self) -> str:
        config = self.design.model
        provider = provider_for(config.model)
        factory = self._import(*provider.factory_parts())
        if provider.offline:
            config.check_credentials()  # the script is shared like the design: no key goes into it either
            return f"model = {factory}()"
        self.stdlib.add("import os")
        model_id = config.model.strip()
        self.constants.insert(0, f"API_KEY_ENV = {flat_literal(script_key_env(self.design))}")
        # A server of the design's own choosing gets the key named for it, or a placeholder: never the provider's
        # standard variable, which litellm would otherwise read and send there.
        key = (
            "os.environ.get(API_KEY_ENV)"
            if not _custom_endpoint(self.design)
            else ('os.environ.get(API_KEY_ENV) or "no-key"')
        )
        leading = [
            flat_literal(model_id),
            f"api_base={flat_literal(config.api_base or None)}",
            f"api_key={key}",
        ]
        return f"model = {call(factory, _sorted_keys(config.call_settings()), 4, leading, before=8)}"

    def tools(self) -> str:
        expressions = []
        for name in self.design.tools:
            target = _tool_file_and_function(name)
            if target is None:
                expressions.append(f"{self._import('processors.demo.offline', 'DEMO_TOOLS')}[{flat_literal(name)}]")
                continue
            if AS_TOOL not in self.helpers:
                self._helper(LOAD_FROM_FILE)
                self._helper(AS_TOOL)
                self.stdlib.add("import os")
                folder = flat_literal(str(self.tool_folder or _default_tools_folder()))
                self.constants.append(f'TOOLS_FOLDER = Path(os.environ.get("PROCESSOR_STUDIO_TOOLS") or {folder})')
            file_name, function = target
            path = (
                f"Path({flat_literal(file_name)})"
                if Path(file_name).is_absolute()
                else f"TOOLS_FOLDER / {flat_literal(file_name)}"
            )
            expressions.append(f"as_tool(load_from_file({path}, {flat_literal(function)}))")
        if self.mcp_servers():
            expressions.append("*mcp_tools")
        return f"tools = {bracketed('[', expressions, ']', 4)}"

    def mcp_servers(self) -> list[McpServerConfig]:
        return [config for config in self.design.mcp_servers if config.enabled_tools]

    def mcp_constant(self) -> str:
        """``MCP_SERVERS``: each server as the runtime describes it, with the tools the design enables."""
        entries = []
        for config in self.mcp_servers():
            if config.transport == "stdio":
                server = (
                    f"{self._import('processors.tools.mcp', 'StdioServer')}({flat_literal(config.name)}, "
                    f"{flat_literal(config.command)}, tuple({flat_literal(list(config.args))}), "
                    f"{flat_literal(dict(config.env))})"
                )
            else:
                self.stdlib.add("import os")
                variable = mcp_credential_env(config.name)
                headers = flat_literal(dict(config.headers))
                auth = f'({{"Authorization": os.environ[{variable!r}]}} if os.environ.get({variable!r}) else {{}})'
                server = (
                    f"{self._import('processors.tools.mcp', 'HttpServer')}({flat_literal(config.name)}, "
                    f"{flat_literal(config.url.strip())}, {{**{headers}, **{auth}}})"
                )
            entries.append(f"({server}, {flat_literal(list(config.enabled_tools))})")
        return f"MCP_SERVERS = {bracketed('[', entries, ']', 0)}"

    # --- the whole script ----------------------------------------------------------------------------------
    def render(self, chains: dict[Lane, list[BuiltEntry]]) -> str:
        design = self.design
        chain_statements = self.chains(chains)
        statements = [*self.loads, *chain_statements, self.model(), self.tools()]
        self.constants.append(f"INSTRUCTIONS = {string_literal(design.instructions, 0)}")
        arguments = [
            f"id={flat_literal(design.id)}",
            f"name={string_literal(design.name, 8)}",
            "instructions=INSTRUCTIONS",
            "model=model",
            "tools=tools",
            "input_processors=input_processors",
            "output_processors=output_processors",
            "error_processors=error_processors",
            f"max_processor_retries={design.max_processor_retries!r}",
            f"max_steps={design.max_steps!r}",
        ]
        statements.append(f"return {bracketed('Agent(', arguments, ')', 4)}")
        chat = CHAT
        for chunk_class in ("ErrorChunk", "TextDeltaChunk", "ToolCallChunk", "TripwireChunk"):
            self._import("processors.chunks", chunk_class)
        if self.mcp_servers():
            self.constants.append(self.mcp_constant())
            self.stdlib.add("import contextlib")
            self._import("processors.tools.mcp", "McpToolSource")
            self._import("processors", "Tool")
            signature = "def build_agent(mcp_tools: Sequence[Tool] = ()) -> Agent:"
            self.stdlib.add("from collections.abc import Sequence")
            self._helper(OPEN_MCP_TOOLS)
            chat = CHAT.replace("asyncio.run(chat(build_agent()))", "asyncio.run(chat_with_mcp())")
        else:
            signature = "def build_agent() -> Agent:"
        build = f'{signature}\n    """The agent as designed in Processor Studio."""\n' + "".join(
            f"    {statement}\n" for statement in statements
        )
        head = [self._header(), self._imports(), "\n".join(self.constants)]
        definitions = [*self.helpers, build, chat]
        return (
            "\n\n".join(part.strip("\n") for part in head)
            + "\n\n\n"
            + "\n\n\n".join(part.strip("\n") for part in definitions)
            + "\n"
        )

    def _header(self) -> str:
        design = self.design
        if provider_for(design.model.model).offline:
            key_note = f"It uses the offline model {design.model.model.strip()!r} (no API key, no network)."
        else:
            env = script_key_env(design)
            key_note = f"The API key is read from the {env} environment variable."
        needs = "".join(f"- {docstring_text(need)}\n" for need in script_requirements(design))
        return (
            f'"""{docstring_text(design.name)}: an agent exported from Processor Studio.\n\n'
            "Run it with `python <this file>` and type messages, one per line (Ctrl-D ends); each reply streams\n"
            f"back. Every line starts a new conversation. {key_note}\n\n"
            f"It needs Python 3.11 or newer and:\n{needs}"
            '"""'
        )

    def _imports(self) -> str:
        plain = sorted(line for line in self.stdlib if line.startswith("import "))
        froms = sorted(line for line in self.stdlib if line.startswith("from "))
        first_party = [
            f"from {module} import {', '.join(sorted(names, key=_isort_key))}"
            for module, names in sorted(self.imports.items())
        ]
        return "from __future__ import annotations\n\n" + "\n".join(plain + froms) + "\n\n" + "\n".join(first_party)


def _isort_key(name: str) -> tuple[int, str]:
    """isort's order within one ``from`` import: CONSTANTS, then Classes, then functions."""
    bare = name.split(" as ")[0]
    kind = 0 if bare.isupper() else 1 if bare[:1].isupper() else 2
    return kind, bare


def _importable(module_name: str, module: ModuleType | None) -> bool:
    """Whether a fresh interpreter can ``import module_name``: its top-level package is on ``sys.path``.

    ``PathFinder`` looks at ``sys.path`` only; ``find_spec`` would also trust ``sys.modules``, where files
    imported by path (user processors) sit under made-up names.
    """
    if module_name == "__main__" or module is None:
        return False
    top = module_name.partition(".")[0]
    return top in sys.builtin_module_names or importlib.machinery.PathFinder.find_spec(top) is not None
