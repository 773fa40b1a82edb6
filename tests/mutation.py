"""Text mutation for the fuzz tests: valid input with a few random edits, the inputs that find
the most parser bugs (a strategy shared by the FEN, move text, PDN and Hub fuzzers)."""

from hypothesis import strategies as st

EDITS = ("insert", "delete", "replace", "duplicate", "cut")


@st.composite
def mutated(draw, text, pieces, max_edits=4, edits=("insert", "delete", "replace"),
            max_span=1):
    """`text` after 1..`max_edits` edits: insert a piece (drawn from the strategy `pieces`),
    delete or duplicate up to `max_span` characters, overwrite with a piece, or cut the text
    short there."""
    for _ in range(draw(st.integers(1, max_edits))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(edits))
        piece = draw(pieces)
        span = draw(st.integers(1, max_span))
        if edit == "insert":
            text = text[:at] + piece + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + span:]
        elif edit == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        elif edit == "duplicate":
            text = text[:at] + text[at:at + span] + text[at:]
        else:
            text = text[:at]
    return text
