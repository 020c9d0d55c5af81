"""Two `combat serve` processes on one PostgreSQL database, and clients that retry: every
request is sent to one process and then, as if its reply was lost, sent again with the same
Idempotency-Key to the other, while other clients write to the same encounter. Each command
is applied once, and no write sent without expected_version gets a version 409 (findings 3
and 5 of issue 14)."""

from __future__ import annotations

import threading

import httpx

from tests.service.helpers import Fight, bearer, open_fight, set_the_scene

CLIENTS = 4
COMMANDS_EACH = 8


def test_retried_duplicates_on_two_processes_are_each_applied_once(two_servers):
    a, b = two_servers
    with httpx.Client(base_url=a.url, timeout=30) as http_a:
        fight = set_the_scene(open_fight(http_a, name="retries"))

    replies: list[tuple[int, int, str]] = []
    guard = threading.Lock()

    def client(n: int) -> None:
        with httpx.Client(timeout=30) as http:
            for i in range(COMMANDS_EACH):
                key = f"client-{n}-command-{i:03d}"
                payload = {"command": {"type": "ruling", "text": f"client {n} ruling {i}"}}
                first, second = (a, b) if (n + i) % 2 else (b, a)
                # The first send and its retry overlap: the retry goes out before the reply.
                sent: list[httpx.Response] = []

                def post(server, sent=sent, payload=payload, key=key) -> None:
                    sent.append(
                        http.post(
                            f"{server.url}{fight.url('/commands')}",
                            json=payload,
                            headers={**bearer(fight.gm), "Idempotency-Key": key},
                        )
                    )

                threads = [threading.Thread(target=post, args=(s,)) for s in (first, second)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                post(second)  # and once more, well after
                with guard:
                    replies.extend((r.status_code, r.json().get("version", -1), key) for r in sent)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert {status for status, _, _ in replies} == {200}, [r for r in replies if r[0] != 200][:3]
    by_key: dict[str, set[int]] = {}
    for _, version, key in replies:
        by_key.setdefault(key, set()).add(version)
    assert all(len(versions) == 1 for versions in by_key.values())  # every reply of a key names one outcome
    with httpx.Client(base_url=b.url, timeout=30) as http_b:
        log = Fight(http_b, fight.id, fight.gm).events()
    rulings = [e for e in log if e["type"] == "RulingMade"]
    assert len(rulings) == CLIENTS * COMMANDS_EACH  # each applied once
    assert len({e["command_id"] for e in rulings}) == len(rulings)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
