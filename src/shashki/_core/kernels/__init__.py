"""The compiled kernels, one per distinct set of move rules and geometry (see setup.py)."""
