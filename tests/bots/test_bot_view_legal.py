"""A BotView takes the seat's legal moves from the view (engine/legal.py) or from a state message, and reads an
older server's state (without them) as the rules say."""

from __future__ import annotations

import random
from typing import Any

from dixit_tui.bots.strategy import ClueAction, VoteAction, legal
from dixit_tui.bots.view import BotView
from dixit_tui.engine import GiveClue, VoidTurn, view_for
from dixit_tui.protocol.views import game_fields
from tests.engine.helpers import make_game, submit_all


def voided_view() -> tuple[Any, str]:
    game = make_game(4)
    card = game.state.hands[1][0]
    game.execute(GiveClue(1, "first try", card))
    game.execute(VoidTurn(game.state.host))
    return view_for(game.state, 1), card


def test_the_voided_card_comes_with_the_view_not_from_memory() -> None:
    view, card = voided_view()
    for bot in (BotView.from_player_view(view), BotView.from_protocol({"type": "state", **game_fields(view)})):
        assert bot.needed() == "clue" and card not in {c.card for c in bot.clue_cards()}
        assert not legal(bot, ClueAction("again", card))
        assert legal(bot, ClueAction("again", bot.clue_cards()[0].card))


def test_votes_go_only_to_the_slots_the_view_opens() -> None:
    game = make_game(4)
    game.execute(GiveClue(0, "hush", game.state.hands[0][0]))
    submit_all(game)
    view = view_for(game.state, 2)
    message = {"type": "state", **game_fields(view)}
    bot = BotView.from_protocol(message)
    assert [s.slot for s in bot.open_slots()] == list(view.vote_slots) and len(view.vote_slots) == 3
    own = view.forbidden_slots[0]
    assert not legal(bot, VoteAction((own,))) and legal(bot, VoteAction((view.vote_slots[0],)))
    narrowed = BotView.from_protocol({**message, "vote_slots": [view.vote_slots[1]]})  # the server's word counts
    assert not legal(narrowed, VoteAction((view.vote_slots[0],)))


def test_an_older_servers_state_is_read_as_the_rules_say() -> None:
    game = make_game(3)
    rng = random.Random(1)
    seat = rng.choice(game.state.waiting_for())
    fields = game_fields(view_for(game.state, seat))
    for key in ("can_clue", "clue_needs_card", "clue_cards", "voided_card", "can_vote", "vote_slots"):
        del fields[key]
    bot = BotView.from_protocol({"type": "state", **fields})
    assert bot.can_clue and bot.clue_needs_card and not bot.can_vote and bot.needed() == "clue"
    assert bot.open_slots() == () and len(bot.clue_cards()) == 7
