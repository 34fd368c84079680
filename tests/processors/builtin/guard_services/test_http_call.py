"""The waits a ``Retry-After`` header asks for (RFC 9110 §10.2.3: seconds or an HTTP date)."""

from __future__ import annotations

import email.utils

import pytest

from processors.builtin.guard_services.http_call import retry_after_seconds


def test_seconds_and_dates_are_read() -> None:
    assert retry_after_seconds("2") == 2.0
    assert retry_after_seconds(" 0.5 ") == 0.5
    now = 1_800_000_000.0
    assert retry_after_seconds(email.utils.formatdate(now + 7, usegmt=True), now=now) == pytest.approx(7.0)
    assert retry_after_seconds(email.utils.formatdate(now - 7, usegmt=True), now=now) == 0.0


@pytest.mark.parametrize("value", [None, "", "soon", "nan"])
def test_no_wait_is_read_from_nothing_or_nonsense(value: str | None) -> None:
    assert retry_after_seconds(value) is None
