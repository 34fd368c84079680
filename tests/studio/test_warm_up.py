"""The studio's warm-up builds the injection detector's compiled tables before the first message needs them."""

from __future__ import annotations

from processors.builtin import prompt_injection_detector
from studio.warm_up import warm_up


def test_warm_up_compiles_the_injection_signals_once() -> None:
    prompt_injection_detector.compiled.cache_clear()
    assert prompt_injection_detector.compiled.cache_info().currsize == 0
    warm_up()
    assert prompt_injection_detector.compiled.cache_info().currsize == 1
    tables = prompt_injection_detector.compiled()
    warm_up()
    assert prompt_injection_detector.compiled() is tables  # a second warm-up reuses them
