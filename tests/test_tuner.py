"""The tuner (python -m shashki.tuner): self-play positions labelled with the results, and a
Texel fit that predicts them better than the weights it starts from."""

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from shashki import tuner, weights  # noqa: E402
from shashki.weights import FEATURE_NAMES  # noqa: E402


def test_selfplay_and_fit(tmp_path):
    data = tuner.selfplay("english", 12, nodes=300, concurrency=2, evaluation="classic",
                          max_moves=60, seed=5)
    n = len(data["result"])
    assert data["features"].shape == (n, len(FEATURE_NAMES)) and n > 100
    assert set(np.unique(data["result"])) <= {0.0, 0.5, 1.0}
    assert data["game"].max() == 11 and int(data["max_phase"]) == 24
    start = weights.classic("english")
    tuned, report = tuner.fit(data, start, iterations=50)
    assert report["train_fit"] <= report["train_start"]
    assert tuned.variant.name == "english" and tuned != start
    # squares beyond the 32 of the board are left alone
    assert tuned.mg[FEATURE_NAMES.index("pst_man_40")] == 0
    path = tmp_path / "w.json"
    tuned.save(path)
    np.savez(tmp_path / "d.npz", **data)
    assert tuner.main(["fit", "english", str(tmp_path / "d.npz"), "--start", "classic",
                       "--out", str(tmp_path / "out.json")]) == 0
    assert weights.load(tmp_path / "out.json", "english").variant.name == "english"


def test_train_is_rounds_of_selfplay_and_fit_and_repeats_itself(tmp_path, capsys):
    # one command: each round plays with the weights of the round before; the same arguments
    # write the same weights (searches bounded by nodes, games seeded)
    argv = ["train", "international", "--rounds", "2", "--games", "6", "--nodes", "200",
            "--start", "classic", "--option", "probcut=0"]
    assert tuner.main([*argv, "--out", str(tmp_path / "a.json")]) == 0
    assert "round 2:" in capsys.readouterr().out
    first = weights.load(tmp_path / "a-r1.json", "international")
    last = weights.load(tmp_path / "a.json", "international")
    assert last == weights.load(tmp_path / "a-r2.json", "international")
    assert first != weights.classic("international") and last != first
    assert tuner.main([*argv, "--out", str(tmp_path / "b.json")]) == 0
    assert weights.load(tmp_path / "b.json", "international") == last


def test_bad_self_play_options_are_refused_before_any_game():
    from shashki.errors import InvalidOptionError
    with pytest.raises(InvalidOptionError, match="unknown search option"):
        tuner.selfplay("russian", 2, nodes=100, options={"nosuch": 1})
    with pytest.raises(SystemExit):
        tuner.main(["train", "russian", "--option", "probcut", "--out", "x.json"])
