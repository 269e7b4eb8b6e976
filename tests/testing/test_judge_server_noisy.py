"""The bundled judge server's noisy mode: verdicts flipped with probability p, seeded, over real HTTP."""

from __future__ import annotations

import json
import urllib.request

import pytest

from sumjudge.testing.judge_server import JudgeServer, NoisyBrain, SummarizationBrain

pytestmark = pytest.mark.integration


def ask(server: JudgeServer, text: str) -> list[bool]:
    body = {
        "model": "test-model",
        "messages": [{"role": "user", "content": text}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "alignment", "schema": {
            "type": "object", "properties": {"alignment": {"type": "array"}}}}},
    }
    request = urllib.request.Request(f"{server.base_url}/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - 127.0.0.1 only
        reply = json.loads(response.read())
    return [v["supported"] for v in json.loads(reply["choices"][0]["message"]["content"])["alignment"]]


def test_verdicts_flip_at_the_asked_rate_and_the_same_seed_replays_the_same_answers():
    brain = SummarizationBrain(claims=50)
    with JudgeServer(NoisyBrain(brain, flip=0.2, seed=7)) as one, JudgeServer(NoisyBrain(brain, flip=0.2, seed=7)) as two:
        first = [ask(one, "same prompt") for _ in range(4)]
        assert [ask(two, "same prompt") for _ in range(4)] == first  # seeded: the same sequence again
    flipped = sum(not v for answer in first for v in answer)
    assert 20 <= flipped <= 60  # 200 verdicts at p = 0.2: 40 expected
    assert len({tuple(a) for a in first}) == 4  # a repeated request is a new draw


def test_without_noise_the_answers_are_the_plain_brain_and_p_is_checked():
    with JudgeServer(NoisyBrain(SummarizationBrain(claims=5), flip=0.0)) as srv:
        assert ask(srv, "x") == [True] * 5
    with pytest.raises(ValueError, match="probability"):
        NoisyBrain(flip=1.5)
