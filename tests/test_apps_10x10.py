"""`shashki play` and `shashki match` on the 10x10 board (international, antidraughts,
breakthrough), and `shashki match` with an external engine over the Hub protocol."""

import io
import os
import random
import re
import subprocess
import sys

import pytest

import shashki
from shashki import pdn
from shashki.apps.match import match
from shashki.apps.play import PlaySession
from shashki.apps.players import EngineSpecError, HubPlayer, make_player
from shashki.apps.records import describe_outcome
from shashki.limits import Limit

TEN = ["international", "antidraughts", "breakthrough"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")
HUB = f"hub:{sys.executable} -m shashki hub --hash 4"


def run(args, lines=(), cwd=None, timeout=120):
    proc = subprocess.run([sys.executable, "-m", "shashki", *args],
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          text=True, cwd=cwd, env=ENV, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def test_play_international_through_a_pipe(tmp_path):
    code, out, err = run(["play", "international", "--depth", "1", "--save", "g.pdn"],
                         ["32-28", "moves", "board", "fen", "hint", "31-26x", "undo", "fen",
                          "quit"], tmp_path)
    assert code == 0 and err == ""
    assert "you play 32-28" in out
    assert re.search(r"^move 1, black \(shashki\): \d+-\d+ ", out, re.M)
    # the 10x10 diagram with its key of squares 1-50
    assert "|     1     2     3     4     5 |" in out and "| 46    47    48    49    50    |" in out
    fens = [line for line in out.splitlines() if line.startswith(("W:", "B:"))]
    assert fens[-1] == "W:W31-50:B1-20"     # after undo: the start again
    hint = re.search(r"^hint: (\S+) ", out, re.M).group(1)
    assert re.fullmatch(r"\d+[-x]\d+", hint)
    assert "error: " in out                 # 31-26x is not a move
    assert "no moves were played; nothing saved" in out


@pytest.mark.parametrize("variant", TEN)
def test_play_a_whole_10x10_game(variant, tmp_path):
    board = shashki.Board(variant)
    rng = random.Random(variant)
    save = tmp_path / "game.pdn"
    session = PlaySession(board, shashki.WHITE, limit=Limit(depth=1), out=io.StringIO(),
                          echo=False, save=str(save))
    session.read = lambda prompt: str(rng.choice(list(board.legal_moves)))
    assert session.run() == 0
    outcome = board.outcome()
    assert outcome is not None and session.result == outcome.result()
    assert session.reason == describe_outcome(outcome, variant, board)
    # (the game is named: shashki.pdn does not yet read a 10x10 GameType by itself)
    with open(save, encoding="utf-8") as handle:
        game = pdn.read_game(handle, variant=variant)
    assert game.headers["GameType"] == "20,W,10,10,N2,0"
    assert game.board().outcome() == outcome and game.headers["Result"] == outcome.result()


def test_match_international_command(tmp_path):
    save = tmp_path / "m.pdn"
    code, out, err = run(["match", "depth=2", "nodes=300", "--variant", "international",
                          "--games", "2", "--save", str(save)])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("match: A depth=2 vs B nodes=300, international, 2 games from "
                               "random")
    assert re.match(r"game +1 .* A white +(1-0|0-1|1/2-1/2) +\d+ plies", lines[1])
    assert "FMJD-64" not in out
    with open(save, encoding="utf-8") as handle:
        games = list(pdn.read_games(handle, variant="international"))
    assert len(games) == 2 and all(g.headers["GameType"] == "20,W,10,10,N2,0" for g in games)
    for game in games:
        final = game.board()
        assert (final.outcome().result() if final.outcome() else "1/2-1/2") == game.result


def test_match_breakthrough_has_a_winner_who_crowned():
    result = match("depth=2", "depth=1", "breakthrough", games=2, openings="start")
    for record in result.games:
        if record.termination is shashki.Termination.KING_CROWNED:
            assert record.winner is not None and "crown" in record.reason
            assert not record.reason.startswith("draw")


def _draw_with_kings(board):
    """Play king moves that leave nothing to capture until a draw rule ends the game."""
    while board.outcome() is None:
        for move in board.legal_moves:
            board.push(move)
            if not any(reply.is_capture for reply in board.legal_moves):
                break
            board.pop()
        else:
            pytest.fail(f"every move gives a piece away in {board.fen()}")
    return board.outcome()


def test_outcomes_name_the_fmjd_articles():
    # one king against a lone king: drawn after 5 moves of each side (FMJD 6.4)
    outcome = _draw_with_kings(shashki.Board("international", "W:WK48:BK3"))
    assert outcome.winner is None and outcome.article == "6.4"
    assert describe_outcome(outcome, "international").endswith("(FMJD art. 6.4)")
    outcome = _draw_with_kings(shashki.Board("russian", "W:WKc1:BKf8"))
    assert "(FMJD-64 art. 7.2." in describe_outcome(outcome, "russian")


def test_match_against_a_hub_engine():
    # the client's engine plays the built-in one; the process ends with the match
    result = match(HUB, "depth=1", "international", games=2, depth=2, openings="start")
    assert result.games_played == 2 and result.a.startswith("shashki ")
    assert result.stats_a.searches > 0 and result.stats_a.nodes > 0
    player = make_player(HUB, shashki.get_variant("antidraughts"), 1, None, "A")
    assert isinstance(player, HubPlayer) and player.limit == Limit(depth=1)
    board = shashki.Board("antidraughts")
    assert player.choose(board).best_move in board.legal_moves
    player.close()
    assert player.engine.process.returncode == 0
    with pytest.raises(EngineSpecError, match="names no command"):
        make_player("hub:  ", shashki.get_variant("russian"), 1, None, "A")


def test_match_command_with_a_hub_engine():
    code, out, err = run(["match", HUB, "depth=1", "--variant", "breakthrough", "--games", "2",
                          "--depth", "1", "--openings", "start"])
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"match: A {HUB} vs B depth=1, breakthrough")
    assert re.search(r"^shashki \S+: \+\d =\d -\d", out, re.M)
    code, out, err = run(["match", "hub:/no/such/engine", "depth=1"])
    assert code == 2 and "No such file" in err
