"""Files the studio writes: all or nothing, scripts that compile, failures said in the window, names suggested,
and an exported demo script that runs with nothing but ``processors`` on its path."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError, save_design
from studio.design.export import design_to_python
from studio.design.sample import sample_design
from studio.models.editor_commands import EditSetting
from studio.system.files import FileWriteError, suggested_file_name, write_text_atomic
from tests.studio.conftest import run, settle
from tests.studio.test_app import open_studio, reply

REPO_ROOT = Path(__file__).resolve().parents[2]
OLD_SCRIPT = "print('my own script, not to be lost')\n"


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ------------------------------------------------------------------------------------------ atomic writes


def test_a_text_that_cannot_be_encoded_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "agent.py"
    target.write_text(OLD_SCRIPT, encoding="utf-8")
    with pytest.raises(FileWriteError, match=r"agent\.py was not written: the text cannot be encoded"):
        write_text_atomic(target, "name = 'half \ud83d'\n")
    assert target.read_text(encoding="utf-8") == OLD_SCRIPT
    assert leftovers(tmp_path) == []


def test_a_failed_replace_leaves_the_target_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()  # a folder where the file should go: os.replace fails after the data was written
    (target / "inside.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(FileWriteError, match=r"taken was not written: .*unchanged"):
        write_text_atomic(target, "new")
    assert (target / "inside.txt").read_text(encoding="utf-8") == "kept"
    assert leftovers(tmp_path) == []
    with pytest.raises(FileWriteError, match="not written"):
        write_text_atomic(tmp_path / "missing" / "x.py", "new")


def test_a_rewritten_file_keeps_its_permissions_and_a_new_one_gets_the_usual_ones(tmp_path: Path) -> None:
    target = tmp_path / "agent.py"
    target.write_text(OLD_SCRIPT, encoding="utf-8")
    target.chmod(0o750)
    write_text_atomic(target, "x = 1\n")
    assert target.read_text(encoding="utf-8") == "x = 1\n"
    assert target.stat().st_mode & 0o777 == 0o750
    fresh = tmp_path / "fresh.py"
    write_text_atomic(fresh, "y = 2\n")
    umask = os.umask(0o022)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_saving_a_design_over_a_file_goes_through_the_same_atomic_path(tmp_path: Path) -> None:
    target = tmp_path / "design.json"
    target.write_text('{"old": true}', encoding="utf-8")
    with pytest.raises(OSError, match="not written"):
        save_design(AgentDesign(), tmp_path / "missing" / "design.json")
    save_design(AgentDesign(name="Fresh"), target)
    assert json.loads(target.read_text(encoding="utf-8"))["name"] == "Fresh"


# ------------------------------------------------------------------------------------------ scripts that compile


@pytest.mark.parametrize(
    "name",
    ["Nul\x00in the name", "Half \ud83d an emoji", "Bell\x07 and \u200b zero width", 'Ends with a quote"', "back\\"],
)
def test_a_design_name_with_any_character_exports_a_script_that_compiles(name: str, catalogue: Catalogue) -> None:
    source = design_to_python(AgentDesign(name=name), catalogue=catalogue)
    module = ast.parse(source)
    source.encode("utf-8")  # writable
    docstring = ast.get_docstring(module) or ""
    assert docstring.startswith(name.replace("\ud83d", "\ufffd").split(" ")[0])
    assert "\x00" not in source


# ------------------------------------------------------------------------------------------ in the window


def test_exporting_a_lone_surrogate_name_over_an_existing_script_replaces_it_with_a_valid_one(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    document = workspace.document
    document.undo_stack().push(EditSetting(document, "name", "Helper \ud83d"))
    target = tmp_path / "agent.py"
    target.write_text(OLD_SCRIPT, encoding="utf-8")

    assert workspace.export_script(target) is True

    source = target.read_text(encoding="utf-8")
    ast.parse(source)
    assert source.startswith('"""Helper \\ud83d: an agent exported') or source.startswith('"""Helper \ufffd')
    assert window.statusBar().currentMessage().startswith("Exported agent.py — run it with: python agent.py")
    assert "it needs the processors package" in window.statusBar().currentMessage()
    assert leftovers(tmp_path) == []

    document.undo_stack().push(EditSetting(document, "name", "Nul\x00name"))
    assert workspace.export_script(target) is True
    module = ast.parse(target.read_text(encoding="utf-8"))  # the NUL is escaped, not written raw
    assert (ast.get_docstring(module) or "").startswith("Nul\x00name: an agent exported")
    run(qloop, workspace.shutdown())


def test_every_failed_save_or_export_is_said_in_the_status_bar_and_a_message_box(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    nowhere = tmp_path / "no such folder"

    def failure_box() -> QMessageBox:
        boxes = [box for box in window.findChildren(QMessageBox, "file_failed") if box.isVisible()]
        assert len(boxes) == 1  # shown with open(): the call above returned while it is up
        return boxes[0]

    assert workspace.export_script(nowhere / "agent.py") is False
    status = window.statusBar().currentMessage()
    assert status.startswith("The script was not exported: agent.py was not written")
    assert "Exported" not in status
    box = failure_box()
    assert box.windowTitle() == "The script was not exported"
    box.close()
    settle(qloop)

    workspace.document.open_design(AgentDesign(output=[ChainEntry(type="TokenLimiter", options={"limit": -5})]))
    assert workspace.export_script(tmp_path / "bad.py") is False
    assert not (tmp_path / "bad.py").exists()
    assert window.statusBar().currentMessage().startswith("The script was not exported: Output chain, #1")
    failure_box().close()
    settle(qloop)

    assert workspace.save_design_file(nowhere / "design.json") is False
    assert window.statusBar().currentMessage().startswith("The design was not saved: design.json was not written")
    failure_box().close()
    settle(qloop)

    run(qloop, workspace.export_thread(nowhere / "thread.json"))
    assert window.statusBar().currentMessage().startswith("The thread was not exported: thread.json was not written")
    failure_box().close()
    run(qloop, workspace.shutdown())


def test_a_thread_export_is_written_whole(qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    reply(qloop, workspace, "What is the weather in Paris?")
    target = tmp_path / "thread.json"
    target.write_text("old", encoding="utf-8")
    run(qloop, workspace.export_thread(target))
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [m["role"] for m in data["messages"]][:2] == ["user", "assistant"]
    assert window.statusBar().currentMessage() == "Exported the thread to thread.json"
    assert leftovers(tmp_path) == []
    run(qloop, workspace.shutdown())


def test_the_export_dialog_suggests_a_file_name_from_the_design_name(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    document = workspace.document
    document.undo_stack().push(EditSetting(document, "name", "Refund desk (v2)"))
    window.files.export_script()
    dialog = window.findChild(QFileDialog, "file_dialog")
    assert dialog is not None and dialog.isVisible()
    assert [Path(f).name for f in dialog.selectedFiles()] == ["refund_desk_v2.py"]
    dialog.reject()
    settle(qloop)
    window.files.save_design()
    dialog = next(d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible())
    assert [Path(f).name for f in dialog.selectedFiles()] == ["refund_desk_v2.json"]
    dialog.reject()
    settle(qloop)
    run(qloop, workspace.shutdown())


def test_a_file_dialog_opens_in_the_folder_a_file_was_last_chosen_in(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    """Not the home folder every time: after saving a design into a folder, the next dialog (and the next start's,
    and the Lab's corpus dialog) opens there; a folder deleted since falls back to the home folder."""
    from studio.views.lab_dialogs import choose_corpus

    workspace, window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    designs = tmp_path / "my designs"
    designs.mkdir()
    window.files.save_design()
    dialog = next(d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible())
    assert Path(dialog.directory().absolutePath()) == Path.home()
    dialog.selectFile(str(designs / "support.json"))
    dialog.accept()
    for _ in range(100):  # the design is written off the UI thread
        settle(qloop)
        if (designs / "support.json").is_file():
            break
    assert (designs / "support.json").is_file()
    window.files.open_design()
    dialog = next(d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible())
    assert Path(dialog.directory().absolutePath()) == designs
    dialog.reject()
    corpus_dialog = choose_corpus(window, lambda path: None)
    assert Path(corpus_dialog.directory().absolutePath()) == designs
    corpus_dialog.reject()
    designs.joinpath("support.json").unlink()
    designs.rmdir()
    window.files.open_design()
    dialog = next(d for d in window.findChildren(QFileDialog, "file_dialog") if d.isVisible())
    assert Path(dialog.directory().absolutePath()) == Path.home()
    dialog.reject()
    settle(qloop)
    run(qloop, workspace.shutdown())


def test_suggested_names_are_safe() -> None:
    assert suggested_file_name("Support agent (offline demo)", ".py") == "support_agent_offline_demo.py"
    assert suggested_file_name("../../etc/passwd", ".json") == "etc_passwd.json"
    assert suggested_file_name("Ünïcode “quotes”\x00", ".py") == "unicode_quotes.py"
    assert suggested_file_name("日本語", ".py") == "agent.py"
    assert suggested_file_name("42 answers", ".py") == "agent_42_answers.py"
    assert len(suggested_file_name("x" * 500, ".py")) <= 63


# ------------------------------------------------------------------------------------------ only `processors`


def test_an_exported_demo_script_runs_offline_with_only_processors_on_its_path(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    only = tmp_path / "only"
    only.mkdir()
    (only / "processors").symlink_to(REPO_ROOT / "processors", target_is_directory=True)
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    script = folder / suggested_file_name(sample_design().name, ".py")
    write_text_atomic(script, design_to_python(sample_design(), catalogue=catalogue))
    assert "import studio" not in script.read_text(encoding="utf-8")
    assert "from studio" not in script.read_text(encoding="utf-8")
    # -S: no site module, so no .pth file (the editable install that maps `studio`) and no user site; the
    # third-party packages come from site-packages put on the path by hand, `processors` from a folder of its own
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(only), sysconfig.get_paths()["purelib"]]),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HOME": str(tmp_path),
    }

    def python(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-S", *arguments], input=stdin, capture_output=True, text=True, timeout=120,
            cwd=folder, env=environment, check=False,
        )  # fmt: skip

    probe = python("-c", "import processors, sys; print(processors.__file__); import studio")
    assert "ModuleNotFoundError: No module named 'studio'" in probe.stderr
    assert probe.stdout.strip() == str(only / "processors" / "__init__.py")

    done = python(script.name, stdin="What's the weather in Paris?\nlook up customer 42\n")
    assert done.returncode == 0, done.stderr
    assert "[tool get_weather({'city': 'Paris'})]" in done.stdout
    assert "[tool lookup_customer({'customer_id': 42})]" in done.stdout
    assert "ada.lovelace@example.com" not in done.stdout


def test_the_script_says_what_it_needs(catalogue: Catalogue) -> None:
    demo = design_to_python(sample_design(), catalogue=catalogue)
    head = ast.get_docstring(ast.parse(demo)) or ""
    assert "It needs Python 3.11 or newer and:\n- the `processors` package" in head
    assert "litellm" not in head
    hosted = design_to_python(AgentDesign(model={"model": "openai/gpt-4o-mini"}), catalogue=catalogue)
    head = ast.get_docstring(ast.parse(hosted)) or ""
    assert "- litellm installed and the API key in $OPENAI_API_KEY" in head


def test_an_invalid_design_still_refuses_to_export(catalogue: Catalogue) -> None:
    with pytest.raises(DesignError):
        design_to_python(AgentDesign(tools=["nope"]), catalogue=catalogue)
