"""The Python side of the Python client benchmark (bench/python-client.ts).

`sessions` AsyncSeahavenClients on one asyncio event loop, each a closed loop of crm `add_lead` episodes (reset, three
calls, state, submit), the loop bench/python-client-load.ts runs with the TypeScript client. Prints one JSON line:
requests answered in the measured window, episodes, latency percentiles.

Run: python3 bench/python-client.py <base_url> <sessions> <warmup_ms> <duration_ms>
"""

import asyncio
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python" / "src"))

from seahaven_client import WEBSOCKETS_VERSION, AsyncSeahavenClient  # noqa: E402

ADD_LEAD = {"name": "Ada Lovelace", "email": "ada.lovelace@acmerobotics.example", "company_id": "cmp_acme", "title": "Head of Research", "stage": "lead"}


async def main(url: str, sessions: int, warmup_ms: float, duration_ms: float) -> None:
    clients = [AsyncSeahavenClient(url) for _ in range(sessions)]
    await asyncio.gather(*(c.connect() for c in clients))
    clock = time.perf_counter
    start = clock()
    begin = start + warmup_ms / 1000
    end = begin + duration_ms / 1000
    latencies = []
    counts = {"steps": 0, "episodes": 0, "errors": 0}

    async def timed(awaitable):  # type: ignore[no-untyped-def]
        t0 = clock()
        r = await awaitable
        t1 = clock()
        if begin <= t1 < end:
            counts["steps"] += 1
            latencies.append(t1 - t0)
        return r

    async def session(i: int, env: AsyncSeahavenClient) -> None:
        lap = 0
        while clock() < end:
            await timed(env.reset(task="add_lead", seed=i * 1_000_000 + lap))
            await timed(env.call("search_contacts", query="acme"))
            await timed(env.call("get_company", id="cmp_acme"))
            made = await timed(env.call("create_contact", ADD_LEAD))
            await timed(env.state())
            done = await timed(env.submit())
            if not made or done.reward != 1:
                counts["errors"] += 1
            if begin <= clock() < end:
                counts["episodes"] += 1
            lap += 1

    async def cpu_in_window() -> float:
        await asyncio.sleep(max(0.0, begin - clock()))
        before = time.process_time()
        await asyncio.sleep(max(0.0, end - clock()))
        return time.process_time() - before

    cpu, *_ = await asyncio.gather(cpu_in_window(), *(session(i, c) for i, c in enumerate(clients)))
    await asyncio.gather(*(c.close() for c in clients))
    latencies.sort()

    def pct(p: float) -> float:
        if not latencies:
            return math.nan
        return latencies[min(len(latencies) - 1, max(0, math.ceil(p / 100 * len(latencies)) - 1))] * 1e6

    result = {
        "client": "python",
        "sessions": sessions,
        "steps": counts["steps"],
        "episodes": counts["episodes"],
        "windowS": duration_ms / 1000,
        "errors": counts["errors"],
        "cpuS": cpu,
        "p50Us": pct(50),
        "p99Us": pct(99),
        "python": sys.version.split()[0],
        "websockets": WEBSOCKETS_VERSION,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    url_arg, sessions_arg, warmup_arg, duration_arg = sys.argv[1:5]
    asyncio.run(main(url_arg, int(sessions_arg), float(warmup_arg), float(duration_arg)))
