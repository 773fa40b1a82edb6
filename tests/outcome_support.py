"""What the game-end tests share: FENs from algebraic names, lines of moves found by a small
search that knows nothing of the draw rules, and the check of a limit."""

import shashki
from shashki.variants import RUSSIAN
from shashki.outcome import Outcome, Termination

GAMES = ["russian", "giveaway", "brazilian", "italian", "english"]
T = Termination


def sq(name):
    return RUSSIAN.square(name)


def fen(game, turn, white, black):
    """A FEN in `game`'s notation from algebraic names ("Ka1" for a king); the internal squares
    are the same in every game (italian only mirrors the names), so one drawing serves all."""
    variant = shashki.get_variant(game)

    def side(items):
        out = []
        for item in items:
            king = item.startswith("K")
            out.append(("K" if king else "") + variant.square_name(sq(item.lstrip("K"))))
        return ",".join(out)
    return f"{turn}:W{side(white)}:B{side(black)}"


def move(board, origin, destination):
    """The legal move from `origin` to `destination` (algebraic names)."""
    fits = [m for m in board.legal_moves
            if m.origin == sq(origin) and m.destination == sq(destination)]
    assert len(fits) == 1, (origin, destination, board.fen(), list(board.legal_moves))
    return fits[0]


def play(board, *pairs):
    for origin, destination in pairs:
        board.push(move(board, origin, destination))


def is_king_move(board, ply, m):
    return board.kings >> m.origin & 1


def find_line(board, plies, allow=is_king_move, max_nodes=50_000):
    """`plies` moves from `board` with no capture and no position twice, each move allowed by
    allow(board, ply, move).  The board is left as it was."""
    seen = {board.fen()}
    line = []
    nodes = 0

    def search(ply):
        nonlocal nodes
        if ply == plies:
            return True
        for m in sorted(board.legal_moves, key=lambda m: (m.origin, m.destination)):
            if m.is_capture or not allow(board, ply, m):
                continue
            nodes += 1
            assert nodes < max_nodes, "no line found"
            board.push(m)
            key = board.fen()
            if key not in seen:
                seen.add(key)
                line.append(m)
                if search(ply + 1):
                    board.pop()
                    return True
                line.pop()
                seen.discard(key)
            board.pop()
        return False

    assert search(0), "no line found"
    return line


def push_all(board, line):
    for m in line:
        board.push(m)


def assert_limit(board, line, termination, claim=False, article=None):
    """No outcome through the line's last-but-one ply; after its last ply, a draw by
    `termination` (with claim_draw when `claim`)."""
    for m in line[:-1]:
        assert board.outcome(claim_draw=True) is None, (board.fen(), board.outcome(True))
        board.push(m)
    assert board.outcome(claim_draw=True) is None, (board.fen(), board.outcome(True))
    board.push(line[-1])
    outcome = board.outcome(claim_draw=claim)
    assert outcome == Outcome(None, termination), (board.fen(), outcome)
    assert outcome.article == article
    assert board.is_game_over(claim_draw=claim)
    assert board.result(claim_draw=claim) == "1/2-1/2"
    return outcome
