"""Write docs/actions.md: the action encoding of every game, with its picture and examples,
computed by shashki itself (so the page cannot drift from the code).

    python docs/gen_actions.py           # write the page
    python docs/gen_actions.py --check   # exit 1 if the page is not current
"""

import argparse
import sys
from pathlib import Path

import shashki
from shashki.diagram import square_at

PAGE = Path(__file__).resolve().parent / "actions.md"

# a small position of each game where two captures join the same two squares with other pieces
ALTERNATES = {
    "russian": "W:WKc3:Bd2,f2,d4,e7",
    "giveaway": "W:WKc5:Bb4,d4,f4,g7",
    "brazilian": "W:WKa7:Bg3,f4,b6,e7",
    "italian": "W:W22:B10,11,18,19",
    "english": "W:WK14:B9,17,18,25,26",
    "international": "W:WK2:B7,17,18,21",
    "antidraughts": "W:WK25:B10,33,34,42",
    "breakthrough": "W:WK46:B29,32,33,43",
    "pool": "W:WK17:B10,22,23,27",
    "spanish": "W:WK17:B11,13,14,27",
    "czech": "W:WKd8:Bb4,c7,e7,g7",
    "thai": "W:WKh6:Bc5,e5,g5,g7",
    "frisian": "W:W40:B39,44,33,23",
    "frysk": "W:W14:B15,19,24,30",
    "turkish": "W:WKh2:Bc4,h3,g6,f7",
}

INTRO = """\
# Actions and observations

For learning systems (AlphaZero-style self-play, MCTS, reinforcement learning, data sets):
every legal move of every game is one integer of a fixed action space, and every position a
fixed-shape array.  Both come from the compiled core, per position, with no numpy needed:
they are exported through the buffer protocol, so `numpy.asarray` takes them without a copy.
The PettingZoo environment `shashki.rl`, the batched playouts `shashki.playouts`, the vector
environment, the batched inputs and the OpenSpiel games of [Learning at scale](learning.md)
use them.
This page is written by `docs/gen_actions.py` from shashki itself.

## The action encoding

A game of S squares (32 on 8x8) numbers its squares 0..S-1 as the Board does: row by row from
White's side, each row from White's left (a1 = 0 on the algebraic boards).  Then:

- a move from square *f* to square *t* is action **f x S + t**.  A quiet move, and a capture of
  one piece, is the only legal move between its two squares, so this is its action.  A flying
  king whose capture ends where it started has f = t.
- Several captures may join the same two squares, taking different pieces: a man's two double
  jumps around a square, a flying king's loops.  Among those of one (f, t), the capture whose
  captured squares, read as a mask (bit s for square s), is smallest keeps f x S + t.  Each
  other one is an *alternate*: the alternates of the position, in the order of (f, t, captured
  mask), are actions **S x S + 0, S x S + 1, ...**
- The actions number the moves of a position with at most 512 legal moves, so at most 511
  alternates.  The action space of a game is **S x S + 511**: 1535 actions on 8x8, 3011 on
  10x10 (`Variant.action_space_size`).  No game comes near 512 moves, but a set-up can pass
  it (538 in a valid turkish position with five kings against fourteen pieces): its moves are
  listed, played, counted and searched as any others, and the action functions, the vector
  environment and playouts that record actions refuse it with `shashki.ActionSpaceError`.

Every legal move has its own action, which depends only on the position and the move (never
on the order in which the moves are generated).  With `perspective=True` the squares are
numbered from the side to move's side: for Black, square s is S - 1 - s (the board turned half
a turn), so that both sides play up the board; Black's reply f6-e5 to c3-d4 is then the same
action as c3-d4.

    >>> import shashki
    >>> board = shashki.Board("russian")
    >>> board.move_to_action(board.parse_move("c3-d4"))
    301
    >>> board.action_to_move(301)
    <Move c3-d4>
    >>> board.push("c3-d4")
    <Move c3-d4>
    >>> board.move_to_action(board.parse_move("f6-e5"), perspective=True)
    301
    >>> board.legal_actions()                 # ascending, as OpenSpiel's
    [656, 657, 689, 690, 722, 723, 755]
    >>> mask = board.legal_action_mask()
    >>> len(mask), sum(mask), mask[656], mask[-1]
    (1535, 7, 1, 0)

`legal_actions()` lists the actions in ascending order, as OpenSpiel's does (not in the order
of `legal_moves`: `move_to_action` and `action_to_move` map one to the other).  The mask, the
planes and the playouts' arrays are shashki Buffers: sequences (`len`, `m[i]` with negative
`i` too, slices, iteration, `tolist()`) that export the buffer protocol, so
`numpy.asarray(mask)` takes them without a copy; a row or a slice is a copy.

An action out of range raises `InvalidActionError`, one that no legal move has
`IllegalActionError` (which lists the legal actions); both are `ValueError`s.

## Observations

`Board.planes(perspective=False)` is a float32 array of shape (10, rows, files),
(10, 8, 8) on 8x8 and (10, 10, 10) on 10x10 (`Variant.planes_shape`).  Row r of a plane is row r of the board from
White's side (from the side to move's side with `perspective`), column c the file c (a = 0,
in the Board's numbering: the italian diagram draws it mirrored); light squares are 0.

| plane | holds |
|---|---|
| 0 | White's men (the side to move's, with `perspective`) |
| 1 | White's kings (the side to move's) |
| 2 | Black's men (the other side's) |
| 3 | Black's kings (the other side's) |
| 4 | 1 everywhere when White is to move, else 0 |
| 5 | the position's earlier occurrences: 0, 1/2 (seen once before), 1 (the third time: drawn) |
| 6 | the kings-only counter (english: the no-progress counter) over the game's limit |
| 7 | endgame rules only: plies since the balance of forces changed (7.2.4, 7.2.6) over the longer limit (7.2.6's with 6-7 pieces, else 7.2.4's) |
| 8 | endgame rules only: the count of three pieces against a lone king (7.2.7, 6.3), (plies + 1) over (2 x its moves + 1), while the configuration holds |
| 9 | endgame rules only: the count of two pieces or fewer against a lone king (7.2.8, 6.4), the same |

In frisian and frysk (no such rules, but a limit on a king's moves in a row and two endgame
draws of their own) plane 8 holds the kings' runs: on the square of each side's running king,
its quiet moves in a row over the limit of 3 (1: that king may only capture now), so that the
planes hold the whole state of the position; plane 9 the count of two kings against one
(plies + 1 over 2 x 7 + 1) or of king against king (over 2 x 2 + 1) while it holds.

"Endgame rules" are a game's `Variant.endgame_draws` when in force (russian's FMJD-64 7.2.4-7.2.8,
international's 6.3-6.4, pool's); elsewhere planes 7-9 are 0.

    >>> import numpy                                        # doctest: +SKIP
    >>> numpy.asarray(shashki.Board("english").planes()).shape  # doctest: +SKIP
    (10, 8, 8)
    >>> shashki.Board("english").planes().shape
    (10, 8, 8)

## Batched playouts

`shashki.playouts(variant, n, seed=..., jobs=...)` plays n random games to their end in C,
without the GIL, in `jobs` threads, under the game's full rules (draw rules included: the same
C code as `Board.outcome`).  It returns their results (+1 White won, -1 Black won, 0 drawn),
lengths and terminations, and with `positions=True` / `actions=True` every ply's position and
action.  Game i depends only on the seed and i, so a seed gives the same games for any `jobs`.
The games start from a game's start (its name, a `Variant` or a `shashki.Game`), from a
`Position`, or from a `Board`, whose history and draw counters then count across the start.

    >>> games = shashki.playouts("english", 1000, seed=1, jobs=2, actions=True)
    >>> len(games), games.actions.format, games.plies == len(games.actions)
    (1000, 'i', True)

`benchmarks/bench_rl.py` compares its speed with the Board driven from Python and with
OpenSpiel's checkers.  The games are played by the game's own compiled kernel
(`_core/playout.pxi`, compiled into each kernel with the game's rules as constants): a quiet
move, or a capture that is one man's single jump (most captures of a random game), is drawn
from a count of the moves and only that move is made; the moves are listed only for the other
captures.  Where the choice depends on the random number (which direction, which king's
ray), it is made without a branch, since a branch on a random number goes the wrong way half
the time.

## The PettingZoo environment

`shashki.rl.env(variant=...)` (the `rl` extra: `pip install "shashki[rl]"` once shashki is
installed) is an AEC environment in the style of PettingZoo's classic games: observations
`{"observation": planes, "action_mask": mask}` from each agent's side, actions as above, +1/-1
when a side has no move (in giveaway that side wins), a draw rule as a truncation;
`shashki.rl.parallel_env(variant=...)` is the same game under PettingZoo's parallel API (only
the action of the agent to move is played).  Render modes: `"human"` and `"ansi"` (the board
as text), `"rgb_array"` (the picture of shashki.svg as an array).  `examples/rl_agents.py`
plays a random agent against the engine.

# The games
"""


def picture(variant):
    """The game's diagram with its square names beside the square numbers of the actions."""
    files = variant.geometry.files
    border = "+" + "-" * (3 * files + 1) + "+"
    lines = [("    its squares").ljust(4 + len(border) + 5) + "the squares of the actions",
             "    " + border + "     " + border]
    for row in range(variant.geometry.rows):
        names, numbers = [], []
        for col in range(files):
            s = square_at(variant, row, col)
            names.append("  " if s is None else f"{variant.square_name(s):>2}")
            numbers.append("  " if s is None else f"{s:>2}")
        lines.append(f"    | {' '.join(names)} |     | {' '.join(numbers)} |")
    lines.append(lines[1])
    return "\n".join(lines)


def move_table(board, perspective):
    rows = ["| move | f | t | action |", "|---|---|---|---|"]
    n = board.variant.geometry.squares
    for move in sorted(board.legal_moves, key=lambda m: board.move_to_action(m)):
        action = board.move_to_action(move, perspective=perspective)
        flip = perspective and board.turn == shashki.BLACK
        f, t = ((n - 1 - s if flip else s) for s in (move.origin, move.destination))
        kind = "" if action < n * n else f" (alternate {action - n * n})"
        rows.append(f"| {move} | {f} | {t} | {action}{kind} |")
    return "\n".join(rows)


def section(name):
    variant = shashki.get_variant(name)
    board = shashki.Board(name)
    side = "White" if variant.first_to_move == shashki.WHITE else "Black"
    alt = shashki.Board(name, ALTERNATES[name])
    n = variant.geometry.squares
    parts = [f"## {variant.title}", "",
             f"{n} squares: a move from f to t is action f x {n} + t; alternates from {n * n}; "
             f"{variant.action_space_size} actions; observations {variant.planes_shape}.  The "
             f"diagram is drawn as the game draws it (White at the bottom).", "",
             picture(variant), "",
             f"The first moves ({side} to move, `perspective=False`):", "",
             move_table(board, False), "",
             f"Captures joining the same two squares, `{ALTERNATES[name]}`:", "",
             move_table(alt, False), ""]
    return "\n".join(parts)


def render():
    return INTRO + "\n" + "\n".join(section(v.name) for v in shashki.VARIANTS)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the page is current")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE} is not current: run python docs/gen_actions.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
