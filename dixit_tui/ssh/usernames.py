"""SSH user names asyncssh would refuse, let through to the game (which cleans every name itself).

asyncssh checks the user name of each authentication request with SASLprep (RFC 4013, on Unicode 3.2) and drops
the connection with a protocol error when it fails: `ssh 🎲dice@host` was disconnected ("Unassigned character") before
the game could answer, and nothing reached the server's log. Here the name is the player's nickname, not an account:
it goes through the one sanitiser (dixit_tui/sanitize.py, `clean_name`) like any other, and the lobby says when
the name shown differs from the one typed.

`install` makes the SASLprep that asyncssh's connection module applies to user names fall back to the name (logged)
when SASLprep refuses it for characters newer than its Unicode 3.2 or for its bidi rule; a name with a character
SASLprep prohibits (a control character: an escape sequence) is still refused before any app sees it. Passwords
are prepared elsewhere (asyncssh/auth.py) and keep the strict check; this server takes no passwords anyway.
`tests/e2e/test_names.py` connects with such a name (OpenSSH and asyncssh) and fails when an asyncssh upgrade
moves the check this relies on.
"""

from __future__ import annotations

import logging
import stringprep
import unicodedata

from asyncssh import connection
from asyncssh.saslprep import SASLPrepError, saslprep

logger = logging.getLogger(__name__)

# SASLprep's prohibited characters (RFC 4013, section 2.3): control characters (an escape sequence), private use,
# non-characters, surrogates, bidi overrides, tags. A name with one is no name a person types: still refused.
_PROHIBITED = (
    stringprep.in_table_c12,
    stringprep.in_table_c21_c22,
    stringprep.in_table_c3,
    stringprep.in_table_c4,
    stringprep.in_table_c5,
    stringprep.in_table_c6,
    stringprep.in_table_c7,
    stringprep.in_table_c8,
    stringprep.in_table_c9,
)

_installed = False


def lenient_saslprep(s: str) -> str:
    """SASLprep; when it refuses the name `s` only for characters Unicode 3.2 did not have yet (an emoji, a newer
    script) or for mixing right-to-left and left-to-right letters, the name NFKC-normalised, for the game to clean.
    A name with a prohibited character (a control character, an escape sequence...) is still refused (logged)."""
    try:
        return saslprep(s)
    except SASLPrepError as err:
        if any(lookup(c) for c in s for lookup in _PROHIBITED):
            logger.info("ssh user name %r refused (SASLprep: %s)", s[:64], err)
            raise
        logger.info("ssh user name %r refused by SASLprep (%s): let through, the game cleans it", s[:64], err)
        return unicodedata.normalize("NFKC", s)


def install() -> None:
    """User names SASLprep refuses for newer Unicode no longer end the connection (see the module's text)."""
    global _installed
    if _installed:
        return
    _installed = True
    connection.saslprep = lenient_saslprep
