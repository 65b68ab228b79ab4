"""Moderation: the server's admins (by key fingerprint), bans (a key, an address or a network), the private mode (only
keys allowed in, or people who give the invite code) and the lobby's message of the day.

Bans, keys allowed by an admin and the message of the day are kept in the store (SQLite, or Redis with `--redis`),
so every worker on the same store applies them: each new session reads them once (`refusal`), one round trip. The
admins, the private mode, the keys file and the invite code are the server's settings (`serve` options)."""

from __future__ import annotations

import hmac
import ipaddress
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dixit_tui.sanitize import clean_chat

log = logging.getLogger(__name__)

BAN, ALLOW, MOTD = "ban", "allow", "motd"
MOTD_MAX = 300

KEY_BANNED = "This key is banned from this server."
ADDRESS_BANNED = "Your address is banned from this server."
WRONG_INVITE = "That invite code is not right: ask the server's host for the code, or connect with an allowed key."
PRIVATE = (
    "This server is private: only invited players get in. Ask its host to add your key ({key}), "
    "or for the invite code (connect without a key: ssh -o PubkeyAuthentication=no ...)."
)
PRIVATE_KEYLESS = (
    "This server is private: only invited players get in. Connect with a key its host has added, "
    "or ask for the invite code."
)


@dataclass(frozen=True)
class ModerationSettings:
    admins: frozenset[str] = frozenset()
    """Key fingerprints (SHA256:...) that may run `admin` commands."""
    private: bool = False
    """Only keys in `allowed_keys` (or allowed by an admin), admins and people with the invite code get in."""
    allowed_keys: frozenset[str] = frozenset()
    """Key fingerprints of the `--allow-keys` file (authorized_keys style)."""
    invite_code: str | None = None
    """With it, people without a key are asked for it when they log in (keyboard-interactive)."""


def ban_target(text: str) -> str:
    """A key fingerprint (SHA256:...) as given, or an address or network in its normal form ("10.0.0.0/24",
    "2001:db8::/64"; one address is a /32 or /128). ValueError with a readable reason otherwise."""
    text = text.strip()
    if text.startswith("SHA256:") and len(text) > len("SHA256:"):
        return text
    try:
        return str(ipaddress.ip_network(text, strict=False))
    except ValueError as err:
        raise ValueError(
            f"{text[:60]!r} is neither a key fingerprint (SHA256:...) nor an address or network (10.0.0.0/24)"
        ) from err


def _in_network(ip: str, network: str) -> bool:
    try:
        address = ipaddress.ip_address(ip)
        net = ipaddress.ip_network(network)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.version == net.version and address in net


@dataclass
class Moderation:
    settings: ModerationSettings = field(default_factory=ModerationSettings)
    store: Callable[[], Any] = lambda: None
    """The coordinator's store, when asked (it is set after the coordinator is made)."""
    bans: dict[str, str] = field(default_factory=dict)
    """Banned keys and networks -> when and by whom (as last read from the store)."""
    allowed: dict[str, str] = field(default_factory=dict)
    motd: str = ""
    on_change: list[Callable[[], None]] = field(default_factory=list)
    """Called when the bans or the keys allowed in change (read from the store, or set here): the server ends the
    sessions that `check` now refuses."""

    def is_admin(self, key: str | None) -> bool:
        return key is not None and key in self.settings.admins

    async def refresh(self) -> None:
        """Read the bans, allowed keys and message of the day again (another worker may have changed them). A store
        that cannot be read now leaves the last ones in force."""
        entries = getattr(self.store(), "moderation_entries", None)
        if entries is None:
            return
        try:
            rows = await entries()
        except Exception:
            log.warning("moderation entries could not be read; the last ones read stay in force", exc_info=True)
            return
        bans = {key: value for kind, key, value in rows if kind == BAN}
        allowed = {key: value for kind, key, value in rows if kind == ALLOW}
        self.motd = next((value for kind, _, value in rows if kind == MOTD), "")
        if (bans, allowed) != (self.bans, self.allowed):
            self.bans, self.allowed = bans, allowed
            self._changed()

    def _changed(self) -> None:
        for call in self.on_change:
            try:
                call()
            except Exception:
                log.exception("ending the sessions a moderation change refuses failed")

    async def refusal(self, key: str | None, ip: str, invite: str | None = None) -> str | None:
        """Why a new session (its key fingerprint or None, its address, the invite code it gave or None) may not
        come in, in words for that person; None if it may. Reads the store first."""
        await self.refresh()
        return self.check(key, ip, invite)

    def check(self, key: str | None, ip: str, invite: str | None = None) -> str | None:
        """`refusal` by what was last read from the store (for the sessions already in: see `on_change`)."""
        if key is not None and key in self.bans:
            return KEY_BANNED
        if any(_in_network(ip, target) for target in self.bans if not target.startswith("SHA256:")):
            return ADDRESS_BANNED
        settings = self.settings
        if not settings.private or self.is_admin(key):
            return None
        if key is not None and (key in settings.allowed_keys or key in self.allowed):
            return None
        if invite is not None and settings.invite_code is not None:
            if hmac.compare_digest(invite.strip().encode(), settings.invite_code.encode()):
                return None
            return WRONG_INVITE
        return PRIVATE.format(key=key) if key is not None else PRIVATE_KEYLESS

    async def _set(self, kind: str, key: str, value: str | None) -> None:
        moderate = getattr(self.store(), "moderate", None)
        if moderate is not None:
            await moderate(kind, key, value)
        held = {BAN: self.bans, ALLOW: self.allowed}.get(kind)
        if held is not None:
            if value is None:
                held.pop(key, None)
            else:
                held[key] = value
            self._changed()
        elif kind == MOTD:
            self.motd = value or ""

    async def ban(self, target: str, note: str) -> str:
        """Ban a key or an address/network (`ban_target`). Returns the target as stored."""
        target = ban_target(target)
        await self._set(BAN, target, note)
        return target

    async def unban(self, target: str) -> bool:
        """Lift a ban; False if there was none."""
        target = ban_target(target)
        await self.refresh()
        if target not in self.bans:
            return False
        await self._set(BAN, target, None)
        return True

    async def allow(self, key: str, note: str) -> None:
        await self._set(ALLOW, key, note)

    async def disallow(self, key: str) -> bool:
        await self.refresh()
        if key not in self.allowed:
            return False
        await self._set(ALLOW, key, None)
        return True

    async def set_motd(self, text: str) -> str:
        """The lobby's message of the day (sanitised like chat); empty: none. Returns it as it will be shown."""
        cleaned = clean_chat(text)[:MOTD_MAX]
        await self._set(MOTD, "text", cleaned or None)
        return cleaned
