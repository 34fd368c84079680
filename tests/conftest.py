"""Suite-wide test setup: a headless Qt, an offline litellm, and a guard against unplanned network access.

Tests talk to models through ``ScriptedModel`` or through litellm against the local OpenAI-compatible server of
the ``openai_server`` fixture (``tests/support/openai_server.py``) on 127.0.0.1. Any other network access —
a socket connection to a non-loopback address, or a DNS look-up of a non-local host name — raises
:class:`RuntimeError` at once, before a packet leaves the machine. A test marked ``network`` is exempt, and is
skipped unless pytest runs with ``--run-network``.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Before anything imports Qt or litellm.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no price-map download at import time


# Shared fixtures for every test: the local OpenAI-compatible server and a throwaway PostgreSQL server.
pytest_plugins = ["tests.support.openai_server", "tests.support.postgres"]


# ------------------------------------------------------------------------------------ hypothesis profiles
# The property-based fuzz suites (``test_*_fuzz.py``) run on every test run, so each explores a modest number of
# examples. No per-example deadline: the machine is shared and an example's time says nothing about a bug. In CI
# (``CI`` set) the examples are derandomized, so a red build can be reproduced and a green one does not turn red
# by chance; locally every run tries new examples. ``HYPOTHESIS_PROFILE=thorough`` explores many more.
settings.register_profile("dev", deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("dev"), derandomize=True, database=None, print_blob=True)
settings.register_profile("thorough", settings.get_profile("dev"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


# ------------------------------------------------------------------------------------------ network guard

#: The real functions, looked up at call time by the guard; a test may replace them to prove nothing leaks.
_real: dict[str, Callable[..., Any]] = {
    "connect": socket.socket.connect,
    "connect_ex": socket.socket.connect_ex,
    "sendto": socket.socket.sendto,
    "getaddrinfo": socket.getaddrinfo,
    "gethostbyname": socket.gethostbyname,
    "gethostbyname_ex": socket.gethostbyname_ex,
}

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})

#: Set while a ``network``-marked test runs.
_network_allowed = False


def _is_local_host(host: object) -> bool:
    """Whether ``host`` (a name or an address) certainly stays on this machine."""
    if host is None:  # getaddrinfo(None, port): the wildcard/loopback address for a local server
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%", 1)[0].lower().rstrip(".")
    if name in _LOCAL_NAMES or name.endswith(".localhost") or not name:
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified  # connecting to 0.0.0.0 / :: reaches this host


def _refuse(target: object) -> RuntimeError:
    return RuntimeError(
        f"Unplanned network access to {target!r} in a test: "
        "tests must use ScriptedModel or the local openai_server fixture"
    )


def _check_address(sock: socket.socket, address: Any) -> None:
    if _network_allowed or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return  # AF_UNIX, AF_NETLINK, socketpair()s: local by construction
    host = address[0] if isinstance(address, tuple) and address else address
    if not _is_local_host(host):
        raise _refuse(address)


def _check_host(host: object, port: object = None) -> None:
    if _network_allowed or _is_local_host(host):
        return
    if isinstance(host, str | bytes):
        try:  # a numeric address needs no DNS; connecting to it is checked by connect()
            ipaddress.ip_address(host.decode() if isinstance(host, bytes) else host.strip("[]").split("%", 1)[0])
        except ValueError:
            raise _refuse(host if port is None else (host, port)) from None
        return
    raise _refuse(host)


def _guarded_connect(self: socket.socket, address: Any) -> None:
    _check_address(self, address)
    _real["connect"](self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    _check_address(self, address)
    result: int = _real["connect_ex"](self, address)
    return result


def _guarded_sendto(self: socket.socket, data: Any, *args: Any) -> int:
    if args:  # sendto(data, address) or sendto(data, flags, address)
        _check_address(self, args[-1])
    sent: int = _real["sendto"](self, data, *args)
    return sent


def _guarded_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    _check_host(host, port)
    return _real["getaddrinfo"](host, port, *args, **kwargs)


def _guarded_gethostbyname(host: Any) -> Any:
    _check_host(host)
    return _real["gethostbyname"](host)


def _guarded_gethostbyname_ex(host: Any) -> Any:
    _check_host(host)
    return _real["gethostbyname_ex"](host)


@pytest.fixture(autouse=True, scope="session")
def _network_guard() -> Iterator[None]:
    """Make every non-loopback connection or DNS look-up fail loudly, for the whole session."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", _guarded_connect)
        mp.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
        mp.setattr(socket.socket, "sendto", _guarded_sendto)
        mp.setattr(socket, "getaddrinfo", _guarded_getaddrinfo)
        mp.setattr(socket, "gethostbyname", _guarded_gethostbyname)
        mp.setattr(socket, "gethostbyname_ex", _guarded_gethostbyname_ex)
        yield


@pytest.fixture(autouse=True)
def _network_marker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Lift the guard for the duration of a test marked ``network``."""
    global _network_allowed
    if request.node.get_closest_marker("network") is None:
        yield
        return
    _network_allowed = True
    try:
        yield
    finally:
        _network_allowed = False


# --------------------------------------------------------------------------------------------- options


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-network", action="store_true", help="run tests marked `network` (real remote calls)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-network"):
        return
    skip = pytest.mark.skip(reason="reaches a real remote service: run with --run-network")
    for item in items:
        if item.get_closest_marker("network") is not None:
            item.add_marker(skip)
