"""The divergence bar both replay views share: hidden until a divergence, the view's words, stop here hides it and
asks for nothing, continue live hides it and asks once; each view's bar keeps its view's object names."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from studio.controllers.replay_controller import ReplayController
from studio.design.agent_design import AgentDesign
from studio.views.divergence_bar import DivergenceBar
from studio.views.replay_view import ReplayView
from studio.views.thread_replay_view import ThreadReplayView


def shown_bar(qtbot: QtBot) -> tuple[QWidget, DivergenceBar]:
    host = QWidget()
    qtbot.addWidget(host)
    bar = DivergenceBar("replay", host)
    host.show()
    assert not bar.isVisibleTo(host), "hidden until there is a divergence"
    bar.show_divergence("diverged at step 2")
    assert bar.isVisibleTo(host) and bar.text.text() == "diverged at step 2"
    return host, bar


def test_stop_here_hides_the_bar_and_asks_for_nothing(qtbot: QtBot) -> None:
    host, bar = shown_bar(qtbot)
    asked: list[None] = []
    bar.continue_live_requested.connect(lambda: asked.append(None))

    bar.stop_here.click()

    assert not bar.isVisibleTo(host) and asked == []


def test_continue_live_hides_the_bar_and_asks_once(qtbot: QtBot) -> None:
    host, bar = shown_bar(qtbot)
    with qtbot.waitSignal(bar.continue_live_requested) as blocker:
        bar.continue_live.click()

    assert blocker.signal_triggered and not bar.isVisibleTo(host)


@pytest.mark.parametrize(("view_class", "prefix"), [(ReplayView, "replay"), (ThreadReplayView, "thread_replay")])
def test_both_replay_views_use_the_shared_bar_under_their_own_names(
    qtbot: QtBot, view_class: type[ReplayView | ThreadReplayView], prefix: str
) -> None:
    controller = ReplayController(None, None, current_design=AgentDesign)
    view = view_class(controller, "some-id")
    qtbot.addWidget(view)

    assert isinstance(view.divergence_bar, DivergenceBar)
    assert view.findChild(QLabel, f"{prefix}.divergence") is view.divergence is view.divergence_bar.text
    assert view.findChild(QPushButton, f"{prefix}.stop") is view.stop_here
    assert view.findChild(QPushButton, f"{prefix}.continue_live") is view.continue_live
