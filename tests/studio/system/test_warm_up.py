"""The studio's warm-up builds the injection detector's compiled tables before the first message needs them."""

from __future__ import annotations

import asyncio
import logging

import pytest

from processors.builtin import injection_model, prompt_injection_detector, simplified_chinese
from studio.system.warm_up import warm_up, warmed


def test_warm_up_compiles_the_injection_signals_once() -> None:
    prompt_injection_detector.compiled.cache_clear()
    assert prompt_injection_detector.compiled.cache_info().currsize == 0
    warm_up()
    assert prompt_injection_detector.compiled.cache_info().currsize == 1
    tables = prompt_injection_detector.compiled()
    warm_up()
    assert prompt_injection_detector.compiled() is tables  # a second warm-up reuses them


def test_warm_up_loads_the_traditional_to_simplified_converter() -> None:
    simplified_chinese._t2s.cache_clear()
    warm_up()
    assert simplified_chinese._t2s.cache_info().currsize == 1


def test_warm_up_loads_the_converter_even_when_its_texts_views_are_kept() -> None:
    """The detector keeps the views of its last few texts: a warm-up whose text was read before reaches no
    conversion, so the converter must be asked for by itself (CI, 2026-12-07: this order left it unloaded)."""
    warm_up()
    simplified_chinese._t2s.cache_clear()
    warm_up()
    assert simplified_chinese._t2s.cache_info().currsize == 1


def test_warm_up_reads_the_learned_injection_model() -> None:
    injection_model.shipped_model.cache_clear()
    warm_up()
    assert injection_model.shipped_model.cache_info().currsize == 1


def test_a_failed_warm_up_is_logged_with_its_reason_and_a_cancelled_one_goes_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> None:
        raise OSError("no space left on device")

    async def go() -> None:
        loop = asyncio.get_running_loop()
        await warmed(loop.run_in_executor(None, broken))
        cancelled = loop.create_future()
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await warmed(cancelled)

    with caplog.at_level(logging.WARNING, logger="studio.system.warm_up"):
        asyncio.run(go())
    assert [record.getMessage() for record in caplog.records] == [
        "The built-in detectors' warm-up failed (the first message will pay their set-up): OSError: no space left on "
        "device"
    ]
