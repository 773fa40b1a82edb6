"""The front ends: the `shashki` command and what it runs.

- `shashki.apps.cli`: the command line (``shashki perft|play|match|hub``);
- `shashki.apps.play`: a game against the engine in a terminal;
- `shashki.apps.match`: matches between engine settings, with `shashki.apps.players` (engine
  specs and the player interface);
- `shashki.apps.hub`: `shashki hub`, the Hub protocol (Scan's) on stdin/stdout: the engine
  side is the library's `shashki.hub.server`, its text (line syntax, positions, moves, scores)
  `shashki.hub.text`, which the client `shashki.hub.client` shares.

What they share: `shashki.limits.Limit` (search limits), `shashki.apps.args` (command-line
argument types) and `shashki.apps.records` (what a front end writes about a game).  The
front ends import the library, never the other way round.
"""
