"""SeahavenClient (blocking) against a real server: every method, its typed results, and each kind of error."""

from __future__ import annotations

import pytest
from conftest import ADD_LEAD, unique

from seahaven_client import (
    Change,
    ClosedError,
    ConnectError,
    Criterion,
    Grade,
    ProtocolError,
    RequestTimeout,
    ResetResult,
    SeahavenClient,
    SeahavenError,
    State,
    StepResult,
    SubmitResult,
    TaskInfo,
    ToolError,
    ToolInfo,
    ws_url_of,
)


def test_reset_returns_the_episode(env: SeahavenClient) -> None:
    r = env.reset(fixture="small_startup", seed=7)
    assert isinstance(r, ResetResult)
    assert (r.fixture, r.seed, r.task) == ("small_startup", 7, None)
    assert r.now.startswith("2026-06-01")
    assert r.episode_id and r.metadata["episode_id"] == r.episode_id
    assert {t.name for t in r.tools} >= {"create_contact", "search_contacts"}
    assert env.last_reset is r


def test_reset_takes_every_key(env: SeahavenClient) -> None:
    r = env.reset(fixture="small_startup", seed=3, clock="tick", now="2026-07-01T00:00:00.000Z", episode_id="mine-1", reward_mode="shaped")
    assert (r.seed, r.now, r.episode_id) == (3, "2026-07-01T00:00:00.000Z", "mine-1")
    s = env.state()
    assert (s.episode_id, s.seed, s.clock["mode"]) == ("mine-1", 3, "tick")


def test_reset_with_a_task_and_submit(env: SeahavenClient) -> None:
    r = env.reset(task="add_lead", seed=1)
    assert r.task is not None and r.task.id == "add_lead" and "Ada Lovelace" in r.task.prompt
    assert r.fixture == "small_startup"
    contact = env.call("create_contact", ADD_LEAD)
    assert contact["name"] == "Ada Lovelace" and contact["id"].startswith("con_")
    done = env.submit()
    assert isinstance(done, SubmitResult) and isinstance(done.grade, Grade)
    assert (done.reward, done.done, done.passed) == (1.0, True, True)
    assert all(isinstance(c, Criterion) for c in done.criteria) and done.criteria == done.grade.criteria


def test_a_curriculum_picks_the_task(env: SeahavenClient) -> None:
    run = unique("run")
    r = env.reset(curriculum="crm-basics", run_id=run)
    assert r.task is not None
    assert r.metadata["curriculum"]["run_id"] == run
    done = env.submit()
    assert done.metadata["curriculum"]["ticket"] == r.metadata["curriculum"]["ticket"]


def test_tools_lists_the_world(env: SeahavenClient) -> None:
    tools = env.tools()  # before any reset
    assert all(isinstance(t, ToolInfo) for t in tools)
    create = next(t for t in tools if t.name == "create_contact")
    assert create.description and create.input_schema["type"] == "object"


def test_call_takes_a_dict_keywords_or_both(env: SeahavenClient) -> None:
    env.reset(fixture="small_startup")
    a = env.call("create_contact", name="Ada Lovelace", email="ada@example.com")
    b = env.call("create_contact", {"name": "Grace Hopper"}, email="grace@example.com")
    assert (a["email"], b["email"], b["name"]) == ("ada@example.com", "grace@example.com", "Grace Hopper")
    assert env.call("pipeline_summary") is not None


def test_a_failed_call_raises_tool_error_with_the_worlds_failure(env: SeahavenClient) -> None:
    env.reset(fixture="small_startup")
    with pytest.raises(ToolError) as bad:
        env.call("create_contact", email="not-an-email")
    e = bad.value
    assert (e.code, e.tool, e.error_type) == ("invalid_arguments", "create_contact", "invalid_args")
    assert e.details is not None and {v["path"] for v in e.details["violations"]} == {"name", "email"}
    assert "Invalid email" in e.message and str(e).startswith("invalid_arguments: ")
    with pytest.raises(ToolError) as unknown:
        env.call("no_such_tool")
    assert (unknown.value.code, unknown.value.error_type) == ("unknown_tool", "tool_not_found")
    with pytest.raises(ToolError) as missing:
        env.call("get_contact", id="con_nobody")
    assert missing.value.code == "not_found"
    # Failed calls are steps like any other; the episode goes on.
    assert env.state().step_count == 3


def test_state_has_every_row_the_episode_changed(env: SeahavenClient) -> None:
    env.reset(fixture="small_startup", seed=2)
    contact = env.call("create_contact", name="Ada Lovelace", email="ada@example.com")
    env.call("update_contact", id=contact["id"], title="Countess")
    s = env.state()
    assert isinstance(s, State)
    assert (s.step_count, s.call_count, s.seed, s.world["name"], s.fixture and s.fixture["id"]) == (2, 2, 2, "crm", "small_startup")
    assert s.changes == [Change(table="contacts", op="insert", key={"id": contact["id"]}, before=None, after={**contact, "title": "Countess"})]
    assert s.raw["format"] == "seahaven.state/1"


def test_step_sends_any_action(env: SeahavenClient) -> None:
    env.reset(task="add_lead", reward_mode="shaped")
    r = env.step({"type": "call_tool", "tool_name": "create_contact", "arguments": ADD_LEAD})
    assert isinstance(r, StepResult) and r.reward == 1.0 and not r.done
    assert r.observation["result"]["data"]["name"] == "Ada Lovelace"
    assert env.submit().reward == 0.0  # shaped: the rest of the grade
    listed = env.step({"type": "list_tools"})
    assert listed.reward is None and listed.observation["tools"]


def test_advance_clock_moves_world_time(env: SeahavenClient) -> None:
    env.reset(fixture="small_startup")
    env.advance_clock(86_400_000)
    assert env.state().clock["now"] == "2026-06-02T09:00:00.000Z"


def test_submit_without_a_task_is_a_protocol_error(env: SeahavenClient) -> None:
    env.reset(fixture="small_startup")
    with pytest.raises(ProtocolError) as refused:
        env.submit()
    assert refused.value.code == "VALIDATION_ERROR"
    assert "no task to grade" in refused.value.errors[0]["msg"]
    env.call("pipeline_summary")  # the session goes on


def test_refused_reset_data_is_a_protocol_error_naming_the_key(env: SeahavenClient) -> None:
    with pytest.raises(ProtocolError) as bad:
        env.reset(fixture="nope")
    assert bad.value.code == "VALIDATION_ERROR" and bad.value.errors[0]["loc"] == ["data", "fixture"]
    with pytest.raises(ProtocolError) as unknown:
        env.reset(colour="blue")
    assert unknown.value.errors[0]["type"] == "extra_forbidden"
    with pytest.raises(ProtocolError) as action:
        env.step({"type": "dance"})
    assert action.value.code == "VALIDATION_ERROR" and isinstance(action.value, SeahavenError)


def test_close_ends_the_session(server_url: str) -> None:
    env = SeahavenClient(server_url)
    env.reset(fixture="empty")
    assert not env.closed
    env.close()
    env.close()  # twice is fine
    assert env.closed
    with pytest.raises(ClosedError):
        env.state()


def test_the_first_request_connects(server_url: str) -> None:
    env = SeahavenClient(server_url)
    try:
        assert "not connected" in repr(env)
        assert env.reset(fixture="empty").fixture == "empty"
        assert "open" in repr(env)
    finally:
        env.close()


def test_world_paths_and_ws_urls(server_url: str) -> None:
    assert ws_url_of("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert ws_url_of("https://h.example/crm/") == "wss://h.example/crm/ws"
    assert ws_url_of("ws://127.0.0.1:8000/ws") == "ws://127.0.0.1:8000/ws"
    with SeahavenClient(server_url + "/crm") as env:
        assert env.reset(fixture="empty").fixture == "empty"
    with pytest.raises(ConnectError, match="http"):
        SeahavenClient("ftp://127.0.0.1:8000")


def test_connection_refused_names_the_url_and_the_command() -> None:
    env = SeahavenClient("http://127.0.0.1:9", timeout=5)
    with pytest.raises(ConnectError) as refused:
        env.connect()
    e = refused.value
    assert isinstance(e, ConnectionError) and e.code == "CONNECT" and e.url == "http://127.0.0.1:9"
    assert "http://127.0.0.1:9" in str(e) and "connection refused" in str(e) and "seahaven serve" in str(e)


def test_an_unknown_world_is_a_404(server_url: str) -> None:
    with pytest.raises(ConnectError) as refused:
        SeahavenClient(server_url + "/atlantis").connect()
    assert refused.value.status == 404 and "404" in str(refused.value)


def test_a_late_reply_is_dropped_and_the_next_request_gets_its_own(env: SeahavenClient) -> None:
    env.reset(fixture="big_co")
    env._client.timeout = 0.0001
    with pytest.raises(RequestTimeout) as late:
        env.call("search_contacts", query="an", limit=50)
    assert late.value.code == "TIMEOUT" and isinstance(late.value, TimeoutError)
    env._client.timeout = 15
    assert env.call("get_company", id="cmp_acme")["id"] == "cmp_acme"
    assert env.state().step_count == 2


def test_token_and_capacity(guarded_server) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConnectError) as unauthorized:
        SeahavenClient(guarded_server.url).connect()
    assert unauthorized.value.status == 401 and "token=" in str(unauthorized.value)
    with SeahavenClient(guarded_server.url, token="s3cret") as env:
        assert env.reset(fixture="empty").fixture == "empty"
        # The server holds one session: a second is refused with a frame, then closed.
        second = SeahavenClient(guarded_server.url, token="s3cret")
        with pytest.raises(ProtocolError) as full:
            second.reset()
        assert full.value.code == "CAPACITY_REACHED" and full.value.data["max_sessions"] == 1
        with pytest.raises(SeahavenError):
            second.state()
        second.close()
        state = env.state()
        assert state.fixture is not None and state.fixture["id"] == "empty"


def test_submit_with_trace_needs_the_grader_token(guarded_server) -> None:  # type: ignore[no-untyped-def]
    with SeahavenClient(guarded_server.url, token="s3cret") as env:
        env.reset(task="add_lead")
        env.call("create_contact", ADD_LEAD)
        with pytest.raises(ProtocolError) as refused:
            env.submit(trace=True)
        assert refused.value.code == "VALIDATION_ERROR" and "grader token" in str(refused.value)
        assert env.state().call_count == 1  # refused before grading: the episode goes on
        env.reset(task="add_lead", grader_token="gr4der")
        env.call("create_contact", ADD_LEAD)
        done = env.submit(trace=True)
        assert done.passed and done.criteria[0].reason  # the whole grade
        assert done.trace is not None and done.trace["world"]["name"] == "crm"
        assert [c["tool"] for c in done.trace["calls"]] == ["create_contact"]
        assert ("contacts", "insert") in [(c["table"], c["op"]) for c in done.trace["change_log"]]
        assert len(done.trace["changes"]) >= 1
        assert env.submit().trace is None


@pytest.mark.usefixtures("needs_grade")
def test_grade_mid_episode(env: SeahavenClient) -> None:
    env.reset(task="add_lead")
    before = env.grade()
    assert isinstance(before, Grade) and before.reward < 1 and not before.passed and before.criteria
    env.call("create_contact", ADD_LEAD)
    after = env.grade()
    assert (after.reward, after.passed) == (1.0, True)
    env.call("pipeline_summary")  # not done: the episode goes on
    assert env.submit().reward == 1.0


@pytest.mark.usefixtures("needs_fork")
def test_fork_branches_the_episode(env: SeahavenClient) -> None:
    start = env.reset(task="add_lead", seed=4)
    first = env.call("create_contact", name="Ada Lovelace", email="ada@example.com")
    with env.fork() as branch:
        assert isinstance(branch, SeahavenClient) and branch is not env
        assert branch.last_reset is not None and branch.last_reset.task is not None and branch.last_reset.task.id == "add_lead"
        assert [c.key for c in branch.state().changes] == [{"id": first["id"]}]
        # The two go on apart.
        branch.call("create_contact", ADD_LEAD)
        assert len(branch.state().changes) == 2 and len(env.state().changes) == 1
        assert branch.grade().passed is False  # the extra contact is collateral damage
        assert env.state().episode_id == start.episode_id
    assert branch.closed
    env.call("pipeline_summary")


def test_fork_works_across_workers(workers_url: str) -> None:
    # Each branch opens a connection of its own, dealt to the workers in turn: about every other one lands on the
    # worker that does not hold the fork, and is handed over to the one that does.
    with SeahavenClient(base_url=workers_url, timeout=30) as env:
        env.reset()
        env.call("create_contact", name="Trunk Person", email="trunk@example.com")
        for i in range(4):
            with env.fork() as branch:
                branch.call("create_contact", name=f"Branch {i}", email=f"branch{i}@example.com")
                assert len(branch.state().changes) == 2
        assert len(env.state().changes) == 1


@pytest.mark.usefixtures("needs_fork")
def test_an_unknown_fork_token_is_refused(env: SeahavenClient) -> None:
    with pytest.raises(ProtocolError) as refused:
        env.reset(fork_token="not-a-token")
    assert refused.value.code == "VALIDATION_ERROR" and refused.value.errors[0]["loc"] == ["data", "fork_token"]


def test_tasks_lists_the_servers_tasks_over_http(server_url: str) -> None:
    env = SeahavenClient(base_url=server_url, timeout=15)
    tasks = env.tasks()  # plain HTTP: no socket is opened for it
    assert all(isinstance(t, TaskInfo) for t in tasks)
    add_lead = next(t for t in tasks if t.id == "add_lead")
    assert (add_lead.world, add_lead.fixture, add_lead.difficulty) == ("crm", "small_startup", 1.0)
    assert "contacts" in add_lead.tags
    assert {"curriculum": "crm-basics", "stage": "easy"} in add_lead.stages
    assert set(add_lead.raw) == {"id", "world", "fixture", "prompt", "difficulty", "tags", "stages"}
    with env:
        r = env.reset(task="add_lead")
        assert r.task is not None and r.task.prompt == add_lead.prompt
    # A client made from the WebSocket URL reaches the same route.
    assert [t.id for t in SeahavenClient(base_url=ws_url_of(server_url)).tasks()] == [t.id for t in tasks]


def test_tasks_needs_the_token_of_a_guarded_server(guarded_server) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConnectError, match="HTTP 401.*token"):
        SeahavenClient(guarded_server.url).tasks()
    assert SeahavenClient(guarded_server.url, token="s3cret").tasks()
