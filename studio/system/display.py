"""Does the X display the studio is about to open its window on answer? Asked in the studio's own process, just
before Qt connects, and again if Qt then fails to start, so the check and the real start cannot disagree.

When Qt's xcb plugin cannot connect it aborts with "could not connect to display" followed by a hint that
``xcb-cursor0`` may be missing, even when every library is there and the X server was only busy, full (an X server
serves a limited number of clients) or gone. This module opens the X11 connection itself, exchanges the protocol's
first request and reply (no library, no Qt), and says which of those happened. ``scripts/bootstrap`` checks the
libraries (``ldd``, :mod:`studio.qt_platform`); this is the per-start part, a few milliseconds.
"""

from __future__ import annotations

import re
import socket
import struct
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass

#: How long a display may take to answer the connection request: a busy server answers well within it.
ANSWER_TIMEOUT = 10.0

#: X11's connection setup request: little-endian, protocol 11.0, no authorization data (the reply says whether the
#: server is there and accepts clients; an authorization refusal still proves it answers).
_SETUP_REQUEST = b"l\x00" + struct.pack("<HHHH", 11, 0, 0, 0) + b"\x00\x00"

_DISPLAY = re.compile(r"^(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?$")


@dataclass(frozen=True)
class Answer:
    """What the display said: ``ok`` if it accepts clients (or asks for credentials, which Qt has); else why not."""

    ok: bool
    detail: str


def expected_platform(environ: Mapping[str, str]) -> str:
    """The plugin Qt will try first: ``QT_QPA_PLATFORM``'s, else Wayland's in a Wayland session, else ``xcb``."""
    requested = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if requested:
        return requested
    if environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def _addresses(display: str) -> list[tuple[int, str | tuple[str, int]]] | None:
    """Socket family and address to try for ``display`` (``:0``, ``unix:1``, ``host:0.0``); None when unparsed."""
    match = _DISPLAY.match(display)
    if match is None:
        return None
    host, number = match["host"], int(match["number"])
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        # Linux X servers listen on the abstract socket too, and libxcb tries it first.
        return [(socket.AF_UNIX, "\0" + path), (socket.AF_UNIX, path)]
    return [(socket.AF_INET, (host, 6000 + number))]


def _read_reply(connection: socket.socket) -> bytes:
    data = b""
    while len(data) < 8:
        chunk = connection.recv(8 - len(data))
        if not chunk:
            break
        data += chunk
    if len(data) == 8 and data[0] == 0:  # Failed: the reason follows (its length is byte 1)
        reason_length = data[1]
        while len(data) < 8 + reason_length:
            chunk = connection.recv(8 + reason_length - len(data))
            if not chunk:
                break
            data += chunk
    return data


#: Connections that answered, kept open by ``ask(hold=True)`` until :func:`release`. An X server started without
#: ``-noreset`` (Xvfb's default) resets when its last client leaves, and drops the connections made meanwhile: a check
#: that connected and left at once could make Qt's connection, a moment later, fail ("could not connect to display").
#: Holding ours until Qt is connected leaves no such gap.
_held: list[socket.socket] = []

#: Pauses before asking again when the server dropped the connection unanswered (it was resetting).
RETRY_PAUSES = (0.2, 0.5, 1.0)


def ask(display: str, timeout: float = ANSWER_TIMEOUT, *, hold: bool = False) -> Answer | None:
    """Open a connection to ``display`` and send X11's setup request; None when ``display`` is not a form we know.

    With ``hold``, a connection that answered stays open until :func:`release`.
    """
    addresses = _addresses(display)
    if addresses is None:
        return None
    for pause in (*RETRY_PAUSES, None):
        answer, connection, transient = _ask(addresses, timeout)
        if connection is not None:
            if hold:
                _held.append(connection)
            else:
                connection.close()
        if not transient or pause is None:
            return answer
        time.sleep(pause)
    raise AssertionError("unreachable")  # pragma: no cover - the last pause is None


def release() -> None:
    """Close the connections ``ask(hold=True)`` kept (once Qt has its own)."""
    while _held:
        _held.pop().close()


def _ask(
    addresses: list[tuple[int, str | tuple[str, int]]], timeout: float
) -> tuple[Answer, socket.socket | None, bool]:
    """One attempt: the answer, the open connection if it answered, and whether asking again may help."""
    errors = []
    for family, address in addresses:
        connection = socket.socket(family, socket.SOCK_STREAM)
        connection.settimeout(timeout)
        try:
            connection.connect(address)
        except OSError as error:
            connection.close()
            errors.append(error.strerror or str(error))
            continue
        try:
            connection.sendall(_SETUP_REQUEST)
            reply = _read_reply(connection)
        except TimeoutError:
            connection.close()
            return Answer(False, f"it accepted the connection but did not answer within {timeout:g} s"), None, False
        except OSError as error:
            connection.close()
            transient = isinstance(error, ConnectionResetError | BrokenPipeError)
            return Answer(False, f"the connection failed: {error.strerror or error}"), None, transient
        if not reply:
            connection.close()
            return Answer(False, "it closed the connection without answering"), None, True
        if reply[0] == 0:
            connection.close()
            reason = reply[8:].decode("latin-1", "replace").strip()
            if "authoriz" in reason.lower():  # Qt sends the credentials (XAUTHORITY) we did not
                return Answer(True, "answers (asks for credentials)"), None, False
            return Answer(False, f"it refused the connection: {reason or 'no reason given'}"), None, False
        return Answer(True, "answers"), connection, False
    return Answer(False, f"nothing listens there ({errors[-1] if errors else 'no address'})"), None, False


def display_problem(environ: Mapping[str, str], timeout: float = ANSWER_TIMEOUT, *, hold: bool = False) -> str | None:
    """None when the studio's window can open as far as the display is concerned; else a sentence saying why not.

    Only X11 (Qt's ``xcb``) on Linux is asked; other platforms (offscreen, Wayland, Windows, macOS) pass. With
    ``hold``, the connection that answered stays open until :func:`release` (see ``_held``).
    """
    if not sys.platform.startswith("linux") or expected_platform(environ) != "xcb":
        return None
    display = environ.get("DISPLAY", "")
    if not display:
        return (
            "There is no display to open the studio's window on (DISPLAY is not set).\n"
            "  Run it on a desktop, or on a virtual display:  xvfb-run -a ./scripts/run\n"
            "  To check it headless instead:  ./scripts/run --self-test studio.png"
        )
    answer = ask(display, timeout, hold=hold)
    if answer is None or answer.ok:
        return None
    return (
        f"The X display {display} does not answer: {answer.detail}.\n"
        "  Is its X server running (and not overloaded)? Try again, or run headless:  "
        "./scripts/run --self-test studio.png"
    )


def platform_failure(environ: Mapping[str, str]) -> str:
    """Why Qt's platform plugin failed to start just now, for the message said before Qt aborts."""
    problem = display_problem(environ)
    if problem is not None:
        return problem + "\n  (The display is the cause, whatever Qt's hint above says about xcb-cursor0.)"
    return (
        f"Qt's {expected_platform(environ)!r} platform plugin did not start, though the display answers now (it "
        "may have been busy a moment ago): try again; `python -m studio.qt_platform` names any missing library."
    )
