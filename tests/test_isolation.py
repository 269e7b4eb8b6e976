"""The ``in_subprocess`` marker (tests/isolation.py): a native crash in a test fails that test, named by
its signal, and the tests after it still run."""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from isolation import describe_exit
from llamacpp_fixtures import ServerProcess

TESTS_DIR = Path(__file__).parent


def test_a_crash_a_failure_and_a_skip_in_the_child_are_reported_and_the_suite_goes_on(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(TESTS_DIR))
    monkeypatch.delenv("SUMJUDGE_TEST_CHILD", raising=False)
    pytester.makeconftest('pytest_plugins = ["isolation"]\n')
    pytester.makepyfile(
        test_children="""
        import os, signal
        import pytest

        @pytest.mark.in_subprocess(what="llama.cpp")
        def test_crashes():
            os.kill(os.getpid(), signal.SIGSEGV)

        @pytest.mark.in_subprocess(what="llama.cpp")
        def test_fails():
            assert 1 + 1 == 3, "arithmetic broke in the child"

        @pytest.mark.in_subprocess(what="llama.cpp")
        def test_skips():
            pytest.skip("no model here")

        @pytest.mark.in_subprocess(what="llama.cpp")
        def test_passes_in_a_child():
            assert os.environ["SUMJUDGE_TEST_CHILD"] == "1"

        def test_after_the_crash():
            assert True
        """
    )
    result = pytester.runpytest_subprocess("-rA", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2, skipped=1)
    out = result.stdout.str()
    assert "SIGSEGV in the llama.cpp subprocess (signal 11)" in out
    assert "arithmetic broke in the child" in out
    assert "no model here" in out
    assert "test_after_the_crash PASSED" in out or "PASSED test_children.py::test_after_the_crash" in out


def test_exit_descriptions_name_the_signal() -> None:
    assert describe_exit(-signal.SIGSEGV, "llama.cpp") == "SIGSEGV in the llama.cpp subprocess (signal 11)"
    assert describe_exit(-signal.SIGILL, "llama.cpp").startswith("SIGILL in the llama.cpp subprocess")
    assert describe_exit(3, "llama.cpp") == "the llama.cpp subprocess exited with 3"


def test_a_server_that_died_is_reported_with_its_signal_and_log() -> None:
    # what the llama.cpp server fixture tells a test when the server crashed (instead of a closed connection)
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", "import os, signal; print('loaded the model', flush=True); os.kill(os.getpid(), signal.SIGSEGV)"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        server = ServerProcess("http://127.0.0.1:9", proc, log)
        proc.wait()
        death = server.death()
    assert death is not None
    assert death.startswith("SIGSEGV in the llama.cpp server subprocess (signal 11)")
    assert "loaded the model" in death


def test_a_running_server_is_not_reported() -> None:
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdout=log)
        try:
            assert ServerProcess("http://127.0.0.1:9", proc, log).death() is None
        finally:
            proc.kill()
            proc.wait()
