"""GRPOTrainer from clients/python/examples/trl_grpo.py, for 2 optimizer steps against a real `seahaven serve crm`.

The model is a tiny randomly initialised Qwen2 with a tokenizer trained here, under TRL's own Qwen 2.5 chat template,
so nothing is downloaded. Its `generate` is a scripted policy: the first rollout of each pair of generations makes
add_company's gold call, the other a call the world refuses. The trainer then really calls the tool on its
rollout's session, grades both episodes, and steps the optimizer on the tiny model. Prints one JSON line of figures;
exits non-zero if an assertion fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "clients" / "python" / "src"), str(REPO / "clients" / "python" / "tests")]
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM  # noqa: E402
from trl.chat_template_utils import qwen2_5_chat_template  # noqa: E402

from conftest import Server  # noqa: E402
from seahaven_client import SeahavenClient  # noqa: E402

GOLD = {"name": "Initech", "domain": "initech.example", "industry": "software", "employees": 85}
GOLD_CALL = '<tool_call>\n{"name": "create_company", "arguments": ' + json.dumps(GOLD) + "}\n</tool_call><|im_end|>"
# A call the world refuses: TRL shows the model the world's error, and the episode (reward 0) goes on.
BAD_CALL = '<tool_call>\n{"name": "create_contact", "arguments": {"name": "Initech", "email": "not-an-email"}}\n</tool_call><|im_end|>'
AFTER_TOOL = "Done.<|im_end|>"
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]


def load_example():
    spec = importlib.util.spec_from_file_location("trl_grpo_example", REPO / "clients" / "python" / "examples" / "trl_grpo.py")
    module = importlib.util.module_from_spec(spec)
    argv, sys.argv = sys.argv, sys.argv[:1]
    try:
        spec.loader.exec_module(module)
    finally:
        sys.argv = argv
    return module


def train_tokenizer(url: str) -> PreTrainedTokenizerFast:
    """A byte-level BPE trained on what the prompts are made of: the tools' schemas, the task's prompt, the answers."""
    with SeahavenClient(url) as env:
        corpus = [json.dumps({"name": t.name, "description": t.description, "parameters": t.input_schema}) for t in env.tools()]
        corpus.append(env.reset(task="add_company").task.prompt)
    corpus += [GOLD_CALL, BAD_CALL, AFTER_TOOL, qwen2_5_chat_template]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus * 4, trainers.BpeTrainer(vocab_size=1500, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = qwen2_5_chat_template
    return tokenizer


class ScriptedQwen2(Qwen2ForCausalLM):
    """A real (tiny, random) Qwen2 whose sampling is scripted; its forward pass, the one the loss uses, is the model's."""

    tokenizer: PreTrainedTokenizerFast

    @torch.no_grad()
    def generate(self, input_ids=None, attention_mask=None, **kwargs):
        tok = self.tokenizer
        outputs = []
        for row, ids in enumerate(input_ids.tolist()):
            text = tok.decode(ids)
            answer = AFTER_TOOL if "<tool_response>" in text else GOLD_CALL if row % 2 == 0 else BAD_CALL
            outputs.append(tok.encode(answer, add_special_tokens=False))
        width = max(len(o) for o in outputs)
        padded = [o + [tok.pad_token_id] * (width - len(o)) for o in outputs]
        return torch.cat([input_ids, torch.tensor(padded, dtype=input_ids.dtype, device=input_ids.device)], dim=1)


def main() -> None:
    started = time.monotonic()
    server = Server()
    try:
        url = server.url
        tokenizer = train_tokenizer(url)
        torch.manual_seed(0)
        config = Qwen2Config(
            vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
            num_key_value_heads=1, max_position_embeddings=16384, tie_word_embeddings=True,
            eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
        )
        model = ScriptedQwen2(config)
        model.tokenizer = tokenizer
        out = tempfile.mkdtemp(prefix="seahaven-trl-")
        trainer = load_example().make_trainer(
            url, model, tasks=["add_company"], processing_class=tokenizer,
            output_dir=out, max_steps=2, per_device_train_batch_size=4, num_generations=2, max_completion_length=256,
            logging_steps=1, report_to="none", save_strategy="no", use_cpu=True, bf16=False, learning_rate=1e-3,
            max_tool_calling_iterations=2,
        )
        trainer.train()
        logs = [entry for entry in trainer.state.log_history if "reward" in entry]
        per_episode = list(trainer._logs["rewards"]["reward_func"])
        figures = {
            "steps": trainer.state.global_step,
            "seconds": round(time.monotonic() - started, 1),
            "rewards": per_episode,
            "logged_reward": [entry["reward"] for entry in logs],
            "loss": [entry.get("loss") for entry in logs],
            "pass_rate": [entry.get("seahaven/pass_rate") for entry in logs],
            "tool_calls": [entry.get("tools/call_frequency") for entry in logs],
            "tool_failures": [entry.get("tools/failure_frequency") for entry in logs],
        }
        completions = [str(c) for c in trainer._logs["completion"]]
        print(json.dumps(figures))
        assert trainer.state.global_step == 2, figures
        assert 1.0 in per_episode and 0.0 in per_episode, figures
        assert all(abs(r - 0.5) < 1e-6 for r in figures["logged_reward"]), figures  # each reward counted once
        assert all(abs(p - 0.5) < 1e-6 for p in figures["pass_rate"]), figures
        assert any(loss not in (None, 0.0) for loss in figures["loss"]), figures
        # The refused call reached the model as the world's error, and did not stop the run.
        assert all(abs(f - 0.5) < 1e-6 for f in figures["tool_failures"]), figures
        assert any("invalid_arguments: Invalid arguments for create_contact" in c for c in completions), completions
    finally:
        server.stop()


if __name__ == "__main__":
    main()
