"""Scoring as pure functions of who voted where. Standard scoring credits "units": seats, or teams in team mode."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

FIND_POINTS = 3  # storyteller and each finder, when some but not all found
MISS_POINTS = 2  # everyone but the storyteller, when all or none found
PARTY_MAX = 5


def score_units(
    *,
    seats: Iterable[int],
    storyteller: int,
    teller_slot: int,
    owners: Mapping[int, int],
    votes: Mapping[int, tuple[int, ...]],
    bonus_cap: int | None,
    single_vote_extra: bool,
    unit_of: Callable[[int], int] | None = None,
) -> tuple[str, dict[int, tuple[int, int, int, int]]]:
    """Two-pass scoring. `owners` maps slot -> seat, `votes` maps voter -> slots. Returns (outcome, unit -> (pass1,
    bonus_raw, bonus, extra)); outcome is "some" (some but not all voters found the storyteller's card), "all" or
    "none". `unit_of` None: every seat is its own unit (scored by `score_seats`)."""
    if unit_of is None:
        seats = tuple(seats)
        size = 1 + max((*seats, storyteller, *votes, *owners.values()))
        by_slot = [owners.get(slot) for slot in range(1 + max(owners, default=0))]
        outcome, pass1s, raws, extras = score_seats(
            size, seats, storyteller, teller_slot, by_slot, votes, single_vote_extra, first_slot=0
        )
        return outcome, {
            seat: (
                pass1s[seat],
                raws[seat],
                raws[seat] if bonus_cap is None else min(raws[seat], bonus_cap),
                extras[seat],
            )
            for seat in seats
        }
    units = {unit_of(s) for s in seats}
    teller_unit = storyteller if unit_of is None else unit_of(storyteller)
    # plain dicts rather than Counters: a Counter's missing key costs a Python call
    pass1: dict[int, int] = {}
    raw: dict[int, int] = {}
    extra: dict[int, int] = {}

    found = [voter for voter, slots in votes.items() if teller_slot in slots]
    if 0 < len(found) < len(votes):
        outcome = "some"
        pass1[teller_unit] = pass1.get(teller_unit, 0) + FIND_POINTS
        for voter in found:
            unit = voter if unit_of is None else unit_of(voter)
            pass1[unit] = pass1.get(unit, 0) + FIND_POINTS
    else:
        outcome = "all" if found else "none"
        for unit in units:
            if unit != teller_unit:
                pass1[unit] = pass1.get(unit, 0) + MISS_POINTS

    for slots in votes.values():
        for slot in slots:
            owner = owners[slot]
            if owner != storyteller:  # the storyteller never scores bonus
                unit = owner if unit_of is None else unit_of(owner)
                raw[unit] = raw.get(unit, 0) + 1

    if single_vote_extra:
        for voter in found:
            if len(votes[voter]) == 1:
                unit = voter if unit_of is None else unit_of(voter)
                extra[unit] = extra.get(unit, 0) + 1

    result = {}
    for unit in units:
        got = raw.get(unit, 0)
        result[unit] = (pass1.get(unit, 0), got, got if bonus_cap is None else min(got, bonus_cap), extra.get(unit, 0))
    return outcome, result


def score_party(green: Mapping[int, int], red_slot: int) -> dict[int, int]:
    """Party mode: each player scores how many players (themselves included) share their green vote's card, at
    most 5; alone on a card, or on the red-marked card, scores 0."""
    counts = Counter(green.values())
    return {
        seat: 0 if slot == red_slot or counts[slot] < 2 else min(counts[slot], PARTY_MAX)
        for seat, slot in green.items()
    }


def score_seats(
    size: int,
    seats: Iterable[int],
    storyteller: int,
    teller_slot: int,
    owners: Sequence[int | None],
    votes: Mapping[int, tuple[int, ...]],
    single_vote_extra: bool,
    *,
    first_slot: int = 1,
) -> tuple[str, list[int], list[int], list[int]]:
    """Two-pass scoring where every seat is its own unit (standard mode; the engine's end of turn): the outcome
    and, by seat (lists of `size`), pass 1, the bonus before any cap, and the extra. `owners[slot - first_slot]` is
    the seat whose card is in that slot; `votes` maps voter -> slots."""
    pass1 = [0] * size
    raw = [0] * size
    extra = [0] * size
    found = [voter for voter, slots in votes.items() if teller_slot in slots]
    if 0 < len(found) < len(votes):
        outcome = "some"
        pass1[storyteller] += FIND_POINTS
        for voter in found:
            pass1[voter] += FIND_POINTS
    else:
        outcome = "all" if found else "none"
        for seat in seats:
            if seat != storyteller:
                pass1[seat] += MISS_POINTS
    for slots in votes.values():
        for slot in slots:
            owner = owners[slot - first_slot]
            if owner is None:
                raise KeyError(slot)
            if owner != storyteller:  # the storyteller never scores bonus
                raw[owner] += 1
    if single_vote_extra:
        for voter in found:
            if len(votes[voter]) == 1:
                extra[voter] += 1
    return outcome, pass1, raw, extra
