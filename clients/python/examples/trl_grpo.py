"""GRPO on the crm world with TRL: one private instance of the world per rollout, rewarded by the task's grade.

Run a server first (`npx seahaven serve`, or `npm start` in the Seahaven repository), then:

    python3 examples/trl_grpo.py [base_url]

Needs `pip install trl transformers datasets` and `./clients/python`; see docs/trl.md.
"""

import sys

from trl import GRPOConfig, GRPOTrainer

from seahaven_client.trl import environment_class, reward_func, task_dataset

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
MODEL = "Qwen/Qwen3-0.6B"
TASKS = ["add_company", "add_lead", "log_call"]  # or task_dataset(url, split="crm-basics")


def make_trainer(url=URL, model=MODEL, tasks=TASKS, processing_class=None, **config):
    return GRPOTrainer(
        model=model,
        processing_class=processing_class,
        train_dataset=task_dataset(url, tasks=tasks, repeats=64),  # rows: task + seed; reset() adds the prompt
        environment_factory=environment_class(url),  # one method per tool; one session per rollout
        reward_funcs=reward_func,  # the grade; logs seahaven/pass_rate and seahaven/criteria/*
        args=GRPOConfig(**{"num_generations": 4, "max_completion_length": 1024, **config}),
    )


if __name__ == "__main__":
    make_trainer().train()
