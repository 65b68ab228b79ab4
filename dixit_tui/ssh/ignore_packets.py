"""The empty SSH_MSG_IGNORE asyncssh puts before every packet, left out where the cipher makes it pointless.

Once a connection encrypts, asyncssh sends an empty MSG_IGNORE ahead of every data packet (`SSHConnection.send_packet`).
That is the countermeasure of RFC 4251, section 9.3.1, against the attack on CBC mode's predictable IVs. This server
negotiates only AEAD and CTR ciphers (`server.ENCRYPTION_ALGS`: chacha20-poly1305, AES-GCM, AES-CTR), against which it
protects nothing. It cost each frame a second packet: padding from os.urandom, an encryption, a MAC, and a write to
the socket, on the server, and a decryption on the client.

`install` changes only the server side's connections, and only drops an *empty* MSG_IGNORE whose cipher is not CBC.
`tests/ssh/test_ignore_packets.py` checks what a real client receives, and fails when an asyncssh upgrade changes
the method this relies on.
"""

from __future__ import annotations

from typing import Any

from asyncssh import SSHServerConnection
from asyncssh.constants import MSG_IGNORE
from asyncssh.packet import String

EMPTY = String(b"")
"""The payload of the MSG_IGNORE asyncssh inserts: an empty string."""

_installed = False


def install() -> None:
    """Drop asyncssh's empty MSG_IGNORE ahead of each packet on server connections whose cipher is not CBC."""
    global _installed
    if _installed:
        return
    _installed = True
    send_packet = SSHServerConnection.send_packet

    def send_packet_without_empty_ignore(self: Any, pkttype: int, *args: bytes, handler: Any = None) -> None:
        if pkttype == MSG_IGNORE and args == (EMPTY,) and not self._enc_alg_sc.endswith(b"-cbc"):
            return
        send_packet(self, pkttype, *args, handler=handler)

    SSHServerConnection.send_packet = send_packet_without_empty_ignore  # type: ignore[method-assign]
