import sys
from pathlib import Path

# tests import their helpers (perftfile) from this folder
sys.path.insert(0, str(Path(__file__).resolve().parent))
