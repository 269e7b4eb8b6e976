"""Test helpers shipped with sumjudge: a simulated Chat Completions judge server (see ``judge_server``)."""
