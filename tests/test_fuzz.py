"""Fuzzing where test_fen, test_notation and test_pdn leave gaps (hypothesis): real PDN games
with their text mutated, the same bytes read as text and as binary, and the Hub protocol's
lines and position strings.  Each input either reads or raises one of shashki's documented
errors (a ShashkiError); nothing else escapes, nothing hangs, and what is read is legal."""

import io
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import shashki
from shashki import pdn
from shashki.hub import server, text as hub
from shashki.errors import InvalidPdnError, ShashkiError

from mutation import EDITS, mutated
from perftfile import shared_dir

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
GAMES_DIR = shared_dir() / "games"


def _real_games():
    """The game texts of ../shared/games, split at each tag section that follows movetext."""
    games = []
    for path in sorted(GAMES_DIR.glob("*.pdn")):
        text = path.read_text(encoding="utf-8")
        games += [g.strip() + "\n" for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()]
    return games


REAL_GAMES = _real_games()
needs_games = pytest.mark.skipif(not REAL_GAMES, reason="../shared/games not found")

# what a mutation inserts: PDN's own punctuation and tokens, and a few characters it never uses
PIECES = ["[", "]", '"', "{", "}", "(", ")", ";", "%", "$", "!", "?", ".", "-", "x", ":", "*",
          "/", "\n", "\n\n", " ", "\t", "\r", "1-0", "0-1", "1/2-1/2", "2-0", "1.", "12...",
          "c3", "d4", "h8", "a1", "i9", "0", "11", "32", "33", "99", '[FEN "', '[GameType "',
          '[Variant "', "K", "W:", "B:", "\ufeff", "\x00", "\u00d7", "é", "½-½", "\u2028",
          # issue 12: numbers past Python's 4,300 digits (zero-padded: they read as their value),
          # a digit int() refuses, NAGs, deep variations, PlayStrategy's players
          "0" * 4400, "9" * 4400, "$" + "0" * 4400 + "1", "$1000", "\u00b2",
          '[GameType "' + "0" * 4400 + '25"]\n', '[FEN "B:W' + "0" * 4400 + '21:B1"]\n',
          "(1. e3-f4 " * 200, "(", ")" * 50, '[P1 "x"]\n', '[P2 "y"]\n']


@st.composite
def mutated_games(draw):
    pieces = st.one_of(st.sampled_from(PIECES),
                       st.text(st.characters(exclude_categories=("Cs",)), max_size=3))
    # "cut": a file cut short
    return draw(mutated(draw(st.sampled_from(REAL_GAMES)), pieces, max_edits=6, edits=EDITS,
                        max_span=12))


def _read_leniently(handle):
    games = []
    for game in pdn.read_games(handle, strict=False):
        games.append(game)
    return games


def _check_games(games, text):
    lines = text.count("\n") + 1
    for game in games:
        assert all(isinstance(e, InvalidPdnError) for e in game.errors)
        for error in game.errors:
            # the error points into the text
            assert error.game_number is not None and 1 <= error.game_number <= len(games)
            assert error.line_number is None or 1 <= error.line_number <= lines
        # what was read replays legally from the game's own start
        board = shashki.Board(game.variant, game.starting_fen)
        for move in game.moves:
            assert move in board.legal_moves
            board.push(move)
        assert board.fen() == game.board().fen()
        str(game)   # and can be written


@needs_games
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_games())
def test_mutated_real_games(text):
    try:
        strict = list(pdn.read_games(io.StringIO(text)))
    except ShashkiError:
        strict = None
    games = _read_leniently(io.StringIO(text))
    _check_games(games, text)
    if strict is not None:
        # a strict read that passed saw no problem, and read the same games
        assert all(not g.errors for g in games)
        assert [list(g.moves) for g in strict] == [list(g.moves) for g in games]


@needs_games
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_games())
def test_mutated_real_games_with_variations(text):
    # the same, with variations kept: what is read (the mainline and every variation, each
    # replayed from the position before the move it replaces) is written back and read again
    games = list(pdn.read_games(io.StringIO(text), strict=False, variations=True))
    _check_games(games, text)
    for game in games:
        again = pdn.read_game(io.StringIO(str(game)), variations=True)
        assert again.moves == game.moves and again.errors == []
        assert str(again) == str(game)


@needs_games
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_games())
def test_bytes_read_as_text_does(text):
    as_text = _read_leniently(io.StringIO(text))
    as_bytes = _read_leniently(io.BytesIO(text.encode("utf-8")))
    assert [(g.variant, list(g.moves), [str(e) for e in g.errors]) for g in as_bytes] == \
        [(g.variant, list(g.moves), [str(e) for e in g.errors]) for g in as_text]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_only_raise_documented_errors(data):
    try:
        list(pdn.read_games(io.BytesIO(data)))
    except ShashkiError:
        pass
    _check_games(_read_leniently(io.BytesIO(data)), data.decode("utf-8", "replace"))


# --- the Hub protocol ------------------------------------------------------------------------

# replies a Hub engine sends (the protocol's own words); "internal error" would be a bug
REPLY = re.compile(r"(error message=.*|pong|ready|wait|done( .*)?|info .*|id .*|param .*)\Z")
HUB_LINES = ["hub", "init", "new-game", "ping", "stop", "ponder-hit", "level depth=3",
             "level move-time=0.5", "level time=60 inc=1 moves=40", "level infinite",
             "set-param name=variant value=italian", "set-param name=hash value=16",
             "pos", "pos start", 'pos pos=W' + "b" * 12 + "e" * 8 + "w" * 12 + ' moves="9-13"',
             'pos pos="W:W21,22,K30:B1-12" moves="22-18 9-13"', 'pos moves="11-15 23-19"']
HUB_ALPHABET = 'abcdefghopstvwxyz-=" 0123456789.WBKewb:\t'


@st.composite
def hub_lines(draw):
    if draw(st.booleans()):
        return draw(st.text(max_size=60))
    return draw(mutated(draw(st.sampled_from(HUB_LINES)), st.sampled_from(HUB_ALPHABET)))


def _command(line):
    try:
        return hub.parse_line(line)[0]
    except hub.HubProtocolError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.lists(hub_lines(), min_size=1, max_size=8))
def test_hub_session_answers_any_lines(lines):
    out = io.StringIO()
    session = server.HubSession(io.StringIO(""), out, hash_mb=1)
    try:
        for line in lines:
            # `go` would start a real search; `quit` ends the session: both are tested in
            # test_hub, here every other line is fed in
            if _command(line.strip()) in ("go", "quit") or not line.strip():
                continue
            assert session.handle(line.strip()) is True
    finally:
        if session.search is not None:
            session.search.halt()
    for reply in out.getvalue().splitlines():
        assert REPLY.match(reply), reply
        assert "internal error" not in reply


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(VARIANTS),
       text=st.one_of(
           # mostly empty squares, so that many strings are positions that read
           st.builds(lambda side, cells: side + "".join(cells), st.sampled_from("WB"),
                     st.lists(st.sampled_from("e" * 22 + "wbWB"), min_size=32, max_size=32)),
           st.text(alphabet="WBwbe", max_size=40), st.text(max_size=40)))
def test_hub_positions_read_back_or_raise(variant, text):
    try:
        board = hub.parse_position(text, variant)
    except ShashkiError:
        return
    if ":" not in text:
        # a Hub position string that reads is written back the same
        assert hub.position_text(board) == text


@settings(max_examples=200, deadline=None)
@given(variant=st.sampled_from(VARIANTS), plies=st.lists(st.integers(0, 99), max_size=20),
       text=st.one_of(st.text(alphabet="0123456789x-X: ", max_size=14), st.text(max_size=14)))
def test_hub_moves_parse_to_legal_moves_or_raise(variant, plies, text):
    board = shashki.Board(variant)
    for choice in plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    fen = board.fen()
    try:
        move = hub.parse_move(board, text)
    except ShashkiError:
        assert board.fen() == fen
        return
    assert move in board.legal_moves
    # the move's own Hub text names it again
    assert hub.parse_move(board, hub.move_text(move, variant)) == move


# --- issue 30: crafted pickles of Positions, Moves and Buffers raise, never crash -----------------

_SQUARES = st.one_of(st.integers(-3, 70), st.sampled_from([2**31, -2**31, 2**63, 1_000_000]),
                     st.none(), st.booleans(), st.floats(allow_nan=False, width=16))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["russian", "frisian", "international", "english"]),
       st.tuples(st.integers(-1, 2**51), st.integers(-1, 2**51), st.integers(-1, 2**51)),
       st.one_of(st.integers(-1, 2), st.floats(width=16), st.booleans(), st.none()),
       st.one_of(st.none(), st.text(max_size=3),
                 st.lists(st.one_of(st.tuples(_SQUARES, _SQUARES), st.tuples(_SQUARES),
                                    st.none(), st.integers()), max_size=3).map(tuple)))
def test_crafted_position_pickles_raise_documented_errors(variant, masks, turn, runs):
    from shashki._core.position import _position
    try:
        position = _position(shashki.get_variant(variant), *masks, turn, runs)
    except ShashkiError:
        return
    # (such a pickle, made before 0.3, numbers the sides White 0, Black 1)
    side = shashki.WHITE if turn == 0 else shashki.BLACK
    assert position == shashki.Position.from_masks(variant, *masks, side, runs)
    position.fen(), position.legal_moves, str(position)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["russian", "international"]), _SQUARES, _SQUARES,
       st.lists(_SQUARES, max_size=4).map(tuple),
       st.one_of(st.none(), st.lists(_SQUARES, max_size=5).map(tuple)),
       st.one_of(st.integers(-1, 3), st.booleans()), st.booleans(), st.booleans())
def test_crafted_move_pickles_raise_documented_errors(variant, origin, destination, captured,
                                                      path, routes, promotion, ambiguous):
    from shashki._core.move import _rebuild_move, notation_of
    try:
        move = _rebuild_move(origin, destination, captured, path, routes, promotion,
                             notation_of(shashki.get_variant(variant)), ambiguous)
    except ShashkiError:
        return
    str(move), repr(move), move.path, move.captured


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["B", "b", "i", "f", "q", "Q", "x", ""]),
       st.lists(st.one_of(st.integers(-2, 4), st.sampled_from([2**31, 2**32, 2**62, 2**63,
                                                                2**64])), max_size=4),
       st.binary(max_size=40))
@example("B", [2**31, 0, 4], b"")           # 2**31 empty lists, were it listed
def test_crafted_buffer_pickles_raise_documented_errors(fmt, shape, data):
    from shashki._core.arrays import _rebuild
    try:
        buffer = _rebuild(fmt, tuple(shape), data)
    except ShashkiError:
        return
    assert buffer.tobytes() == data and buffer.shape == tuple(shape)
    if len(buffer):
        buffer[len(buffer) - 1], buffer[-1]
    # tolist() of an empty buffer of shape (2**32, 0) is 2**32 empty lists: a valid answer the
    # machine cannot hold, so only buffers of few lists are listed.  It makes a list for each
    # index of every axis but the last: counted axis by axis, since a later 0 does not undo
    # the lists of the axes before it (shape (2**31, 0, 4), which the product of the axes
    # called 0 rows, took 18 GB before the machine stopped the suite)
    lists = rows = 1
    for n in buffer.shape[:-1]:
        rows *= n
        lists += rows
    if lists <= 10_000:
        buffer.tolist()
