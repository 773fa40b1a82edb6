"""shashki.rl.planes_batch and masks_batch (issue 22): row i is what Board.planes and
Board.legal_action_mask give for position i, in every game, with and without perspective, for
Positions and for Boards (with their history); bad batches raise BatchError.  Skipped without
numpy (the rl extra)."""

import pytest

np = pytest.importorskip("numpy")
from hypothesis import given, settings, strategies as st  # noqa: E402

import shashki  # noqa: E402
from shashki import BatchError  # noqa: E402
from shashki._core import actions as compiled  # noqa: E402
from shashki.rl import masks_batch, planes_batch  # noqa: E402

from positions import VARIANTS, random_games, random_positions  # noqa: E402


def positions_of(variant, games=20, seed=1):
    """The positions of a few random games, every ply (shashki.playouts records them)."""
    played = shashki.playouts(variant, games, seed=seed, positions=True)
    return [played.position(row) for row in range(0, played.plies, 3)]


def expected(items, perspective):
    """The planes and masks of the items one by one: a Board's own, a Position's as the
    compiled planes give them (no history: planes 5-9 are 0, but frisian's kings' runs)."""
    planes = np.stack([np.asarray(item.planes(perspective=perspective))
                       if isinstance(item, shashki.Board) else
                       np.asarray(compiled.planes(item, perspective)) for item in items])
    masks = np.stack([np.asarray(compiled.legal_action_mask(item, perspective)) == 1
                      for item in items])
    return planes, masks


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("perspective", [False, True])
def test_rows_are_the_boards(variant, perspective):
    items = positions_of(variant)
    planes, masks = expected(items, perspective)
    got = planes_batch(items, perspective=perspective)
    assert got.dtype == np.float32 and got.shape == planes.shape
    assert np.array_equal(got, planes)
    got = masks_batch(items, perspective=perspective)
    assert got.dtype == np.bool_ and np.array_equal(got, masks)


@settings(max_examples=60, deadline=None)
@given(st.lists(random_positions(), min_size=1, max_size=1), st.booleans())
def test_property_set_up_positions(boards, perspective):
    # random set-ups reach the multi-captures (and their alternates) that random play seldom
    # does; a Board's history planes are its own
    planes, masks = expected(boards, perspective)
    assert np.array_equal(planes_batch(boards, perspective), planes)
    assert np.array_equal(masks_batch(boards, perspective), masks)


@settings(max_examples=30, deadline=None)
@given(st.lists(random_games(variants=["russian"]), min_size=1, max_size=4), st.booleans())
def test_property_boards_with_their_history(boards, perspective):
    planes, masks = expected(boards, perspective)
    assert np.array_equal(planes_batch(boards, perspective), planes)
    assert np.array_equal(masks_batch(boards, perspective), masks)


def test_into_a_given_array():
    items = positions_of("international", games=2)
    out = np.full((len(items), 10, 10, 10), 7.0, dtype=np.float32)
    assert planes_batch(items, out=out) is out
    assert np.array_equal(out, expected(items, False)[0])
    masks = np.full((len(items), 3011), 9, dtype=np.uint8)
    assert masks_batch(items, out=masks) is masks
    assert set(np.unique(masks)) <= {0, 1}
    assert np.array_equal(masks == 1, expected(items, False)[1])


def test_any_iterable():
    start = shashki.Position("english")
    children = (child for _, child in start.children())
    assert planes_batch(children).shape == (7, 10, 8, 8)


@pytest.mark.parametrize("items, text", [
    ([], "no position"),
    ([shashki.Position("russian"), "c3-d4"], "item 1 of the batch is a str"),
    ([3], "item 0 of the batch is a int"),
    ([shashki.Position("russian"), shashki.Position("english")], "item 1 .* english"),
])
def test_bad_batches(items, text):
    for function in (planes_batch, masks_batch):
        with pytest.raises(BatchError, match=text) as error:
            function(items)
        assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("out, text", [
    (np.zeros((2, 10, 8, 8), dtype=np.float64), "float32"),
    (np.zeros((3, 10, 8, 8), dtype=np.float32), r"shape \(3, 10, 8, 8\)"),
    (np.zeros((2, 10, 8, 8), dtype=np.float32)[:, ::-1], "C-contiguous"),
    ([[0.0]], "not list"),
])
def test_bad_planes_out(out, text):
    items = [shashki.Position("russian")] * 2
    with pytest.raises(BatchError, match=text):
        planes_batch(items, out=out)


def test_bad_masks_out():
    items = [shashki.Position("russian")] * 2
    with pytest.raises(BatchError, match="bool or uint8"):
        masks_batch(items, out=np.zeros((2, 1535), dtype=np.int32))
    with pytest.raises(BatchError, match=r"\(2, 1535\)"):
        masks_batch(items, out=np.zeros((2, 3011), dtype=np.bool_))


@pytest.mark.parametrize("perspective", ["x", None, 1, 0, np.bool_(True)])
def test_perspective_is_a_bool(perspective):
    # issue 30.19: any truthy perspective ("x", None) was taken, where VectorEnv demands a bool
    start = [shashki.Position("russian")]
    for batch in (planes_batch, masks_batch):
        with pytest.raises(BatchError, match="perspective"):
            batch(start, perspective=perspective)
    assert planes_batch(start, perspective=True).shape == (1, 10, 8, 8)
