"""llama.cpp's threads: every CPU this process may use unless the user says otherwise."""

from __future__ import annotations

import os

import pytest

from sumjudge.judges import local_settings
from sumjudge.judges.local_settings import LocalSettings


def test_the_default_threads_are_every_cpu_the_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert LocalSettings().threads() == (3, 3)


def test_without_an_affinity_call_every_cpu_of_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert local_settings.usable_cpus() == 4
    assert LocalSettings().threads() == (4, 4)


def test_the_users_threads_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert LocalSettings.from_extra({"n_threads": "1"}).threads() == (1, 1)
    assert LocalSettings.from_extra({"n_threads_batch": 2}).threads() == (4, 2)
