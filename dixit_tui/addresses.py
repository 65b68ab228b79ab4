"""How the per-address and per-network limits count a client's address.

An IPv6 host usually holds a whole /64 (2^64 addresses, often handed out at random per connection), so a limit that
counted exact IPv6 addresses counted nothing: every per-address limit counts an IPv6 client by its /64, an IPv4
client by its address. Per-network limits count an IPv4 /24 and an IPv6 /64 (the same /64: for IPv6 the address
and network limits coincide). An IPv4-mapped IPv6 address (a dual-stack listener's IPv4 client, ::ffff:a.b.c.d)
counts as its IPv4 address.
"""

from __future__ import annotations

import ipaddress


def plain_ip(address: str) -> str:
    """The address as written for logs and counts: an IPv4-mapped IPv6 address as its IPv4 form; others unchanged."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return address


def address_of(address: str) -> str:
    """What a per-address limit counts: an IPv4 address itself, an IPv6 address's /64 (e.g. 2001:db8:1:2::/64)."""
    plain = plain_ip(address)
    try:
        ip = ipaddress.ip_address(plain)
    except ValueError:
        return plain
    if ip.version == 4:
        return str(ip)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def network_of(address: str) -> str | None:
    """What a per-network limit counts: an IPv4 address's /24, an IPv6 address's /64; None if it is no address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
