"""The packaging scripts are not a package: they import each other as top-level modules from ``packaging/``."""

import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
if str(PACKAGING) not in sys.path:
    sys.path.insert(0, str(PACKAGING))
