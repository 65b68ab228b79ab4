"""SSH user names asyncssh would refuse, let through to the game (which cleans every name itself).

asyncssh checks each user name with SASLprep (RFC 4013, Unicode 3.2) and drops the connection when it fails:
`ssh 🎲dice@host` was disconnected before the game could answer. Here the name is a nickname, cleaned by the one
sanitiser (dixit_tui/sanitize.py) like any other. A name with a prohibited character (a control character) is still
refused. `tests/e2e/test_names.py` fails when an asyncssh upgrade moves the check this relies on.
"""

from __future__ import annotations

import functools
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


def lenient_saslprep(s: str) -> str:
    """SASLprep; a name it refuses only for characters newer than Unicode 3.2 or for its bidi rule comes back
    NFKC-normalised, for the game to clean. A prohibited character is still refused (logged)."""
    try:
        return saslprep(s)
    except SASLPrepError as err:
        if any(lookup(c) for c in s for lookup in _PROHIBITED):
            logger.info("ssh user name %r refused (SASLprep: %s)", s[:64], err)
            raise
        logger.info("ssh user name %r refused by SASLprep (%s): let through, the game cleans it", s[:64], err)
        return unicodedata.normalize("NFKC", s)


@functools.cache
def install() -> None:
    """User names SASLprep refuses for newer Unicode no longer end the connection (see the module's text)."""
    connection.saslprep = lenient_saslprep
