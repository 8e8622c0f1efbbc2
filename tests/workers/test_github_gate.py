"""The GitHub client reports to a shared gate: a 429 seen by one worker pauses the others."""

from __future__ import annotations

from tests.workers.conftest import RedisServer, load_fake_github

from prdigest.sources.github.client import GitHubClient
from prdigest.sources.github.config import Credentials
from prdigest.workers.connection import redis_client
from prdigest.workers.limits import RedisRateGate

TOKEN = "ghp_GATETEST0123456789"


def test_a_429_pauses_every_client_of_the_token(broker: RedisServer) -> None:
    """The client that got the 429 waits the 30 s itself; the pause it leaves in Redis makes
    another worker's client wait out what is left of it before its next request."""
    fake_github = load_fake_github()
    waits: list[float] = []
    with fake_github.FakeGitHub(token=TOKEN) as fake:
        fake.add_fault("GET /repos", status=429, headers={"Retry-After": "30"})
        gate = RedisRateGate(redis_client(broker.url), TOKEN)
        with GitHubClient(fake.url, Credentials(TOKEN), sleep=waits.append, gate=gate) as client:
            client.rest_get("/repos/acme/widgets/pulls/1/files")
        assert waits[0] == 30.0  # this client's own wait, as without a gate
        other_gate = RedisRateGate(redis_client(broker.url), TOKEN)
        assert 25 < other_gate.paused_for() <= 30
        other_waits: list[float] = []
        with GitHubClient(fake.url, Credentials(TOKEN), sleep=other_waits.append, gate=other_gate) as other:
            other.rest_get("/repos/acme/widgets/pulls/1/files")
        assert len(other_waits) == 1
        assert 25 < other_waits[0] <= 30


def test_a_low_budget_pauses_until_the_reset(broker: RedisServer) -> None:
    fake_github = load_fake_github()
    client_redis = redis_client(broker.url)
    reset = int(float(client_redis.time()[0])) + 120
    with fake_github.FakeGitHub(token=TOKEN) as fake:
        fake.add_fault(
            "GET /repos", status=200, body=[], headers={"x-ratelimit-remaining": "3", "x-ratelimit-reset": str(reset)}
        )
        gate = RedisRateGate(client_redis, TOKEN, reserve=20)
        with GitHubClient(fake.url, Credentials(TOKEN), gate=gate) as client:
            client.rest_get("/repos/acme/widgets/pulls/1/files")
    assert 100 < RedisRateGate(redis_client(broker.url), TOKEN).paused_for() <= 121
