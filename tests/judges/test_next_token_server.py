"""The reader's yes/no questions through an OpenAI-compatible server's ``/v1/completions``, against the
bundled test server on 127.0.0.1 (:class:`sumjudge.testing.judge_server.JudgeServer`): P(yes) read from
the top log-probabilities, the faults every HTTP judge heals from, and what cannot be read."""

from __future__ import annotations

import json
import math

import pytest

from sumjudge.errors import JudgeRequestError, JudgeUnavailableError
from sumjudge.judges.base import ModelConfig
from sumjudge.judges.next_token import PromptTooLong, _chatml
from sumjudge.judges.next_token_server import AnswerNotInTopLogprobs, ServerYesNoModel, p_yes_of, top_logprobs
from sumjudge.judges.providers import PROVIDERS
from sumjudge.testing.judge_server import Fault, JudgeServer, Reply

SYSTEM = "You check facts carefully. Answer with Yes or No only."


async def _no_wait(_: float) -> None:
    return None


def _model(server: JudgeServer, **config: object) -> ServerYesNoModel:
    settings = {"id": "llamacpp/qwen", "base_url": server.base_url, "max_retries": 3, **config}
    return ServerYesNoModel(PROVIDERS["llamacpp"], "qwen", ModelConfig(**settings), sleep=_no_wait)  # type: ignore[arg-type]


def test_p_yes_is_normalised_over_the_yes_and_no_spellings_in_the_top_logprobs() -> None:
    top = {"Yes": math.log(0.6), " yes": math.log(0.1), "No": math.log(0.2), "Maybe": math.log(0.1)}
    assert p_yes_of(top) == pytest.approx(0.7 / 0.9)
    assert p_yes_of({"Yes": -0.1, "Sure": -3.0}) == 1.0  # no "no" among the top k: P(yes) is 1
    assert p_yes_of({" No": -0.1, "Sure": -3.0}) == 0.0
    assert p_yes_of({"Sure": -0.1, "The": -3.0}) is None


def test_both_shapes_of_log_probabilities_are_read() -> None:
    legacy = {"choices": [{"logprobs": {"top_logprobs": [{"Yes": -0.2, "No": -1.8}]}}]}
    chat = {"choices": [{"logprobs": {"content": [{"token": "Yes", "logprob": -0.2,
                                                     "top_logprobs": [{"token": "No", "logprob": -1.8}]}]}}]}
    assert top_logprobs(legacy) == top_logprobs(chat) == {"Yes": -0.2, "No": -1.8}
    assert top_logprobs({"choices": [{"text": "Yes", "logprobs": None}]}) is None


def test_each_prompt_goes_as_chatml_text_in_order_and_p_yes_comes_back() -> None:
    def next_token(prompt: str) -> dict[str, float]:
        p = 0.8 if "Paris" in prompt else 0.25
        return {"Yes": math.log(p), "No": math.log(1 - p), "Maybe": -9.0}

    with JudgeServer(next_token=next_token) as server:
        model = _model(server)
        head = "An article:\n[1] Paris is the capital of France.\n\n"
        answers = model.ask_after(SYSTEM, head, ["Claim: Paris is in France.", "Claim: Lyon is the capital."])
        sent = [r.body for r in server.completion_requests()]
    assert [a.p_yes for a in answers] == pytest.approx([0.8, 0.8])  # both prompts hold the head's "Paris"
    assert [b["prompt"] for b in sent] == [_chatml(SYSTEM, head + "Claim: Paris is in France."),
                                          _chatml(SYSTEM, head + "Claim: Lyon is the capital.")]
    assert all(b["max_tokens"] == 1 and b["temperature"] == 0 and b["logprobs"] == 20 and b["cache_prompt"] for b in sent)
    assert all(a.prompt_tokens > 0 for a in answers)

    with JudgeServer(next_token=next_token) as server:
        only = _model(server).ask([(SYSTEM, "Is Rome in Italy?")])
    assert only[0].p_yes == pytest.approx(0.25)


def test_neither_yes_nor_no_in_the_top_k_is_a_typed_error_naming_what_came() -> None:
    with JudgeServer(next_token=lambda prompt: {"Sure": -0.1, "The": -2.5}) as server:
        with pytest.raises(AnswerNotInTopLogprobs, match="neither yes nor no.*'Sure'"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])
        assert len(server.completion_requests()) == 1  # not retried: the model's answer, not a fault


def test_a_429_then_success_is_retried_after_the_servers_wait() -> None:
    with JudgeServer() as server:
        server.script(Fault.rate_limit(retry_after=0))
        answers = _model(server).ask([(SYSTEM, "Is Rome in Italy?")])
        assert len(server.completion_requests()) == 2
    assert answers[0].p_yes == pytest.approx(0.9)


def test_server_errors_are_retried_and_then_given_up_naming_the_status() -> None:
    with JudgeServer() as server:
        server.script(Fault.server_error(503), Fault.server_error(500))
        assert _model(server).ask([(SYSTEM, "Is Rome in Italy?")])[0].p_yes == pytest.approx(0.9)
        server.script(*[Fault.server_error(502)] * 4)
        with pytest.raises(JudgeUnavailableError, match="HTTP 502"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])


def test_a_malformed_reply_is_retried_then_named() -> None:
    with JudgeServer() as server:
        server.script(Reply(content='{"choices": [ not JSON'))
        assert _model(server).ask([(SYSTEM, "Is Rome in Italy?")])[0].p_yes == pytest.approx(0.9)
        server.script(*[Reply(content="<html>bad gateway</html>")] * 4)
        with pytest.raises(JudgeUnavailableError, match="not JSON|not a completion"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])


def test_a_server_that_hangs_times_out_and_is_tried_again() -> None:
    with JudgeServer() as server:
        server.script(Fault.hang(5))
        answers = _model(server, timeout=0.5).ask([(SYSTEM, "Is Rome in Italy?")])
        assert len(server.completion_requests()) == 2
    assert answers[0].p_yes == pytest.approx(0.9)


def test_a_server_without_logprobs_and_a_prompt_past_the_context_are_named() -> None:
    with JudgeServer() as server:
        server.script(Reply(content=json.dumps({"choices": [{"text": "Yes", "index": 0, "logprobs": None}]})))
        with pytest.raises(JudgeRequestError, match="no log-probabilities"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])
    with JudgeServer(context_limit=600) as server:
        with pytest.raises(PromptTooLong, match="context"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy? " * 400)])


def test_the_served_model_is_what_the_server_lists() -> None:
    with JudgeServer(models=["qwen", "other"]) as server:
        assert _model(server).served_model() == "qwen"
    with JudgeServer() as server:  # one model listed: a single-model server answers any name with it
        assert _model(server).served_model() == "test-model"


def _completion(top: dict[str, object], padding: int = 0) -> str:
    """A completion's body with ``top`` as its first token's alternatives (written as given: NaN too)."""
    alternatives = ", ".join(f"{json.dumps(t)}: {lp}" for t, lp in top.items())
    return ('{"choices": [{"text": "Yes", "index": 0, "logprobs": {"top_logprobs": [{' + alternatives + '}]}}],'
            ' "padding": "' + "x" * padding + '"}')


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_a_log_probability_that_is_not_finite_is_the_servers_fault_retried_then_failed(bad: str) -> None:
    with JudgeServer() as server:
        server.script(Reply(content=_completion({"Yes": bad, "No": -1.5})))
        assert _model(server).ask([(SYSTEM, "Is Rome in Italy?")])[0].p_yes == pytest.approx(0.9)  # tried again
        server.script(*[Reply(content=_completion({"Yes": -0.1, "No": bad}))] * 4)
        with pytest.raises(JudgeUnavailableError, match="not finite"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])


def test_a_reply_past_its_bound_is_read_no_further_and_tried_again() -> None:
    from sumjudge.guards.limits import MAX_SERVER_REPLY_BYTES

    huge = _completion({"Yes": -0.1, "No": -2.0}, padding=MAX_SERVER_REPLY_BYTES + 1)
    with JudgeServer() as server:
        server.script(Reply(content=huge))
        assert _model(server).ask([(SYSTEM, "Is Rome in Italy?")])[0].p_yes == pytest.approx(0.9)
        server.script(*[Reply(content=huge)] * 4)
        with pytest.raises(JudgeUnavailableError, match="larger than 1024 KiB"):
            _model(server).ask([(SYSTEM, "Is Rome in Italy?")])
    fits = _completion({"Yes": -0.1, "No": -2.0}, padding=1000)
    with JudgeServer() as server:
        server.script(Reply(content=fits))
        assert _model(server).ask([(SYSTEM, "Is Rome in Italy?")])[0].p_yes > 0.8
