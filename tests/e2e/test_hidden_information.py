"""Hidden information on the wire: whole games in every mode over real SSH, and the raw bytes every client received.

The rule (SPEC, last line): nobody sees another player's hand, nor who submitted which card, nor anyone's vote,
before the reveal. Each game here is played by headless JSON players over SSH (the bots' strategy on the protocol
state), watched by one headless spectator and two TUI spectators (one through `ssh -t ... watch CODE`, one through
the lobby's Watch key). The test process shares the server's coordinator, so it snapshots the true game state
(hands, submissions, votes) and every TUI client's byte count at each broadcast, and then checks, per turn:

- headless clients (message by message, up to that client's `reveal` line): no card id or text of a hand that is not
  the client's own (the board during the vote phase is public, without owners); no `owner` or `votes` field;
  `your_cards`, `your_votes`, `your_red`, `forbidden_slots` describe the client only; spectators get none of them;
  party mode: whoever tells blind gets no hand, not even as bytes;
- TUI spectators (bytes received before the server broadcast the reveal): no text of any card in a hand (the board
  only once the vote phase was broadcast), and no recap wording (`given by`, `votes:`, ...) between the moment the
  previous recap was closed and the reveal. A positive control proves the detector sees board cards on those same
  bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.hidden_games import MODES, Mode, nothing_hidden_reaches_anyone

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


@pytest.mark.parametrize("mode", MODES, ids=[m.id for m in MODES])
async def test_nothing_hidden_reaches_anyone_before_the_reveal(tmp_path: Path, mode: Mode) -> None:
    await nothing_hidden_reaches_anyone(tmp_path, mode)
