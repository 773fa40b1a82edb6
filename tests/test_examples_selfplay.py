"""examples/selfplay_torch.py (issue 22) runs: a few iterations of self-play train the policy,
its score against the random policy is measured and its curve drawn.  Skipped without torch
(the extra examples: CI does not install it)."""

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("matplotlib")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "selfplay_torch.py"


def load():
    spec = importlib.util.spec_from_file_location("selfplay_torch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["selfplay_torch"] = module
    spec.loader.exec_module(module)
    return module


def test_returns_alternate_back_from_each_end():
    np = pytest.importorskip("numpy")
    example = load()
    rewards = np.array([[0], [0], [1], [0], [0]], dtype=np.float32)
    done = np.array([[0], [0], [1], [0], [0]], dtype=bool)
    returns, known = example.returns_of(rewards, done, gamma=1.0)
    # the winning move +1, the loser's move before it -1, the winner's before that +1; the
    # plies after the end belong to a game not finished in the batch
    assert returns[:3, 0].tolist() == [1.0, -1.0, 1.0]
    assert known[:, 0].tolist() == [True, True, True, False, False]


def test_a_short_run_learns_and_draws_its_curve(tmp_path):
    example = load()
    picture = tmp_path / "curve.png"
    curve = example.main(["--envs", "32", "--steps", "48", "--iterations", "2",
                          "--eval-every", "1", "--eval-games", "16", "--hidden", "32",
                          "--plot", str(picture)])
    assert len(curve) == 3 and curve[0][0] == 0
    assert all(0.0 <= score <= 1.0 for _, score in curve)
    assert curve[-1][0] > 0                    # games were played and ended
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
