"""The DamExchange protocol (DXP), in one place: `shashki.dxp.messages` (its messages, read and
written, and their framing on the wire), `shashki.dxp.client` (DxpEngine: a DXP engine driven
from Python, shashki the initiator) and `shashki.dxp.server` (DxpFollower and serve: shashki
as the follower, which `shashki dxp` runs).  docs/api/dxp.md is the guide."""
