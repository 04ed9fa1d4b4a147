"""Free localhost ports for a NetworkTables server started by a test.

An ntcore server listens on two ports, NetworkTables 3 and 4. Asking the system for a free port
twice in a row (bind to port 0, read the port, close) can answer the same port twice: the first
socket is closed before the second is bound. A server given one port for both protocols listens
with only one of them there, and a client of the other protocol never connects.
:func:`free_ports` keeps every socket bound until all are chosen, so the ports differ.
"""

from __future__ import annotations

import socket
from contextlib import ExitStack

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
