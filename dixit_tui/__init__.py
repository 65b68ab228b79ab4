"""dixit-tui: the board game Dixit, played in the terminal over SSH."""

import warnings

__version__ = "0.1.0"

# cryptography 47+ deprecates DSA, and asyncssh warns of it when it is imported (it still supports DSA keys). This
# project never makes or accepts a DSA key (its host keys are Ed25519), so the warning only put noise before every
# command's output: a bot's one-line error became eleven lines.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
