"""The PettingZoo environment (issue 14): PettingZoo's own API test for every game, and the
rewards, ends and perspective it documents.  Skipped without the rl extra (tox -e rl)."""

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test, parallel_api_test, render_test  # noqa: E402

import shashki  # noqa: E402
from shashki import rl  # noqa: E402

from positions import VARIANTS  # noqa: E402


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api(variant):
    with warnings.catch_warnings():
        # api_test warns of any Dict observation of an environment it does not know (its own
        # classic games are listed in it): that is the documented classic-game layout
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(rl.env(variant=variant), num_cycles=1000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_parallel_api(variant):
    parallel_api_test(rl.parallel_env(variant=variant), num_cycles=1000)


PLY_CAP = 20_000


def play_out(env, choose):
    """Play a game with `choose(observation, board)`; the rewards summed by agent, and the
    last termination and truncation flags."""
    env.reset(seed=1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    ended = (False, False)
    # every game's draw rules end a game; a cap turns a rule that fails to into a failure
    # rather than a test that never ends
    for agent in env.agent_iter(max_iter=PLY_CAP):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        ended = (termination, truncation)
        env.step(None if termination or truncation else choose(observation, env.unwrapped.board))
    return totals, ended


def first_legal(observation, board):
    return int(np.flatnonzero(observation["action_mask"])[0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_winner_gets_one(variant):
    env = rl.env(variant=variant)
    totals, (termination, truncation) = play_out(env, first_legal)
    board = env.unwrapped.board
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    if outcome.winner is None:
        assert truncation and not termination and set(totals.values()) == {0.0}
    else:
        assert termination and not truncation
        first = shashki.get_variant(variant).first_to_move
        winner = "player_0" if outcome.winner == first else "player_1"
        assert totals[winner] == 1.0 and sum(totals.values()) == 0.0


def test_giveaway_rewards_the_side_left_without_a_move():
    env = rl.raw_env("giveaway")
    env.reset()
    env.board.set_fen("W:Wa1:Bb2")          # White must take b2 and then Black has no piece
    env.step(env.board.move_to_action(next(iter(env.board.legal_moves)), perspective=True))
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}     # Black is left without a move


def test_a_draw_rule_truncates():
    env = rl.raw_env("russian")
    env.reset()
    env.board.set_fen("W:WKa1,Kc1:BKb8,Kd8")
    for text in ["a1-b2", "b8-a7", "b2-a1", "a7-b8", "a1-b2", "b8-a7", "b2-a1", "a7-b8"]:
        assert not any(env.truncations.values())
        env.step(env.board.move_to_action(env.board.parse_move(text), perspective=True))
    assert env.truncations == {"player_0": True, "player_1": True}
    assert not any(env.terminations.values()) and set(env.rewards.values()) == {0.0}
    assert env.infos["player_0"]["outcome"].termination == shashki.Termination.THREEFOLD_REPETITION


def test_max_plies_truncates():
    env = rl.env(variant="italian", max_plies=6)
    totals, (termination, truncation) = play_out(env, first_legal)
    assert truncation and len(env.unwrapped.board.move_stack) == 6


def test_observations_are_each_agents_own_view():
    env = rl.raw_env("russian")
    env.reset()
    board = env.board
    mover = env.observe("player_0")
    other = env.observe("player_1")
    assert mover["observation"].dtype == np.float32 and mover["action_mask"].dtype == np.int8
    # at the start both sides see the same picture: their men on the three nearest rows
    assert np.array_equal(mover["observation"][:4], other["observation"][:4])
    assert mover["action_mask"].sum() == 7 and other["action_mask"].sum() == 0
    board.push("c3-d4")
    env.agent_selection = "player_1"
    seen = env.observe("player_1")["observation"]
    assert np.array_equal(seen, np.asarray(board.planes(perspective=True)))
    mine = env.observe("player_0")["observation"]
    # White's view of its own men: d4 (row 3, file 3) is one of them
    assert mine[0, 3, 3] == 1.0 and seen[2, 4, 4] == 1.0
    absolute = rl.raw_env("russian", perspective=False)
    absolute.reset()
    assert np.array_equal(absolute.observe("player_1")["observation"],
                          np.asarray(absolute.board.planes()))


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="render_mode"):
        rl.raw_env("russian", render_mode="rgb")
    with pytest.raises(ValueError, match="max_plies"):
        rl.raw_env("russian", max_plies=0)
    with pytest.raises(shashki.InvalidVariantError):
        rl.env(variant="chess")


def test_render_as_text(capsys):
    env = rl.raw_env("english", render_mode="ansi")
    env.reset()
    assert env.render() == str(env.board)
    human = rl.raw_env("english", render_mode="human")
    human.reset()
    human.step(human.board.legal_actions(perspective=True)[0])
    assert str(human.board) in capsys.readouterr().out


def test_the_example_plays(capsys):
    import runpy
    from pathlib import Path
    example = Path(__file__).resolve().parent.parent / "examples" / "rl_agents.py"
    if not example.is_file():
        pytest.skip("examples/ is not in the sdist")
    module = runpy.run_path(str(example))
    assert module["main"](["rl_agents.py", "english", "2", "1"]) == 0
    out = capsys.readouterr().out
    assert "game 2:" in out and "English draughts" in out


def test_a_parallel_game_is_the_aec_game():
    # the same policy through both APIs plays the same game, with the same rewards; in the
    # parallel API only the action of the agent to move counts
    aec = rl.env(variant="brazilian")
    totals, ended = play_out(aec, first_legal)
    par = rl.parallel_env(variant="brazilian")
    observations, infos = par.reset(seed=1)
    par_totals = dict.fromkeys(par.possible_agents, 0.0)
    plies = 0
    while par.agents:
        movers = [a for a in par.agents if observations[a]["action_mask"].any()]
        assert len(movers) == 1
        (mover,) = movers
        waiting = next(a for a in par.agents if a != mover)
        # the waiting agent's entry is ignored, whatever it is
        actions = {mover: first_legal(observations[mover], None), waiting: 10 ** 9}
        observations, rewards, terminations, truncations, infos = par.step(actions)
        for agent, reward in rewards.items():
            par_totals[agent] += reward
        plies += 1
        if par.agents:
            assert infos[par.agents[0]]["active_agent"] == waiting
    assert par.unwrapped.board.move_stack == aec.unwrapped.board.move_stack
    assert plies == len(aec.unwrapped.board.move_stack)
    assert par_totals == totals
    assert (any(terminations.values()), any(truncations.values())) == ended


def test_the_default_game_reads_as_a_name_in_help():
    import inspect
    import pydoc
    for function in (rl.env, rl.raw_env, rl.parallel_env, rl.DraughtsEnv):
        assert inspect.signature(function).parameters["variant"].default == "russian"
    text = pydoc.render_doc(rl.env, renderer=pydoc.plaintext)
    assert "variant: 'Union[str, Variant]' = 'russian'" in text
    assert "Variant(name=" not in text


def test_rgb_array_without_its_libraries_says_what_to_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "resvg_py", None)      # import resvg_py: ImportError
    with pytest.raises(ImportError, match="resvg-py and pillow.*extra 'rl'"):
        rl.raw_env("russian", render_mode="rgb_array")


def pixel(picture, square, variant):
    """The colour (r, g, b) at the centre of `square` (a name) in a picture of the board seen
    from White's side, drawn by shashki.svg at rl.RENDER_SIZE pixels."""
    from shashki import svg
    file, rank = shashki.get_variant(variant).geometry.coords(shashki.get_variant(variant)
                                                                .square(square))
    units = 2 * svg.MARGIN + 8 * svg.SQUARE_SIZE
    scale = rl.RENDER_SIZE / units
    x = (svg.MARGIN + (file + 0.5) * svg.SQUARE_SIZE) * scale
    y = (svg.MARGIN + (7 - rank + 0.5) * svg.SQUARE_SIZE) * scale
    return tuple(int(c) for c in picture[int(y), int(x)])


def colour(name):
    from shashki import svg
    value = svg.DEFAULT_COLORS[name].lstrip("#")
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def test_rgb_array_is_the_picture_of_the_board():
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    env = rl.raw_env("russian", render_mode="rgb_array")
    env.reset()
    start = env.render()
    assert isinstance(start, np.ndarray) and start.dtype == np.uint8
    assert start.shape == (rl.RENDER_SIZE, rl.RENDER_SIZE, 3)
    # a white man on c3, an empty dark square on d4, a black man on d6
    assert pixel(start, "c3", "russian") == colour("white")
    assert pixel(start, "d4", "russian") == colour("square dark")
    assert pixel(start, "d6", "russian") == colour("black")
    env.step(env.board.move_to_action(env.board.parse_move("c3-d4"), perspective=True))
    after = env.render()
    # the man has moved, and its origin is marked as the last move's
    assert pixel(after, "d4", "russian") == colour("white")
    # (the mark is drawn at 80% over the dark square)
    marked = [0.8 * m + 0.2 * d for m, d in zip(colour("lastmove"), colour("square dark"))]
    assert all(abs(p - m) <= 2 for p, m in zip(pixel(after, "c3", "russian"), marked))
    assert pixel(after, "d6", "russian") == colour("black")


def test_every_render_mode_passes_pettingzoo_render_test(capsys):
    pytest.importorskip("resvg_py")
    pytest.importorskip("PIL")
    render_test(lambda render_mode: rl.env(variant="english", render_mode=render_mode))
    assert "+" in capsys.readouterr().out        # "human" printed the board
