"""The practice turn's help: a few lines beside the table while it plays its unscored practice turn (turn 0).

The host starts the game with a practice turn (`p` in the table's lobby). The table then plays one real turn, told by
the host, through the same screens as the game; nothing it scores counts, and afterwards every card is dealt again
and the game proper begins. `practice_help` says, for the phase in progress and the reader's role, what happens now.
"""

from __future__ import annotations

from textual.content import Content

from dixit_tui.coordinator import TableView
from dixit_tui.engine import Mode, Phase

HEADLINE = "Practice turn: this does not count."


def practice_help(view: TableView) -> Content | None:
    """The help for this reader at this moment of the practice turn, or None when no practice turn is under way."""
    game = view.game
    if game is None or not game.practice:
        return None
    you = view.you
    teller = game.name_of(game.storyteller) or "The storyteller"
    party = game.mode == Mode.PARTY
    team = game.mode == Mode.TEAM
    telling = you is not None and you == game.storyteller
    if game.phase == Phase.CLUE:
        if telling and party:
            text = (
                "You are the storyteller. Give a clue: a word, a sound, a line of a song. There is no card of yours "
                "to describe: everyone, you too, then gives a card that fits it."
            )
        elif telling:
            text = (
                "You are the storyteller. Choose a card from your hand and give a clue about it. Not too obvious, "
                "not too vague: if everyone or nobody finds your card, you score nothing."
            )
        elif party:
            text = f"{teller} is the storyteller and gives a clue. Then everyone gives a card that fits it."
        else:
            text = (
                f"{teller} is the storyteller: they choose a card and give a clue about it. Then you add a card of "
                "your own that fits the clue, to draw votes."
            )
    elif game.phase == Phase.SUBMIT:
        if game.submit_count:
            text = (
                "Choose the card of your hand that fits the clue best. The others vote without knowing whose card "
                "is whose: each vote on your card scores you a point."
            )
            if team:
                text += " In team mode one of you gives your team's card: agree in team chat (T) first."
        elif telling:
            text = "Your card is in. The others now add cards that fit your clue."
        else:
            text = "The cards are coming in. Once all are in, they are shuffled and laid out, numbered."
    elif game.phase == Phase.VOTE:
        if game.places_red:
            text = (
                "Give your green vote, and put the red marker on any card: whoever voted for the red card scores "
                "nothing."
            )
        elif party and you is not None:
            text = (
                "Vote for the card you think most others pick: you score one point for each player on the same "
                "card (at most 5). Your own card is allowed."
            )
        elif telling:
            text = "The others now look for your card. You score 3 if some of them find it, but not all."
        elif you is not None and you not in game.waiting_for and not game.your_votes:
            text = "Your team's card is on the board: this turn you watch the vote."
        else:
            text = (
                f"Find {teller}'s card: turn the dial and vote. Finding it scores 3 when some but not all find it. "
                "You cannot vote for your own card."
            )
    else:
        text = "The practice is over: every card is dealt again, and the game begins."
    if you is None:
        text = "You are watching the table play a practice turn. " + text
    return Content.assemble((HEADLINE, "bold"), " ", text)
