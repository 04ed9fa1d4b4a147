"""The tests' free-port helper gives a NetworkTables server two different ports.

Asked one at a time, the system may hand out a port it just handed out (here once in about 17 000
pairs), and a server given the same port for NT3 and NT4 listens there with one protocol only: an
NT4 client waits for ever on a port that accepts connections. A calibration test once waited out
its whole time-out on a listening server in just that way.
"""

from __future__ import annotations

import socket
from typing import Any, ClassVar

import pytest

from tests import ports


class LowestFreePortSocket:
    """A socket whose ``bind`` to port 0 takes the lowest port no open socket of its kind holds:
    a system that hands a port out again as soon as it is released."""

    held: ClassVar[set[int]] = set()

    def __init__(self) -> None:
        self.port: int | None = None

    def bind(self, address: tuple[str, int]) -> None:
        assert address[1] == 0
        port = 40000
        while port in self.held:
            port += 1
        self.held.add(port)
        self.port = port

    def getsockname(self) -> tuple[str, int]:
        assert self.port is not None
        return (ports.HOST, self.port)

    def close(self) -> None:
        if self.port is not None:
            self.held.discard(self.port)
            self.port = None

    def __enter__(self) -> LowestFreePortSocket:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


@pytest.fixture
def reusing_system(monkeypatch: pytest.MonkeyPatch) -> None:
    LowestFreePortSocket.held.clear()
    monkeypatch.setattr(ports.socket, "socket", LowestFreePortSocket)


@pytest.mark.usefixtures("reusing_system")
def test_a_port_released_can_be_handed_out_again() -> None:
    """The hazard: two requests one after the other get the same port."""
    assert ports.free_ports(1) == ports.free_ports(1)


@pytest.mark.usefixtures("reusing_system")
def test_a_servers_two_ports_differ_even_when_the_system_reuses_ports() -> None:
    nt3, nt4 = ports.server_ports()
    assert nt3 != nt4
    assert len(set(ports.free_ports(5))) == 5
    assert not LowestFreePortSocket.held  # every probe closed again


def test_the_ports_are_free_on_this_machine() -> None:
    chosen = ports.free_ports(3)
    assert len(set(chosen)) == 3
    for port in chosen:
        with socket.socket() as listener:
            listener.bind((ports.HOST, port))
            listener.listen()
