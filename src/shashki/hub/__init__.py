"""The Hub protocol (Scan's text protocol, version 2), in one place: `shashki.hub.text` (its
lines, games, positions, moves, levels and scores), `shashki.hub.client` (HubEngine: an
external Hub engine driven from Python) and `shashki.hub.server` (HubSession: shashki as a
Hub engine, which `shashki hub` runs on stdin/stdout).  docs/hub.md is the guide."""
