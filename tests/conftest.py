import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os  # noqa: E402

# The evaluation frameworks' telemetry off for the whole suite (DeepEval's pytest plugin loads in every
# session once it is installed); nothing here may reach the network.
for _name, _value in {"DEEPEVAL_TELEMETRY_OPT_OUT": "1", "DEEPEVAL_DISABLE_DOTENV": "1",
                      "MLFLOW_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "true"}.items():
    os.environ.setdefault(_name, _value)

# `pytester` runs real pytest sessions on generated test files (the pytest plugin's tests);
# `isolation` runs tests marked `in_subprocess` in a child process (a native crash fails one test).
pytest_plugins = ["pytester", "isolation"]


import pytest  # noqa: E402

from openai_endpoint import openai_endpoint  # noqa: E402


@pytest.fixture
def server(monkeypatch):
    """The bundled Chat Completions server, set as the OpenAI endpoint for the test (files that need
    another brain or provider define their own ``server``)."""
    with openai_endpoint(monkeypatch) as srv:
        yield srv
