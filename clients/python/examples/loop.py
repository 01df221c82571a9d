"""The episode loop: 100 graded episodes on crm's big_co fixture, each a fresh private world.

Run a server first (`npx seahaven serve`, or `npm start` in the Seahaven repository), then:

    python3 examples/loop.py [base_url]

`submit()` grades the episode's task, so each reset names one: `retrofit_deal` starts from big_co. A reset without
a task plays freely, and its `submit()` is refused (ProtocolError VALIDATION_ERROR).
"""

import sys

from seahaven_client import SeahavenClient

BASE_URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"

rewards = []
with SeahavenClient(base_url=BASE_URL) as env:
    for episode in range(100):
        env.reset(fixture="big_co", task="retrofit_deal", seed=episode)  # fresh private world
        result = env.call("create_contact", name="Ada Lovelace", email="ada@example.com")
        state = env.state()  # every row the agent touched
        assert [c.key for c in state.changes] == [{"id": result["id"]}]
        reward = env.submit().reward  # or env.grade() mid-episode
        rewards.append(reward)

print(f"{len(rewards)} episodes, mean reward {sum(rewards) / len(rewards):.2f}")
