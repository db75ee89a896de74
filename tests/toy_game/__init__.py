"""Toy: a tiny deck-building game with hidden information, written only against the engine's game
contract (`hoc.engine.spec.GameSpec`), to prove that contract complete: nothing outside this folder
and `tests/test_toy_game.py` knows it. It joins the engine by `hoc.games.register("toy_game.spec")`
(with this folder's parent, `tests/`, on the Python path).

The game: 2 to 4 players; a supply of Copper (1 coin), Silver (2 coins), Estate (1 VP), Duchy (3 VP)
and kingdom cards (Lab: +2 cards; Bazaar: +1 card, +1 action, +1 coin), one or both of them per game;
each player starts with 7 Copper and 3 Estates, shuffled, and draws 5. A turn: play Action cards while
actions last (1 a turn), then buy at most one card (Treasures in hand count automatically) or pass;
discard everything and draw 5. The game ends when the Duchies run out or at the turn cap; most VP
most VP wins, then fewer turns; a tie still is shared."""
