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


# --- issue 30: state strings are replayed, never unpickled; a finished game takes no action ---

class _Payload:
    ran = []

    def __reduce__(self):
        return (_Payload.ran.append, ("ran",))


def test_state_strings_are_replayed_and_unpickle_nothing():
    # issue 30.4: serialize() wrote __dict__=<base64 pickle> and deserialize_state ran it;
    # its history= line was never checked against the board
    import base64
    game = pyspiel.load_game("shashki_russian")
    state = game.new_initial_state()
    for action in (301, 656):
        state.apply_action(action)
    text = state.serialize()
    assert "__dict__" not in text and "pickle" not in text
    assert text == "game=shashki_russian(max_plies=1000,perspective=False)\nactions=301,656\n"
    again = game.deserialize_state(text)
    assert again.history() == [301, 656] and str(again) == str(state)
    assert again.board.move_stack == state.board.move_stack
    # OpenSpiel's three-line form: the history replayed, the __dict__ never decoded
    payload = base64.b64encode(pickle.dumps({"x": _Payload()})).decode()
    legacy = f"history=0:301,1:656\nmove_number=2\n__dict__={payload}"
    assert game.deserialize_state(legacy).history() == [301, 656]
    assert _Payload.ran == []
    two_plies = base64.b64encode(pickle.dumps(state.__dict__)).decode()
    for text, match in [
        (f"history=0:301\nmove_number=1\n__dict__={two_plies}", None),   # one ply, honestly
        (f"history=0:999\nmove_number=1\n__dict__={two_plies}", "999, is not legal"),
        ("history=1:301\nmove_number=1\n__dict__=", "player 1's"),
        ("history=0:301\nmove_number=2\n__dict__=", "move_number"),
        ("history=0:301\nmove_number=1", "three lines"),
        ("history=x\nmove_number=1\n__dict__=", "player:action"),
        ("game=shashki_english(max_plies=1000,perspective=False)\nactions=", "not of this game"),
        ("game=shashki_russian(max_plies=1000,perspective=True)\nactions=", "not of this game"),
        ("game=shashki_russian(max_plies=1000,perspective=False)\nactions=301,301", "action 2"),
        ("game=shashki_russian(max_plies=1000,perspective=False)\nactions=3e2", "not an action"),
        ("game=shashki_russian(max_plies=1000,perspective=False)\nactions=-1", "not an action"),
        ("game=shashki_russian(max_plies=1000,perspective=False)\nactions=\u0663", "not an action"),
        ("", "two lines"), ("nonsense", "two lines"),
    ]:
        if match is None:
            assert game.deserialize_state(text).history() == [301]
            continue
        with pytest.raises(shashki.errors.InvalidStateError, match=match) as error:
            game.deserialize_state(text)
        assert isinstance(error.value, ValueError)
    with pytest.raises(shashki.errors.InvalidStateError):
        game.deserialize_state(b"game=")


def test_a_state_string_past_the_end_of_the_game_is_refused():
    game = pyspiel.load_game("shashki_russian(max_plies=1)")
    state = game.new_initial_state()
    state.apply_action(268)
    with pytest.raises(shashki.errors.InvalidStateError, match="over"):
        game.deserialize_state(f"game={game}\nactions=268,656\n")
    assert game.deserialize_state(state.serialize()).is_terminal()


def test_apply_action_on_a_terminal_state_raises():
    # issue 30.12: max_plies=1, one action, is_terminal() and no legal action, and then
    # apply_action(656) was accepted (history [268, 656])
    game = pyspiel.load_game("shashki_russian(max_plies=1)")
    state = game.new_initial_state()
    state.apply_action(268)
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(shashki.IllegalActionError, match="over"):
        state.apply_action(656)
    assert state.history() == [268]
    # a game won on the board, too
    won = sos.ShashkiState(game, shashki.Board("russian", "W:Wa1:Bb2,c3"))
    assert won.is_terminal()
    with pytest.raises(ValueError):
        won.apply_action(0)


@pytest.mark.parametrize("variant", ["russian", "frisian", "international"])
def test_fuzz_state_strings(variant):
    # random games serialized and read back; then the strings mutated: each read back to a
    # state whose history is legal, or an InvalidStateError, never anything else (bounded:
    # a seeded loop)
    rng = random.Random(30)
    game = pyspiel.load_game(f"shashki_{variant}(max_plies=60)")
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal() and rng.random() < 0.97:
            state.apply_action(rng.choice(state.legal_actions()))
        text = state.serialize()
        assert game.deserialize_state(text).history() == state.history()
        for _ in range(15):
            chars = list(text)
            for _ in range(rng.randint(1, 4)):
                k = rng.randrange(len(chars))
                op = rng.random()
                if op < 0.4:
                    chars[k] = rng.choice("0123456789,:=\n-x ")
                elif op < 0.7:
                    del chars[k]
                else:
                    chars.insert(k, rng.choice("0123456789,"))
            try:
                again = game.deserialize_state("".join(chars))
            except shashki.errors.InvalidStateError:
                continue
            replay = game.new_initial_state()
            for action in again.history():
                assert action in replay.legal_actions()
                replay.apply_action(action)
            assert str(replay) == str(again)
