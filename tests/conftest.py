import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# `pytester` runs real pytest sessions on generated test files (the pytest plugin's tests).
pytest_plugins = ["pytester"]
