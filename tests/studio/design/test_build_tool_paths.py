"""A design's tool names load files from the user tools folder only: no ``../``, no absolute path, no symlink that
leads out. Anything else is refused before any import, on every path that resolves tools."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import AgentDesign, DesignError
from studio.design.build import available_tools, build_agent, resolve_tool
from studio.design.export import design_to_python

HELPER = """\
from pathlib import Path

Path({marker!r}).write_text("the helper's code ran")

def helper(text: str) -> str:
    '''Echo.'''
    return text
"""


@pytest.fixture
def catalogue() -> Catalogue:
    return load_catalogue(user_folder=None)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``home/pack/helper.py`` (writes a marker when imported) and ``home/studio/tools`` with a symlink out."""
    marker = tmp_path / "marker"
    outside = tmp_path / "home" / "pack" / "helper.py"
    outside.parent.mkdir(parents=True)
    outside.write_text(HELPER.format(marker=str(marker)), encoding="utf-8")
    tools = tmp_path / "home" / "studio" / "tools"
    tools.mkdir(parents=True)
    (tools / "link.py").symlink_to(outside)
    return tools, outside, marker


ESCAPES = [
    ("../../pack/helper.py:helper", "leads outside it"),
    ("{outside}:helper", "is an absolute path"),
    ("link.py:helper", "leads outside it"),
    ("sub/../../../pack/helper.py:helper", "leads outside it"),
]


@pytest.mark.parametrize("path", ["validation", "run", "export"])
@pytest.mark.parametrize(("written", "problem"), ESCAPES)
def test_tool_files_outside_the_tools_folder_are_refused_before_any_import(
    layout: tuple[Path, Path, Path], catalogue: Catalogue, path: str, written: str, problem: str
) -> None:
    tools, outside, marker = layout
    name = written.format(outside=outside)
    design = AgentDesign(tools=[name])
    attempts: dict[str, Callable[[], object]] = {
        "validation": lambda: resolve_tool(name, tool_folder=tools),
        "run": lambda: build_agent(design, catalogue=catalogue, tool_folder=tools),
        "export": lambda: design_to_python(design, catalogue=catalogue, tool_folder=tools),
    }
    with pytest.raises(DesignError, match="tools load only from the tools folder") as raised:
        attempts[path]()
    assert problem in str(raised.value)
    assert str(raised.value).startswith(f"Tool '{name}': ")
    assert raised.value.path == "tools"
    assert not marker.exists()


def test_the_tool_list_skips_a_symlink_that_leads_out(layout: tuple[Path, Path, Path]) -> None:
    tools, outside, marker = layout
    (tools / "mine.py").write_text(
        "from processors import tool\n\n@tool\ndef mine() -> str:\n    '''Mine.'''\n    return 'mine'\n",
        encoding="utf-8",
    )
    found, problems = available_tools(tools)
    assert "mine.py:mine" in found
    assert not any(name.startswith("link.py") for name in found)
    assert problems == [f"link.py: not loaded, it leads outside the tools folder (to {outside})"]
    assert not marker.exists()


def test_files_and_links_inside_the_tools_folder_still_load(layout: tuple[Path, Path, Path]) -> None:
    tools, _outside, _marker = layout
    (tools / "sub").mkdir()
    (tools / "sub" / "real.py").write_text("def echo(text: str) -> str:\n    '''Echo.'''\n    return text\n")
    (tools / "alias.py").symlink_to(tools / "sub" / "real.py")
    assert resolve_tool("sub/real.py:echo", tool_folder=tools).name == "echo"
    assert resolve_tool("alias.py:echo", tool_folder=tools).name == "echo"
    with pytest.raises(DesignError, match="is not a Python file"):
        resolve_tool("sub:echo", tool_folder=tools)
