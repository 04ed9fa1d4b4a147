"""Free localhost ports for a NetworkTables server started by a test.

An ntcore server listens on two ports, NetworkTables 3 and 4. Asking the system for a free port
twice in a row (bind to port 0, read the port, close) can answer the same port twice: the first
socket is closed before the second is bound. A server given one port for both protocols listens
with only one of them there, and a client of the other protocol never connects.
:func:`free_ports` keeps every socket bound until all are chosen, so the ports differ.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


def free_ports(count: int) -> tuple[int, ...]:
    """``count`` different ports on :data:`HOST` that were free a moment ago."""
    with ExitStack() as stack:
        ports = []
        for _ in range(count):
            probe = stack.enter_context(socket.socket())
            probe.bind((HOST, 0))
            ports.append(int(probe.getsockname()[1]))
        return tuple(ports)


def server_ports() -> tuple[int, int]:
    """A NetworkTables server's (NT3 port, NT4 port), different from each other."""
    nt3, nt4 = free_ports(2)
    return nt3, nt4


@contextmanager
def listening_server(persist: Path, timeout_s: float = 10.0) -> Iterator[tuple[Any, int]]:
    """A new NetworkTables server instance (the robot's) on free ports, yielded with its NT4 port
    once it is listening (a client started before would retry only after a second), its values
    kept in ``persist``; stopped and destroyed afterwards. ``timeout_s`` only guards the wait."""
    import ntcore

    instance = ntcore.NetworkTableInstance.create()
    nt3_port, port = server_ports()
    instance.startServer(str(persist), HOST, nt3_port, port)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection((HOST, port), timeout=1.0).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.005)
    try:
        yield instance, port
    finally:
        instance.stopServer()
        ntcore.NetworkTableInstance.destroy(instance)
