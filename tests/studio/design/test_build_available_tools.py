"""The agent settings offer the demo tools and the ``@tool`` functions of the user's tool files."""

from __future__ import annotations

from pathlib import Path

from studio.design.build import available_tools, resolve_tool


def test_demo_tools_and_user_tool_files(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(
        "from processors import tool\n\n"
        "@tool\ndef find_order(order_id: int) -> str:\n    '''Find an order.'''\n    return f'order {order_id}'\n\n"
        "def helper() -> None:\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "broken.py").write_text("def oops(:\n", encoding="utf-8")

    names, problems = available_tools(tmp_path)

    assert names[:4] == ["calculator", "current_time", "get_weather", "lookup_customer"]
    assert names[4:] == ["shop.py:find_order"]
    assert len(problems) == 1
    assert problems[0].startswith("broken.py: SyntaxError")
    assert resolve_tool("shop.py:find_order", tool_folder=tmp_path).name == "find_order"
