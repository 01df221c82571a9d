"""The Python side of the TRL rollout benchmark (bench/trl-rollouts.ts).

Drives one environment made by ``seahaven_client.trl.environment_class`` exactly as TRL's ``environment_factory``
loop does, one rollout after another: ``reset(**row)`` with a dataset row from ``task_dataset``, the model's tool call
as a method call, then ``reward_func`` (which grades the episode). Prints one JSON line: each rollout's time in
microseconds, and the rewards. TRL itself is not needed: the loop calls what TRL calls.

Run: python3 bench/trl-rollouts.py <base_url> <rollouts> <warmup>
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python" / "src"))

from seahaven_client.trl import environment_class, reward_func, task_dataset  # noqa: E402

ADD_LEAD = {"name": "Ada Lovelace", "email": "ada.lovelace@acmerobotics.example", "company_id": "cmp_acme", "title": "Head of Research", "stage": "lead"}


def main(url: str, rollouts: int, warmup: int) -> None:
    rows = list(task_dataset(url, tasks=["add_lead"], repeats=rollouts + warmup))
    env = environment_class(url)()
    clock = time.perf_counter
    times = []
    rewards = []
    for i, row in enumerate(rows):
        t0 = clock()
        env.reset(**row)
        env.create_contact(**ADD_LEAD)
        [reward] = reward_func([env])
        t1 = clock()
        if i >= warmup:
            times.append((t1 - t0) * 1e6)
            rewards.append(reward)
    print(json.dumps({"client": "python-trl", "rollouts": rollouts, "timesUs": times, "rewards": rewards}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
