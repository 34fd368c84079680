"""Internationalised e-mail addresses (RFC 6531 local parts, IDN domains) are found whole, in text and in streams.

``josé.garcía@correo.es`` used to be redacted in part (``josé.garcí*@******.es``): the name stayed readable. The
three places that know what an address is are tested here: PIIDetector's pattern, RegexFilter's ``email`` kind
(the shared table) and the stream window that holds back what may still grow into an address.
"""

from __future__ import annotations

import pytest

from processors import Agent
from processors.builtin.patterns import find_all
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.pii_patterns import detect
from processors.builtin.regex_filter import RegexFilter
from processors.builtin.stream_window import hold_start
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import run_stream, streamed_text

ADDRESSES = [
    "josé.garcía@correo.es",  # Spanish local part
    "Ünal.Çelik@şirket.com.tr",  # Turkish local part and domain
    "jürgen@münchen.de",  # IDN domain
    "дмитрий@почта.рф",  # Cyrillic throughout, a Cyrillic top-level domain
    "θεόδωρος@παράδειγμα.ελ",  # Greek
    "ana@xn--caf-dma.xn--p1ai",  # an IDN domain in its punycode (ASCII) form
    "jo@example.com",  # plain ASCII, as before
]


def within(address: str) -> str:
    return f"Escríbele a {address}, gracias."


@pytest.mark.parametrize("address", ADDRESSES)
def test_pii_detector_and_the_shared_table_find_the_whole_address(address: str) -> None:
    text = within(address)
    assert [m.value for m in detect(text, ["email"])] == [address]
    assert [m.value for m in find_all(text, ["email"])] == [address]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的邮箱是liuyang171@qq.com，有事发邮件。", "liuyang171@qq.com"),  # CJK ends an address
        ("联系人：陈晓明，邮箱chenxm@corp.example.cn", "chenxm@corp.example.cn"),
        ("Écrivez à «renée@exemple.fr».", "renée@exemple.fr"),
        ("see git@github.com:org/repo.git", None),  # an SSH remote, not a mailbox (PIIDetector)
    ],
)
def test_what_ends_an_address_is_unchanged(text: str, expected: str | None) -> None:
    assert [m.value for m in detect(text, ["email"])] == ([expected] if expected else [])


def test_a_letter_before_the_address_is_part_of_it_not_a_boundary() -> None:
    # The old pattern started the match after the last non-ASCII letter: "a@correo.es".
    assert [m.value for m in detect("mail garcía@correo.es", ["email"])] == ["garcía@correo.es"]
    assert [m.value for m in find_all("mail garcía@correo.es", ["email"])] == ["garcía@correo.es"]


async def test_pii_detector_masks_the_whole_address() -> None:
    model = ScriptedModel(["ok"])
    detector = PIIDetector(detection_types=["email"], redaction_method="placeholder")
    await Agent(id="a", model=model, input_processors=[detector]).generate("Escríbele a josé.garcía@correo.es hoy")
    assert model.requests[0].messages[-1]["content"] == "Escríbele a [EMAIL] hoy"


async def test_regex_filter_redacts_the_whole_address() -> None:
    guard = RegexFilter(presets=["pii"], strategy="redact", phase="output")
    assert guard.redact_text("Escríbele a josé.garcía@correo.es hoy") == "Escríbele a [EMAIL] hoy"


def test_the_stream_holds_a_name_that_may_still_become_an_address() -> None:
    for text, held in [
        ("Escríbele a josé.garcí", "josé.garcí"),
        ("Escríbele a josé.garcía@cor", "josé.garcía@cor"),
        ("Mail jo@münch", "jo@münch"),
        ("我的邮箱是liu", "liu"),  # the Chinese before it is let out
    ]:
        assert text[hold_start(text, 0, ("email",), 128) :] == held
    # Only an address goes on through letters: a phone number being written holds its digits alone.
    assert "Звоните +7 495"[hold_start("Звоните +7 495", 0, ("phone",), 128) :] == "+7 495"
    assert "Звоните +7 495"[hold_start("Звоните +7 495", 0, ("phone", "email"), 128) :] == "+7 495"


@pytest.mark.parametrize("address", ["josé.garcía@correo.es", "дмитрий@почта.рф", "jürgen@münchen.de"])
async def test_a_stream_split_at_every_point_redacts_the_whole_address(address: str) -> None:
    text = f"Escríbele a {address} hoy."
    expected = "Escríbele a [EMAIL] hoy."
    for cut in range(1, len(text)):
        for guard in (
            PIIDetector(detection_types=["email"], redaction_method="placeholder"),
            RegexFilter(presets=["pii"], strategy="redact", phase="output"),
        ):
            model = ScriptedModel([Turn(text=[text[:cut], text[cut:]])])
            chunks, result = await run_stream(Agent(id="a", model=model, output_processors=[guard]))
            assert streamed_text(chunks) == expected, (type(guard).__name__, cut)
            assert result.text == expected
