"""dixit-tui: the board game Dixit, played in the terminal over SSH."""

__version__ = "0.1.0"
