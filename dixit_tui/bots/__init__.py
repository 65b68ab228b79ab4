"""Bots: a clue-to-card similarity, strategies (smart and random), and players that sit at tables like humans.

- `similarity`: `fit(clue, card_text)`, stems and a small table of related concepts.
- `view`: `BotView`, what a strategy sees, from an engine PlayerView or a protocol `state` message.
- `strategy`: `SmartStrategy`, `RandomStrategy`, and `decide(view, strategy, rng)` -> the action a seat owes.
- `brain`: a bot's memory around its strategy (one decision at a time, retries, a voided turn's card).
- `player`: `BotPlayer` and `add_bots`, in-process through the coordinator.
- `cli`: `dixit-tui bot`, bots over SSH speaking the headless protocol.
- `bench_strength`: smart against random over many engine games.
"""
