"""seahaven_client.trl: tool methods built from JSON Schemas, reset rows, rewards, errors and replaced sessions."""

from __future__ import annotations

import importlib.util
import inspect
import json
import time
from typing import Any, Dict, List, Literal, Optional, Union

import pytest
from conftest import Server

from seahaven_client import ClosedError, ProtocolError, SeahavenClient, ToolError
from seahaven_client._signature import OMITTED, build_signature
from seahaven_client.trl import SeahavenEnvironment, environment_class, reward_func, task_dataset

HAS_TRANSFORMERS = importlib.util.find_spec("transformers") is not None

INITECH = {"name": "Initech", "domain": "initech.example", "industry": "software", "employees": 85}

SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "Contact id, like con_..."},
        "from": {"type": "string", "description": "Sender address."},
        "kind": {"type": "string", "enum": ["call", "email"]},
        "company_id": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "null removes it."},
        "limit": {"type": "integer", "default": 10},
        "tags": {"type": "array", "items": {"type": "string"}},
        "recurring": {
            "type": "object",
            "properties": {"interval": {"type": "string", "enum": ["month", "year"]}, "count": {"type": "integer"}},
            "required": ["interval"],
        },
        "anything": {},
    },
    "required": ["id", "from"],
}


def test_a_signature_has_every_argument_typed_and_keyword_mapped() -> None:
    sig = build_signature("log_mail", "Log an email.", SCHEMA)
    params = sig.signature.parameters
    assert list(params) == ["self", "id", "from_", "kind", "company_id", "limit", "tags", "recurring", "anything"]
    assert params["id"].default is inspect.Parameter.empty and params["from_"].default is inspect.Parameter.empty
    assert all(params[n].default is OMITTED for n in ["kind", "company_id", "limit", "tags", "recurring", "anything"])
    assert sig.annotations["kind"] == Literal["call", "email"]
    assert sig.annotations["company_id"] == Optional[str]
    assert sig.annotations["tags"] == List[str]
    assert sig.annotations["recurring"] == Dict[str, Any]
    assert sig.annotations["anything"] is Any
    # Only what the caller gave is sent, by its wire name; None is sent as null.
    assert sig.arguments(("self",), {"id": "con_1", "from_": "a@b.example", "company_id": None}) == {"id": "con_1", "from": "a@b.example", "company_id": None}
    with pytest.raises(TypeError, match=r"log_mail\(\): .*'id'.*its arguments are: id, from_, kind"):
        sig.arguments(("self",), {"from_": "x"})
    with pytest.raises(TypeError, match="unexpected keyword argument 'form'"):
        sig.arguments(("self",), {"id": "1", "from_": "x", "form": "y"})


def test_the_docstring_describes_every_argument_on_one_line() -> None:
    doc = build_signature("log_mail", "Log an email. Args: none needed.", SCHEMA).doc
    lines = doc.splitlines()
    assert lines[0] == "Log an email. Args - none needed."  # a section word in the text opens no section
    args = {line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip() for line in lines[lines.index("Args:") + 1 : lines.index("Returns:") - 1]}
    assert list(args) == ["id", "from_", "kind", "company_id", "limit", "tags", "recurring", "anything"]
    assert args["from_"] == "Sender address. (Sent as 'from'.)"
    assert args["kind"].startswith('The kind ("call" or "email").')
    assert "Default 10 when left out." in args["limit"]
    assert 'An object with keys: interval ("month" or "year", required); count (integer).' in args["recurring"]
    assert args["anything"] == "The anything (any value). Optional."


def test_a_nullable_union_and_a_list_of_objects() -> None:
    sig = build_signature("t", "", {"properties": {"v": {"type": ["integer", "string", "null"]}, "items": {"type": "array", "items": {"type": "object", "properties": {"price": {"type": "string"}}}}}})
    assert sig.annotations["v"] == Union[int, str, None]
    assert sig.annotations["items"] == List[Dict[str, Any]]
    assert "Each item is an object with keys: price (string)." in sig.doc
    assert sig.doc.startswith("Call the t tool.")


@pytest.fixture(scope="module")
def three_worlds() -> Any:
    if not HAS_TRANSFORMERS:
        pytest.skip("transformers is not installed (pip install transformers)")
    server = Server("stripe", "saas")
    yield server.url
    server.stop()


@pytest.mark.parametrize("world", ["crm", "stripe", "saas"])
def test_get_json_schema_reads_every_tool_of_the_example_worlds(three_worlds: str, world: str) -> None:
    from transformers.utils import get_json_schema

    cls = environment_class(three_worlds, world=world)
    env = cls()
    with SeahavenClient(cls._base_url) as probe:
        listed = {t.name: t for t in probe.tools()}
    assert sorted(cls._signatures) == sorted(listed)
    for name, tool in listed.items():
        schema = get_json_schema(getattr(env, name))["function"]
        assert schema["name"] == name
        params = schema["parameters"]
        wire = tool.input_schema.get("properties", {})
        assert len(params["properties"]) == len(wire), name
        assert sorted(params.get("required", [])) == sorted(tool.input_schema.get("required", [])), name
        for arg in params["properties"].values():
            assert arg["description"], name
        for py, wire_name in cls._signatures[name].wire_names.items():
            enum = wire[wire_name].get("enum")
            if enum:
                assert params["properties"][py]["enum"] == enum


def test_reset_plays_the_row_and_get_reward_grades_once(server_url: str) -> None:
    Env = environment_class(server_url)
    assert Env.__name__ == "SeahavenEnvironment" and issubclass(Env, SeahavenEnvironment)
    assert environment_class(server_url + "/crm", tools=["create_company"]).__name__ == "CrmEnvironment"
    env = Env()
    prompt = env.reset(task="add_company", seed=3, prompt=[{"role": "user", "content": ""}], difficulty=1)
    assert prompt.startswith("Create the company Initech")
    created = json.loads(env.create_company(**INITECH))
    assert created["name"] == "Initech"
    assert env.get_reward() == 1.0 and env.get_reward() == 1.0  # graded once, then cached
    assert env.reset(task="add_company", seed=4).startswith("Create the company")
    assert env.get_reward() == 0.0  # a fresh instance: nothing done


def test_a_failed_call_raises_the_worlds_code_and_the_episode_goes_on(server_url: str) -> None:
    env = environment_class(server_url)()
    with pytest.raises(RuntimeError, match="before reset"):
        env.create_company(**INITECH)
    env.reset(task="add_company")
    with pytest.raises(ToolError) as info:
        env.create_contact(name="Ada", email="not-an-email")
    assert info.value.code == "invalid_arguments" and str(info.value).startswith("invalid_arguments: ")
    with pytest.raises(TypeError, match="missing a required argument: 'name'"):
        env.create_company(domain="initech.example")
    env.create_company(**INITECH)
    assert env.get_reward() == 1.0


def test_only_the_tools_named(server_url: str) -> None:
    Env = environment_class(server_url, tools=["create_company", "list_companies"])
    assert sorted(Env._signatures) == ["create_company", "list_companies"]
    assert not hasattr(Env, "create_contact")
    with pytest.raises(ValueError, match="has no tool 'create_kontakt'; its tools are: search_contacts"):
        environment_class(server_url, tools=["create_kontakt"])


@pytest.mark.parametrize("name", ["reset", "get_reward", "_hidden"])
def test_a_tool_named_like_the_classs_own_methods_is_refused(server_url: str, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    from seahaven_client import ToolInfo

    real = SeahavenClient.tools
    monkeypatch.setattr(SeahavenClient, "tools", lambda self: real(self) + [ToolInfo(name=name, description="", input_schema={})])
    with pytest.raises(ValueError, match=f"tool '{name}'"):
        environment_class(server_url)


def test_reward_func_returns_the_grades_logs_metrics_and_counts_each_once(server_url: str) -> None:
    Env = environment_class(server_url)
    good, bad = Env(), Env()
    good.reset(task="add_company", seed=1)
    good.create_company(**INITECH)
    bad.reset(task="add_company", seed=1)
    logged: Dict[str, float] = {}
    rewards = reward_func(environments=[good, bad, object()], log_metric=logged.__setitem__, prompts=["", "", ""], trainer_state=None)
    assert rewards == [1.0, 0.0, None]
    assert logged["seahaven/pass_rate"] == 0.5
    criteria = {k: v for k, v in logged.items() if k.startswith("seahaven/criteria/")}
    assert criteria and 0.5 in criteria.values()
    # TRL also calls get_reward as a reward of its own: it stands aside for episodes reward_func reported.
    assert good.get_reward() is None and bad.get_reward() is None
    good.reset(task="add_company")
    assert good.get_reward() == 0.0


def test_task_dataset_rows(server_url: str) -> None:
    rows = task_dataset(server_url, tasks=["add_lead", "add_company"], repeats=2)
    rows = rows.to_list() if hasattr(rows, "to_list") else rows
    assert rows == [
        {"prompt": [{"role": "user", "content": ""}], "task": task, "seed": seed}
        for task in ["add_lead", "add_company"]
        for seed in [0, 1]
    ]
    with pytest.raises(ValueError, match="repeats"):
        task_dataset(server_url, tasks=["add_lead"], repeats=0)


def test_a_session_the_server_ended_is_replaced_on_the_next_reset(idle_timeout_server: Server) -> None:
    env = environment_class(idle_timeout_server.url)()
    env.reset(task="add_company")
    first = env._session
    deadline = time.monotonic() + 15
    while not first.closed and time.monotonic() < deadline:
        time.sleep(0.2)
    assert first.closed, "the server did not end the idle session"
    with pytest.raises(ClosedError):
        env.create_company(**INITECH)
    assert env.get_reward() is None  # the episode was lost with its session
    assert env.reset(task="add_company").startswith("Create the company")
    assert env._session is not first
    env.create_company(**INITECH)
    assert env.get_reward() == 1.0


LISTING = {
    "tasks": [
        {"id": "add_lead", "tags": ["insert", "contacts"], "stages": [{"curriculum": "crm-basics", "stage": "easy"}]},
        {"id": "dana_signed", "tags": ["workflow"], "stages": [{"curriculum": "crm-basics", "stage": "hard"}]},
        {"id": "loose_end", "tags": ["insert"], "stages": []},
    ],
    "splits": [{"name": "crm-basics", "num_tasks": 2}, {"name": "tag:insert", "num_tasks": 2}, {"name": "all", "num_tasks": 3}],
}


def test_the_tasks_of_a_split() -> None:
    from seahaven_client._tasks import check_task_ids, tasks_of_split

    assert [t["id"] for t in tasks_of_split(LISTING, "all")] == ["add_lead", "dana_signed", "loose_end"]
    assert [t["id"] for t in tasks_of_split(LISTING, "tag:insert")] == ["add_lead", "loose_end"]
    assert [t["id"] for t in tasks_of_split(LISTING, "crm-basics")] == ["add_lead", "dana_signed"]
    with pytest.raises(ValueError, match="no tasks in split 'tag:nope'; the server's splits are: crm-basics, tag:insert, all"):
        tasks_of_split(LISTING, "tag:nope")
    with pytest.raises(ValueError, match="unknown task\\(s\\) 'add_leed'; the world's tasks are: add_lead, dana_signed, loose_end"):
        check_task_ids(LISTING, ["add_lead", "add_leed"])


def test_task_dataset_reads_the_servers_split(server_url: str) -> None:
    from seahaven_client._tasks import fetch_tasks

    try:
        listing = fetch_tasks(server_url)
    except ProtocolError as e:
        if e.code != "NOT_FOUND":
            raise
        with pytest.raises(ProtocolError, match="does not list its tasks; name them with tasks="):
            task_dataset(server_url, split="all")
        pytest.skip("the server does not serve GET /tasks yet")
    rows = task_dataset(server_url, split="crm-basics")
    rows = rows.to_list() if hasattr(rows, "to_list") else rows
    staged = [t["id"] for t in listing["tasks"] if any(s.get("curriculum") == "crm-basics" for s in t.get("stages") or [])]
    assert [r["task"] for r in rows] == staged and all(r["seed"] == 0 for r in rows)
    with pytest.raises(ValueError, match="unknown task"):
        task_dataset(server_url, tasks=["no_such_task"])
