"""The empty SSH_MSG_IGNORE asyncssh puts before every packet, left out where the cipher makes it pointless.

It is RFC 4251's countermeasure (9.3.1) against CBC's predictable IVs; this server negotiates only AEAD and CTR
ciphers (`server.ENCRYPTION_ALGS`), so it only cost each frame a second packet (padding, encryption, MAC, a write).
`tests/ssh/test_ignore_packets.py` fails when an asyncssh upgrade changes the method this relies on.
"""

from __future__ import annotations

import functools
from typing import Any

from asyncssh import SSHServerConnection
from asyncssh.constants import MSG_IGNORE
from asyncssh.packet import String

EMPTY = String(b"")
"""The payload of the MSG_IGNORE asyncssh inserts: an empty string."""


@functools.cache
def install() -> None:
    """Drop asyncssh's empty MSG_IGNORE ahead of each packet on server connections whose cipher is not CBC."""
    send_packet = SSHServerConnection.send_packet

    def send_packet_without_empty_ignore(self: Any, pkttype: int, *args: bytes, handler: Any = None) -> None:
        if pkttype == MSG_IGNORE and args == (EMPTY,) and not self._enc_alg_sc.endswith(b"-cbc"):
            return
        send_packet(self, pkttype, *args, handler=handler)

    SSHServerConnection.send_packet = send_packet_without_empty_ignore  # type: ignore[method-assign]
