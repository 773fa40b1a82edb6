"""shashki.rl.VectorEnv (issue 22): every env's observations, masks, legal actions, rewards and
ends are those of a Board replaying the same actions, in every game; the same seed gives the
same games for any jobs; bad input raises the documented errors and plays nothing.  Skipped
without numpy (the rl extra)."""

import pytest

np = pytest.importorskip("numpy")
from hypothesis import given, settings, strategies as st  # noqa: E402

import shashki  # noqa: E402
from shashki import (IllegalActionError, InvalidActionError, Termination,  # noqa: E402
                     VectorEnvError)
from shashki.rl import MAX_LEGAL, VectorEnv  # noqa: E402

from positions import VARIANTS  # noqa: E402


def random_actions(env, rng):
    """One legal action a env, uniformly among its legal actions (as the benchmark draws)."""
    rows = np.arange(env.num_envs)
    return env.legal_actions[rows, (rng.random(env.num_envs) * env.legal_counts).astype(np.intp)]


def expect_env(env, i, board, obs, mask):
    """Env i shows `board` (a Board of the same game, with its history) as documented."""
    p = env.perspective
    assert np.array_equal(obs[i], np.asarray(board.planes(perspective=p))), board.fen()
    assert np.array_equal(mask[i], np.asarray(board.legal_action_mask(perspective=p)) == 1)
    legal = board.legal_actions(perspective=p)
    assert env.legal_counts[i] == len(legal)
    assert env.legal_actions[i, :len(legal)].tolist() == legal
    assert (env.legal_actions[i, len(legal):] == -1).all()
    assert env.turns[i] == int(board.turn)
    assert env.plies[i] == len(board.move_stack)


def replay(variant, num_envs, steps, seed, **options):
    """Step a VectorEnv with random legal actions beside one Board a env replaying them; check
    every env after every step.  Returns how many games ended, by termination."""
    env = VectorEnv(variant, num_envs, seed=seed, **options)
    obs, mask = env.reset()
    boards = [shashki.Board(variant) for _ in range(num_envs)]
    for i, board in enumerate(boards):
        expect_env(env, i, board, obs, mask)
    rng = np.random.default_rng(seed)
    ended = {}
    for _ in range(steps):
        actions = random_actions(env, rng)
        obs, mask, rewards, terminated, truncated = env.step(actions)
        for i, board in enumerate(boards):
            mover = board.turn
            board.push(board.action_to_move(int(actions[i]), perspective=env.perspective))
            outcome = board.outcome(claim_draw=True)
            cut = env.max_plies is not None and len(board.move_stack) >= env.max_plies
            if outcome is None and not cut:
                assert not (terminated[i] or truncated[i] or rewards[i])
                assert env.terminations[i] == 0
                expect_env(env, i, board, obs, mask)
                continue
            # the game ended: its last observation is final_obs[i], and env i starts again
            assert np.array_equal(env.final_obs[i],
                                  np.asarray(board.planes(perspective=env.perspective)))
            if outcome is not None and outcome.winner is not None:
                assert terminated[i] and not truncated[i]
                assert rewards[i] == (1.0 if outcome.winner == mover else -1.0)
            else:
                assert truncated[i] and not terminated[i] and rewards[i] == 0
            assert env.termination(i) == (outcome.termination if outcome else None)
            ended[env.termination(i)] = ended.get(env.termination(i), 0) + 1
            boards[i] = shashki.Board(variant)
            expect_env(env, i, boards[i], obs, mask)
    return ended


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_env_is_a_board_replaying_its_actions(variant):
    ended = replay(variant, 6, 400, seed=1)
    assert sum(ended.values()) > 0


@pytest.mark.parametrize("variant", ["russian", "giveaway", "english", "frisian", "turkish"])
def test_the_absolute_view_too(variant):
    replay(variant, 4, 300, seed=2, perspective=False)


def test_every_game_ends_by_its_rules_over_many_steps():
    # giveaway's reversed goal, breakthrough's crowning, english's claimed draws: their
    # rewards are checked against the Board in replay()
    for variant in ("giveaway", "breakthrough", "english"):
        ended = replay(variant, 8, 500, seed=3)
        assert ended, variant


def test_max_plies_truncates():
    env = VectorEnv("russian", 5, seed=0, max_plies=3)
    env.reset()
    rng = np.random.default_rng(0)
    for ply in range(1, 4):
        _, _, rewards, terminated, truncated = env.step(random_actions(env, rng))
        assert truncated.all() == (ply == 3) and not terminated.any() and not rewards.any()
    assert (env.terminations == 0).all() and (env.plies == 0).all()
    assert env.termination(0) is None
    replay("english", 3, 40, seed=4, max_plies=7)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(1, 5), st.integers(0, 2**32),
       st.booleans())
def test_property_the_envs_are_the_boards(variant, num_envs, seed, perspective):
    replay(variant, num_envs, 60, seed, perspective=perspective)


def obs_run(num_envs, steps, seed, jobs, opening_plies=4, variant="international"):
    env = VectorEnv(variant, num_envs, seed=seed, jobs=jobs, opening_plies=opening_plies,
                    copy=True)
    frames = [env.reset()]
    rng = np.random.default_rng(7)
    for _ in range(steps):
        frames.append(env.step(random_actions(env, rng)))
    env.close()
    return frames


def test_a_seed_gives_the_same_games_for_any_jobs():
    one, two, three = (obs_run(13, 60, seed=5, jobs=j) for j in (1, 2, 3))
    for a, b, c in zip(one, two, three):
        for x, y, z in zip(a, b, c):
            assert np.array_equal(x, y) and np.array_equal(x, z)


def test_random_openings_follow_the_seeds():
    env = VectorEnv("russian", 8, seed=11, opening_plies=6)
    obs, _ = env.reset()
    assert (env.plies == 6).all()
    first = obs.copy()
    assert len({row.tobytes() for row in first}) > 1            # the envs' openings differ
    again, _ = VectorEnv("russian", 8, seed=11, opening_plies=6).reset()
    assert np.array_equal(first, again)
    other, _ = VectorEnv("russian", 8, seed=12, opening_plies=6).reset()
    assert not np.array_equal(first, other)
    # a seed a env: env i's opening depends on its own seed only
    a, _ = VectorEnv("russian", 3, seed=[1, 2, 3], opening_plies=6).reset()
    b, _ = VectorEnv("russian", 3, seed=[9, 2, 3], opening_plies=6).reset()
    assert np.array_equal(a[1:], b[1:]) and not np.array_equal(a[0], b[0])
    # reset(seed) starts the streams again
    assert np.array_equal(env.reset(seed=11)[0], first)


@pytest.mark.parametrize("variant", ["russian", "frisian"])
def test_the_positions_after_random_openings(variant):
    # the envs' positions are those of Boards set up there: the pieces, the side to move and
    # the legal actions (the draw counters count from the first ply of the opening)
    env = VectorEnv(variant, 4, seed=6, opening_plies=5)
    obs, mask = env.reset()
    rng = np.random.default_rng(6)
    for _ in range(30):
        for i in range(env.num_envs):
            position = env.position(i)
            assert isinstance(position, shashki.Position) and position.outcome() is None
            board = shashki.Board.from_position(position)
            planes = np.asarray(board.planes(perspective=True))
            assert np.array_equal(obs[i, :5], planes[:5])
            legal = np.asarray(board.legal_action_mask(perspective=True)) == 1
            assert np.array_equal(mask[i], legal)
        obs, mask, *_ = env.step(random_actions(env, rng))


def test_arrays_are_read_only_views_or_copies():
    env = VectorEnv("russian", 2, seed=0)
    obs, mask = env.reset()
    assert obs.shape == (2, 10, 8, 8) and obs.dtype == np.float32
    assert mask.shape == (2, 1535) and mask.dtype == np.bool_
    assert env.legal_actions.shape == (2, MAX_LEGAL) and env.legal_actions.dtype == np.int32
    with pytest.raises(ValueError):
        obs[0, 0, 0, 0] = 1.0
    rng = np.random.default_rng(0)
    before = obs.copy()
    after, *_ = env.step(random_actions(env, rng))
    # the observations are two arrays written in turn: a step's obs lasts through the next
    assert np.array_equal(obs, before) and not np.array_equal(after, before)
    shown = after.copy()
    env.step(random_actions(env, rng))
    assert np.array_equal(after, shown) and not np.array_equal(obs, before)
    copying = VectorEnv("russian", 2, seed=0, copy=True)
    obs, mask = copying.reset()
    obs[0, 0, 0, 0] = 5.0                          # a copy: the env's own arrays unchanged
    assert copying.reset()[0][0, 0, 0, 0] == 1.0         # (a white man on a1)


def test_ten_by_ten_shapes():
    env = VectorEnv("international", 3, seed=0, jobs=2)
    obs, mask = env.reset()
    assert obs.shape == (3, 10, 10, 10) and mask.shape == (3, 3011)
    assert env.observation_shape == (10, 10, 10) and env.action_space_size == 3011
    assert env.jobs == 2 and "international" in repr(env)
    with env:
        env.step(random_actions(env, np.random.default_rng(1)))


@pytest.mark.parametrize("kwargs", [
    {"num_envs": 0}, {"num_envs": -3}, {"num_envs": 2.5}, {"num_envs": True},
    {"jobs": 0}, {"jobs": "2"}, {"max_plies": 0}, {"opening_plies": -1},
    {"opening_plies": 10**6}, {"seed": -1}, {"seed": "x"}, {"seed": [1, 2]},
    {"seed": [1, 2, -3]}, {"perspective": 1}, {"copy": None},
])
def test_bad_arguments(kwargs):
    arguments = {"game": "russian", "num_envs": 3, **kwargs}
    with pytest.raises(VectorEnvError) as error:
        VectorEnv(**arguments)
    assert isinstance(error.value, ValueError)
    name = next(iter(kwargs))
    assert name in str(error.value)


def test_an_unknown_game():
    with pytest.raises(shashki.InvalidVariantError):
        VectorEnv("chess", 2)


def test_bad_actions_play_nothing():
    env = VectorEnv("russian", 3, seed=0)
    with pytest.raises(VectorEnvError, match="reset"):
        env.step(np.zeros(3, dtype=np.int64))
    obs, mask = env.reset()
    before = obs.copy(), mask.copy(), env.plies.copy()
    legal = env.legal_actions[:, 0].copy()
    for actions, error, text in [
        (legal[:2], VectorEnvError, r"shape \(3,\)"),
        (legal.reshape(3, 1), VectorEnvError, r"shape \(3,\)"),
        (legal.astype(np.float32), VectorEnvError, "integer"),
        (np.array([True, False, True]), VectorEnvError, "integer"),
        (np.array([legal[0], 1535, legal[2]]), InvalidActionError, "env 1: action 1535"),
        (np.array([legal[0], legal[1], -1]), InvalidActionError, "env 2"),
        (np.array([legal[0], 0, legal[2]]), IllegalActionError, "env 1: action 0 is not legal"),
        (np.array([2**63 + 5, 0, 0], dtype=np.uint64), InvalidActionError, "env 0"),
    ]:
        with pytest.raises(error, match=text):
            env.step(actions)
        assert np.array_equal(obs, before[0]) and np.array_equal(mask, before[1])
        assert np.array_equal(env.plies, before[2])
    env.step(list(legal))                           # a list of ints is taken as an array
    assert (env.plies == 1).all()


def test_final_observations_and_terminations_name_the_rule():
    env = VectorEnv("russian", 64, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(300):
        obs, _, rewards, terminated, truncated = env.step(random_actions(env, rng))
        for i in np.flatnonzero(terminated | truncated):
            seen.add(env.termination(int(i)))
            # a finished game's last position is not the new game's start
            assert not np.array_equal(env.final_obs[i], obs[i])
        assert set(np.unique(rewards[terminated])) <= {-1.0, 1.0}
        assert not rewards[~terminated].any()
    assert Termination.NO_MOVES in seen
