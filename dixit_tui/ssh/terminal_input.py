"""A session's typed input turned into events (the SSH driver's parser wrapper)."""

from __future__ import annotations

import logging

from textual import events
from textual.message import Message

from dixit_tui.ssh.guard import LOG_RATE
from dixit_tui.ssh.input import Pasted, Typed
from dixit_tui.textual_host.input_filter import ESC, SequenceFilter
from dixit_tui.textual_host.parser import SessionParser

logger = logging.getLogger(__name__)
logger.addFilter(LOG_RATE)


class TerminalInput:
    """A session's typed input turned into events: checked by a SequenceFilter, then read by Textual's parser. The
    parser never waits inside a sequence (the filter hands on whole ones); input it fails on is dropped (a WARNING
    once per session) and a fresh parser reads what follows."""

    def __init__(self) -> None:
        self._filter = SequenceFilter()
        self._parser = SessionParser()
        self._failed = False

    def split(self, pieces: list[Typed | Pasted]) -> list[Typed | Pasted]:
        """Typed input cut into plain text runs and whole, checked escape sequences; pastes stay as they are."""
        out: list[Typed | Pasted] = []
        for piece in pieces:
            if isinstance(piece, Pasted):
                out += map(Typed, self._filter.flush())  # what was held before the paste is settled first
                out.append(piece)
            else:
                out += map(Typed, self._filter.feed(piece.text))
        return out

    def settle(self) -> list[Typed]:
        """The escape delay passed with no more input: what was held (a lone ESC is the Esc key)."""
        return list(map(Typed, self._filter.flush()))

    def parse(self, text: str) -> list[Message]:
        """The events of one piece from `split`/`settle`: plain text, or one whole escape sequence (ESC alone is the
        Esc key)."""
        if text == ESC:
            return [events.Key("escape", ESC)]
        parser = self._parser
        try:
            messages = list(parser.feed(text))
        except Exception as error:
            if not self._failed:
                self._failed = True
                logger.warning(
                    "dropped input the terminal parser could not read (%s: %.80s)", type(error).__name__, error
                )
            else:
                logger.debug("dropped input the terminal parser could not read: %r", error)
            self._new_parser()
            return []
        if parser.waiting:  # a whole sequence the parser does not know: it must not take the next keys into it
            logger.debug("dropped an unknown escape sequence %r", text[:40])
            self._new_parser()
        return messages

    def close(self) -> None:
        self._parser.close()

    def _new_parser(self) -> None:
        old, self._parser = self._parser, SessionParser()
        self._parser.carry_over(old)
        old.close()
