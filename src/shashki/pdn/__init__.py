"""PDN: read and write game records (the draughts cousin of chess PGN).

>>> import io, shashki.pdn
>>> game = shashki.pdn.read_game(io.StringIO('[GameType "25"]\\n\\n1. c3-d4 f6-g5 *'))
>>> game.variant.name, [str(m) for m in game.moves]
('russian', ['c3-d4', 'f6-g5'])
>>> game.board().move_stack      # the final Board, with the moves that led to it
[<Move c3-d4>, <Move f6-g5>]

Reading follows python-chess's ``read_game``: one game per call, read line by line so a large
file is never loaded whole; tags, ``{comments}``, ``;`` comments, NAGs (``$1``, ``!``, ``?``),
move numbers and results are understood; variations ``( ... )`` are kept, as python-chess
keeps them (below; ``variations=False`` skips them unread).  The game is taken
from the ``GameType`` tag, else a ``Variant`` tag, unless the caller forces one (``variant=``);
``FEN`` sets up the position.  Every move is replayed on a Board (``Board.parse_move``: the
forms ``Board.push`` takes, the russian short form ``gh4`` included), so a Game only ever
holds legal moves.  Numbers of any length read (a zero-padded ``$0001`` is
NAG 1, a GameType ``0025`` is 25).

Results: ``1-0`` is a win of White and ``0-1`` of Black in every game, english included
(where Black moves first), as ``Board.result()`` says.

PlayStrategy's english dialect is read as well (shashki.pdn.dialects): it has no ``GameType``,
names squares algebraically *as seen from the side that moves first* (Black, whose men stand on
its rows 1-3), and splits a multi-jump into single jumps (``d8xf6 f6xd4`` is one move).  Seen
from White that board is turned half a turn, so the square (file, rank) there is
(h - file, 8 - rank) here: the usual first move ``c3-d4`` is ``11-15``.  Jumps are merged when a
capture starts on the square where the previous capture ended: the opponent can never move from
that square (the capturing piece stands on it), so only a continuation fits.  Its players are
``P1`` (the first mover, Black in english) and ``P2``, and its results are scored P1 first:
reading turns them into White-first scores (PlayStrategy's ``1-0`` in english is read as
``0-1``, Black won) and adds ``White`` and ``Black`` tags naming the players.

Errors: a malformed game raises InvalidPdnError naming the game number, the line and the
problem.  The whole game is read first, so the next ``read_game`` call starts at the next game.
With ``strict=False`` (python-chess's behaviour) nothing is raised: the errors are recorded in
``game.errors``, the moves after a bad one are dropped, and reading goes on.

Variations (read by default; ``variations=False`` skips them): ``game.variations[i]`` lists the lines that replace move i of
the mainline, each a `Variation` (a list of Moves replayed from the position *before* move i).
Variations nest to any depth: ``line.variations[j]`` lists the lines that replace move j of
`line`, in the same structure.  A variation opens after the move it replaces, as in PGN:
``1. c3-d4 (1. e3-f4 f6-e5) 1... f6-g5``.  Comments and NAGs inside a variation are not kept,
nor results written inside one.  A variation with an illegal or unreadable move raises
InvalidPdnError naming the variation; with ``strict=False`` the error is recorded and that
variation (with the variations inside it) is dropped, the rest of the game stands.  A
variation still open at the end of the game is an error too; read leniently, it keeps the
moves read.  Writing puts
each variation after the move it replaces, numbered as PGN does (``(3... e7-d6 4. c3-d4)``,
and ``3...`` again for the second mover's move after a variation).  Reading and writing work
at any depth of nesting, in memory that grows with the text.

Reading streams each game to a Visitor as it is read (python-chess's ``read_game(handle,
Visitor=...)``): by default a GameBuilder, which builds the Game.  `read_headers` reads the
headers of the next game with a HeadersBuilder, which skips the moves unread (a fast scan of a
large file, in which a game with illegal moves is no error), and `skip_game` skips a game:

>>> text = '[White "A"]\\n\\n1. cd4 fg5 2. gh4 *\\n\\n[White "B"]\\n\\n1. a1-a2 *'
>>> handle = io.StringIO(text)
>>> shashki.pdn.read_headers(handle)["White"], shashki.pdn.read_headers(handle)["White"]
('A', 'B')
>>> [str(m) for m in shashki.pdn.read_game(io.StringIO(text)).moves]
['c3-d4', 'f6-g5', 'g3-h4']

Behind the lists, a game is a tree of GameNodes (``game.root``), one per move; every node's
``board()`` is the Board after its move (``game.end().board()``, the final one, as in
python-chess; ``game.root.board()``, the start), and
``game.accept(visitor)`` walks it in file order and calls a Visitor's methods as the reader
does (shashki.pdn.model); the writer, PdnWriter, is such a visitor, and so is
`shashki.pdn.visitors`' GameBuilder, HeadersBuilder and SkipVisitor.

The package: `model` (the node tree and the Visitor), `game` (Game, Variation), `reader`
(lines, tags, tokens), `builder` (the replay of the moves, sent to the visitor), `visitors`
(the visitors read_game is given), `dialects` (how files name the games; PlayStrategy),
`writer` (PDN text).
"""

from ..errors import InvalidPdnError
from .game import Game, Variation, write_game, write_games
from .model import RESULTS, SKIP, GameNode, SkipType, Visitor
from .reader import PdnHandle, read_game, read_games, read_headers, skip_game
from .visitors import GameBuilder, HeadersBuilder, SkipVisitor
from .writer import LINE_WIDTH, PdnWriter

__all__ = ["Game", "Variation", "read_game", "read_games", "read_headers", "skip_game",
           "write_game", "write_games", "RESULTS", "GameNode", "Visitor", "SKIP", "SkipType",
           "GameBuilder", "HeadersBuilder", "SkipVisitor", "PdnWriter", "PdnHandle",
           "InvalidPdnError", "LINE_WIDTH"]
