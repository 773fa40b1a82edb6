"""shashki's games in OpenSpiel (issue 22): OpenSpiel's own random_sim_test for every game,
returns by each game's goal, the actions and observations of the Board, OpenSpiel's MCTSBot
playing on them.  Skipped without open_spiel (the extra openspiel)."""

import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import shashki  # noqa: E402
import shashki.openspiel as sos  # noqa: E402

from positions import VARIANTS  # noqa: E402


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"shashki_{v}" for v in VARIANTS} <= names
    assert sos.GAME_NAMES == tuple(f"shashki_{v}" for v in VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sim_test(variant):
    # OpenSpiel's own check: random games played to their end, with clones, serialization
    # (the history of actions replayed) and the observations of every state checked
    pyspiel.random_sim_test(pyspiel.load_game(f"shashki_{variant}"), num_sims=3,
                            serialize=True, verbose=False)


@pytest.mark.parametrize("variant", ["russian", "giveaway", "english", "frisian", "turkish"])
def test_random_sim_test_with_perspective(variant):
    game = pyspiel.load_game(f"shashki_{variant}(perspective=true,max_plies=400)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_random(game, rng):
    """A random game of `game` beside a Board; the final state and the board."""
    state = game.new_initial_state()
    board = shashki.Board(game.variant)
    perspective = game.perspective
    while not state.is_terminal():
        player = state.current_player()
        assert player == (0 if board.turn == game.variant.first_to_move else 1)
        legal = state.legal_actions()
        assert legal == board.legal_actions(perspective=perspective)
        assert state.legal_actions_mask() == list(board.legal_action_mask(
            perspective=perspective))
        observation = np.asarray(state.observation_tensor(player)).reshape(
            game.variant.planes_shape)
        assert np.array_equal(observation, np.asarray(board.planes(perspective=perspective)))
        action = rng.choice(legal)
        move = board.action_to_move(action, perspective=perspective)
        assert state.action_to_string(player, action) == str(move)
        state.apply_action(action)
        board.push(move)
        assert str(state) == board.fen()
    return state, board


@pytest.mark.parametrize("variant", VARIANTS)
def test_returns_follow_the_game_goal(variant):
    game = pyspiel.load_game(f"shashki_{variant}")
    rng = random.Random(1)
    for _ in range(3):
        state, board = play_random(game, rng)
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            assert len(board.move_stack) == game.max_plies
            assert state.returns() == [0.0, 0.0]
            continue
        if outcome.winner is None:
            assert state.returns() == [0.0, 0.0]
        else:
            winner = 0 if outcome.winner == game.variant.first_to_move else 1
            expected = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
            assert state.returns() == expected
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_giveaway_returns_are_reversed():
    # the side left without a move wins: a state whose side to move has no move
    game = pyspiel.load_game("shashki_giveaway")
    state = game.new_initial_state()
    state.board.set_fen("W:Wc3:Bd4")                # White must take Black's last piece
    state.apply_action(state.legal_actions()[0])
    # Black, left without a move, wins: player 1 (White moves first in giveaway)
    assert state.board.outcome().winner == shashki.BLACK
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_perspective_observations_of_both_players():
    game = pyspiel.load_game("shashki_english(perspective=true)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    board = state.board
    mover = state.current_player()
    mine = np.asarray(state.observation_tensor(mover)).reshape(10, 8, 8)
    theirs = np.asarray(state.observation_tensor(1 - mover)).reshape(10, 8, 8)
    planes = np.asarray(board.planes(perspective=True))
    assert np.array_equal(mine, planes)
    assert np.array_equal(theirs, planes[[2, 3, 0, 1, 4, 5, 6, 7, 8, 9], ::-1, ::-1])
    # the actions are numbered from the side to move's side: both sides' first moves alike
    assert state.legal_actions() == game.new_initial_state().legal_actions()


def test_max_plies_draws():
    game = pyspiel.load_game("shashki_russian(max_plies=5)")
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    with pytest.raises(Exception, match="max_plies"):
        pyspiel.load_game("shashki_russian(max_plies=0)")


def test_clone_serialize_and_pickle():
    game = pyspiel.load_game("shashki_international")
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 6 and len(clone.history()) == 7
    assert clone.board is not state.board and str(state) == state.board.fen()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    assert pickle.loads(pickle.dumps(game)).variant.name == "international"


@pytest.mark.parametrize("variant", ["russian", "international"])
def test_mcts_bot_plays(variant):
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game(f"shashki_{variant}")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=25,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    for _ in range(4):
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        state.apply_action(action)
    assert len(state.board.move_stack) == 4


def test_importing_shashki_loads_no_open_spiel():
    code = "import sys, shashki; shashki.Board(); print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_the_interpreter_exits_cleanly():
    # OpenSpiel keeps the registered games past Python's end: nothing of shashki's may be
    # freed then (it would abort the interpreter)
    code = ("import pyspiel, shashki.openspiel; g = pyspiel.load_game('shashki_russian'); "
            "s = g.new_initial_state(); s.apply_action(s.legal_actions()[0]); print('done')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr[-2000:]


def test_alphazero_example_learns_a_step(tmp_path):
    # OpenSpiel's AlphaZero (JAX/Flax: the extra alphazero) through examples/: its actor and
    # evaluator processes are spawned and must find shashki_russian registered too.  A minute
    # or two; skipped without flax.
    pytest.importorskip("flax")
    pytest.importorskip("orbax.checkpoint")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "examples" / "alphazero_openspiel.py"),
         "--game=shashki_russian", f"--path={tmp_path}", "--max_steps=1", "--actors=1",
         "--evaluators=1", "--max_simulations=4", "--nn_model=mlp", "--nn_width=32",
         "--nn_depth=1", "--replay_buffer_size=64", "--train_batch_size=16",
         "--checkpoint_freq=1"],
        capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    log = done.stdout + done.stderr
    assert "Starting game shashki_russian" in log and "Losses(total:" in log
    assert "Checkpoint saved: 1" in log and (tmp_path / "checkpoint-1").is_dir()
