"""AsyncSeahavenClient against a real server: concurrent sessions, pipelining on one session, every method, errors."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Dict, TypeVar

import pytest
from conftest import ADD_LEAD, unique

from seahaven_client import (
    AsyncSeahavenClient,
    ClosedError,
    ConnectError,
    Grade,
    ProtocolError,
    RequestTimeout,
    State,
    SubmitResult,
    ToolError,
)

T = TypeVar("T")


def run(main: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(main())  # type: ignore[arg-type]


def test_concurrent_sessions_are_isolated(server_url: str) -> None:
    async def episode(i: int) -> Dict[str, Any]:
        async with AsyncSeahavenClient(server_url, timeout=15) as env:
            start = await env.reset(fixture="small_startup", seed=i)
            contact = await env.call("create_contact", name=f"Agent {i}", email=f"agent{i}@example.com")
            await env.call("search_contacts", query="an")
            state = await env.state()
            return {"seed": start.seed, "episode": start.episode_id, "contact": contact, "state": state}

    async def main() -> Any:
        return await asyncio.gather(*(episode(i) for i in range(24)))

    results = run(main)
    assert len({r["episode"] for r in results}) == 24
    for i, r in enumerate(results):
        state: State = r["state"]
        assert r["seed"] == i and state.step_count == 2
        # Each session sees its own row only.
        assert [c.after["name"] for c in state.changes if c.after] == [f"Agent {i}"]


def test_concurrent_graded_episodes(server_url: str) -> None:
    async def episode(i: int) -> SubmitResult:
        async with AsyncSeahavenClient(server_url) as env:
            await env.reset(task="add_lead", seed=i)
            if i % 2 == 0:
                await env.call("create_contact", ADD_LEAD)
            return await env.submit()

    async def main() -> Any:
        return await asyncio.gather(*(episode(i) for i in range(16)))

    rewards = [r.reward for r in run(main)]
    assert rewards == [1.0 if i % 2 == 0 else 0.0 for i in range(16)]


def test_requests_pipelined_on_one_session_get_their_own_replies(server_url: str) -> None:
    async def main() -> Any:
        async with AsyncSeahavenClient(server_url) as env:
            await env.reset(fixture="small_startup")
            names = [f"Pipelined {i}" for i in range(20)]
            made = await asyncio.gather(*(env.call("create_contact", name=n, email=f"p{i}@example.com") for i, n in enumerate(names)))
            state = await env.state()
            return names, made, state

    names, made, state = run(main)
    assert [m["name"] for m in made] == names
    assert state.step_count == 20 and len(state.changes) == 20


def test_every_method(server_url: str) -> None:
    async def main() -> None:
        env = AsyncSeahavenClient(server_url)
        assert await env.connect() is env
        try:
            tools = await env.tools()
            assert "create_contact" in {t.name for t in tools}
            r = await env.reset(task="add_lead", seed=2, clock="tick")
            assert r.task is not None and r.task.id == "add_lead" and env.last_reset is r
            with pytest.raises(ToolError) as bad:
                await env.call("create_contact", {"email": "nope"})
            assert bad.value.code == "invalid_arguments"
            await env.call("create_contact", ADD_LEAD)
            await env.advance_clock(1000)
            step = await env.step({"type": "list_tools"})
            assert step.reward is None
            state = await env.state()
            assert state.step_count == 4 and state.task == "add_lead"
            done = await env.submit()
            assert (done.reward, done.passed, done.done) == (1.0, True, True)
            with pytest.raises(ProtocolError) as refused:
                await env.reset(seed=-1)
            assert refused.value.code == "VALIDATION_ERROR"
        finally:
            await env.close()
        assert env.closed
        with pytest.raises(ClosedError):
            await env.tools()

    run(main)


def test_curriculum_episodes_in_parallel(server_url: str) -> None:
    run_id = unique("grpo")

    async def episode() -> SubmitResult:
        async with AsyncSeahavenClient(server_url) as env:
            start = await env.reset(curriculum="crm-basics", run_id=run_id)
            assert start.task is not None
            return await env.submit()

    async def main() -> Any:
        return await asyncio.gather(*(episode() for _ in range(6)))

    tickets = {r.metadata["curriculum"]["ticket"] for r in run(main)}
    assert len(tickets) == 6


def test_async_errors() -> None:
    async def main() -> None:
        with pytest.raises(ConnectError) as refused:
            async with AsyncSeahavenClient("http://127.0.0.1:9"):
                pass
        assert "seahaven serve" in str(refused.value)

    run(main)


def test_a_cancelled_request_keeps_the_session_in_step(server_url: str) -> None:
    async def main() -> None:
        async with AsyncSeahavenClient(server_url) as env:
            await env.reset(fixture="big_co")
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(env.call("search_contacts", query="e", limit=50), 0.0001)
            env.timeout = 0.0001
            with pytest.raises(RequestTimeout):
                await env.call("search_contacts", query="a", limit=50)
            env.timeout = 15
            company = await env.call("get_company", id="cmp_acme")
            assert company["id"] == "cmp_acme"

    run(main)


def test_grade_and_fork(server_url: str, needs_grade: None, needs_fork: None) -> None:
    async def main() -> None:
        async with AsyncSeahavenClient(server_url) as env:
            await env.reset(task="add_lead")
            assert isinstance(await env.grade(), Grade)
            branches = [await env.fork() for _ in range(3)]
            try:
                # Each branch plays on alone: only the first solves the task.
                await branches[0].call("create_contact", ADD_LEAD)
                grades = await asyncio.gather(*(b.grade() for b in branches))
                assert [g.passed for g in grades] == [True, False, False]
                assert not (await env.grade()).passed
                assert all(isinstance(b, AsyncSeahavenClient) for b in branches)
            finally:
                await asyncio.gather(*(b.close() for b in branches))

    run(main)


def test_tasks_lists_the_servers_tasks(server_url: str) -> None:
    async def main() -> None:
        async with AsyncSeahavenClient(server_url, timeout=15) as env:
            tasks, _ = await asyncio.gather(env.tasks(), env.reset(task="add_lead"))
            assert [t.id for t in tasks if t.id == "add_lead"] == ["add_lead"]
            assert all(t.world == "crm" for t in tasks)

    run(main)
