"""SSH user names asyncssh would refuse, let through to the game (which cleans every name itself).

asyncssh checks the user name of each authentication request with SASLprep (RFC 4013, on Unicode 3.2) and drops
the connection with a protocol error when it fails: `ssh 🎲dice@host` was disconnected ("Unassigned character") before
the game could answer, and nothing reached the server's log. Here the name is the player's nickname, not an account:
it goes through the one sanitiser (dixit_tui/sanitize.py, `clean_name`) like any other, and the lobby says when
the name shown differs from the one typed.

`install` makes the SASLprep that asyncssh's connection module applies to user names fall back to the name as
received (logged) when SASLprep refuses it. Passwords are prepared elsewhere (asyncssh/auth.py) and keep the strict
check; this server takes no passwords anyway. `tests/e2e/test_names.py` connects with such a name (OpenSSH and
asyncssh) and fails when an asyncssh upgrade moves the check this relies on.
"""

from __future__ import annotations

import logging

from asyncssh import connection
from asyncssh.saslprep import SASLPrepError, saslprep

logger = logging.getLogger(__name__)

_installed = False


def lenient_saslprep(s: str) -> str:
    """SASLprep, or (when it refuses the name `s`) the name as it came, for the game to clean."""
    try:
        return saslprep(s)
    except SASLPrepError as err:
        logger.info("ssh user name %r refused by SASLprep (%s): let through, the game cleans it", s[:64], err)
        return s


def install() -> None:
    """User names SASLprep refuses no longer end the connection (see the module's text)."""
    global _installed
    if _installed:
        return
    _installed = True
    connection.saslprep = lenient_saslprep
