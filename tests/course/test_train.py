"""gpt2course/train.py: LR schedule, training, checkpoints, DDP, CLI (the corpus, tokenizer,
split and batches are tests/course/test_data.py's).

Oracles are independent of the code under test: the tiny model's config (vocabulary,
parameter count), ln V, hand-computed schedule values, and a single process against torchrun.
"""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from gpt2course import TINY, data
from gpt2course.train import (PEAK_BF16_TFLOPS, Runtime, TrainConfig, estimate_loss, flops_per_token, global_batch,
                              gpu_part, init_model, load_checkpoint, lr_at, make_optimizer, parse_config, train)

ROOT = Path(__file__).resolve().parents[2]
LN_V = math.log(TINY.vocab_size)


def quick(**overrides) -> TrainConfig:
    """A few steps of the tiny model, silent, nothing written unless out_dir is given."""
    return TrainConfig(**{"batch_size": 8, "max_steps": 8, "warmup_steps": 2, "eval_interval": 1000,
                          "eval_batches": 2, "log_interval": 1, "progress": "none", "sample_chars": 0} | overrides)


def losses(result) -> list[float]:
    return [row["loss"] for row in result.history]


# ------------------------------------------------------------------ the learning-rate schedule
SCHEDULE = dict(max_lr=1.0, min_lr=0.1, warmup_steps=10, max_steps=110)


def test_warmup_is_linear_from_the_first_step():
    assert [lr_at(s, **SCHEDULE) for s in range(10)] == pytest.approx([(s + 1) / 10 for s in range(10)])


def test_peak_then_cosine_to_the_floor():
    lrs = [lr_at(s, **SCHEDULE) for s in range(200)]
    assert lrs[10] == pytest.approx(1.0) and max(lrs) == pytest.approx(1.0)
    assert lrs[60] == pytest.approx(0.55)                        # halfway down the cosine: the mean
    assert all(a > b for a, b in zip(lrs[10:110], lrs[11:111]))  # strictly falling during the decay
    assert lrs[110:] == [0.1] * 90                               # the floor from max_steps on
    assert lr_at(0, max_lr=1.0, min_lr=0.1, warmup_steps=0, max_steps=10) == pytest.approx(1.0)


# ------------------------------------------------------------------ training
def test_weight_decay_on_matrices_and_tables_only():
    decay, none = make_optimizer(init_model(TINY, seed=0), quick(weight_decay=0.1)).param_groups
    V, T, L, d = TINY.vocab_size, TINY.block_size, TINY.n_layer, TINY.n_embd
    assert sum(p.numel() for p in decay["params"]) == V * d + T * d + L * 12 * d * d  # tied wte counted once
    assert sum(p.numel() for p in none["params"]) == L * 13 * d + 2 * d               # biases and LayerNorms
    assert (decay["weight_decay"], none["weight_decay"]) == (0.1, 0.0)


def test_overfits_one_batch_starting_near_ln_v():
    window = data.encode(data.zen_of_python())[:TINY.block_size + 1]  # the only window there is
    one = data.Splits(train=window, val=window, fingerprint="one-window", n_docs=(1, 1))
    result = train(quick(max_steps=150, batch_size=4, lr=1e-2, min_lr=1e-3, warmup_steps=10,
                         weight_decay=0.0, eval_interval=150), one)
    assert abs(result.history[0]["loss"] - LN_V) < 0.15
    assert abs(result.evals[0]["val_loss"] - LN_V) < 0.15
    assert result.history[-1]["loss"] < 0.1 * LN_V
    assert result.evals[-1]["val_loss"] < 0.1 * LN_V  # eval mode, no_grad, same window


def test_a_seed_fixes_the_run():
    a, b = train(quick(dropout=0.1)), train(quick(dropout=0.1))
    other = train(quick(dropout=0.1, seed=7))
    assert losses(a) == losses(b)
    assert all(torch.equal(p, q) for p, q in zip(a.model.parameters(), b.model.parameters()))
    assert losses(other) != losses(a)
    assert a.model.training  # evaluation restored train mode


def test_dropout_masks_change_from_step_to_step():
    """Dropout is re-seeded every step from (seed, rank, step); seeded without the step, every
    step would drop the same units. The masks are read off each nn.Dropout's output."""
    masks = []

    def record(module, args, out):
        if isinstance(module, torch.nn.Dropout) and module.training:
            masks.append((out == 0) & (args[0] != 0))

    handle = torch.nn.modules.module.register_module_forward_hook(record)
    try:
        train(quick(dropout=0.5, max_steps=2))
    finally:
        handle.remove()
    assert masks and len(masks) % 2 == 0
    step0, step1 = masks[0], masks[len(masks) // 2]   # the first dropout of each step
    assert step0.shape == step1.shape and 0.4 < step0.float().mean().item() < 0.6
    assert not torch.equal(step0, step1)


def test_gradient_clipping_reaches_the_update():
    # Adam undoes a uniform scale of the gradient, except against its eps (1e-8): clipped to a
    # norm of 1e-9, every update is about lr * g / eps, so the weights barely move
    clipped, free = train(quick(grad_clip=1e-9)), train(quick(grad_clip=0.0))
    assert losses(free)[-1] < LN_V - 0.3 < LN_V - 0.05 < losses(clipped)[-1]
    assert clipped.history[-1]["grad_norm"] > 1e-3  # the norm logged is the one before clipping


def test_evaluation_runs_in_eval_mode_without_autograd():
    cfg = quick(dropout=0.5)
    model = init_model(cfg.model_config(), cfg.seed, cfg.dropout).train()
    grad_modes = []
    model.register_forward_hook(lambda *_: grad_modes.append(torch.is_grad_enabled()))
    ids = data.load_splits().val
    first, second = (estimate_loss(model, ids, cfg, Runtime(), stream=1) for _ in range(2))
    assert first == second and grad_modes and not any(grad_modes)  # dropout off, no graph
    assert model.training                                            # and train mode restored
    x, y = global_batch(ids, cfg, 0, world=1, stream=1)
    with torch.no_grad():
        plain = init_model(cfg.model_config(), cfg.seed)(torch.from_numpy(x), torch.from_numpy(y))[1]
    assert abs(estimate_loss(model, ids, quick(eval_batches=1), Runtime(), stream=1) - plain.item()) < 1e-6


def test_resume_refuses_weights_and_optimiser_state_of_different_steps(tmp_path):
    """A save interrupted between its files leaves weights of one step beside the optimiser state
    of another: resuming from that would continue a run that never existed."""
    import shutil

    run = dict(max_steps=10, eval_interval=4)
    train(quick(out_dir=str(tmp_path / "a"), stop_at=4, **run))
    train(quick(out_dir=str(tmp_path / "b"), stop_at=8, **run))
    shutil.copy(tmp_path / "b" / "model.safetensors", tmp_path / "a" / "model.safetensors")  # step 8's weights
    with pytest.raises(ValueError, match="from step 8 but train_state.pt from step 4"):
        train(quick(out_dir=str(tmp_path / "a"), resume=True, **run))


def test_checkpoint_then_resume_continues_identically(tmp_path):
    run = dict(max_steps=10, dropout=0.1, eval_interval=4)
    whole = train(quick(out_dir=str(tmp_path / "whole"), **run))
    first = train(quick(out_dir=str(tmp_path / "parts"), stop_at=5, **run))
    rest = train(quick(out_dir=str(tmp_path / "parts"), resume=True, **run))
    assert [r["step"] for r in first.history + rest.history] == list(range(10))
    assert losses(first) + losses(rest) == losses(whole)
    w, p = load_file(tmp_path / "whole" / "model.safetensors"), load_file(tmp_path / "parts" / "model.safetensors")
    assert w.keys() == p.keys() and all(torch.equal(w[k], p[k]) for k in w)
    sw = torch.load(tmp_path / "whole" / "train_state.pt", weights_only=True)["optimizer"]["state"]
    sp = torch.load(tmp_path / "parts" / "train_state.pt", weights_only=True)["optimizer"]["state"]
    assert all(torch.equal(sw[i][key], sp[i][key]) for i in sw for key in ("exp_avg", "exp_avg_sq", "step"))


def test_checkpoint_holds_each_weight_once_and_the_config(tmp_path):
    train(quick(max_steps=2, out_dir=str(tmp_path)))
    weights = load_file(tmp_path / "model.safetensors")
    assert "lm_head.weight" not in weights and "transformer.wte.weight" in weights  # tied: stored once
    assert sum(t.numel() for t in weights.values()) == TINY.n_params()
    meta = json.loads((tmp_path / "config.json").read_text())
    assert meta["model_config"] == TINY.to_dict() and meta["step"] == 2
    model, _ = load_checkpoint(tmp_path)
    assert not model.training and torch.equal(model.transformer.wte.weight, weights["transformer.wte.weight"])
    assert model.lm_head.weight is model.transformer.wte.weight


def test_padded_vocabulary_checkpoint_loads_unpadded_and_exact(tmp_path):
    result = train(quick(max_steps=2, pad_vocab_to=64, out_dir=str(tmp_path)))
    assert result.model.config.vocab_size == 64
    model, meta = load_checkpoint(tmp_path)
    assert model.config == TINY and meta["model_config"]["vocab_size"] == 64
    ids = torch.from_numpy(data.encode("the zen of python")).long()
    with torch.no_grad():
        torch.testing.assert_close(model(ids), result.model.eval()(ids)[:, :TINY.vocab_size], rtol=0, atol=1e-6)


def test_torchrun_two_ranks_match_one_process_with_twice_the_batch(tmp_path):
    common = dict(max_steps=4, warmup_steps=1, eval_interval=2, eval_batches=2, log_interval=1,
                  progress="none", sample_chars=0, seed=3)
    config = tmp_path / "run.json"
    config.write_text(json.dumps(common | {"batch_size": 4}))
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
           "-m", "gpt2course.train", "--config", str(config), "--out-dir", str(tmp_path / "ddp")]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=180,
                          env=os.environ | {"OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    rows = [json.loads(line) for line in (tmp_path / "ddp" / "metrics.jsonl").read_text().splitlines()]
    single = train(TrainConfig(**common, batch_size=8))
    assert [r["loss"] for r in rows if "loss" in r] == pytest.approx(losses(single), rel=1e-5)
    assert [r["val_loss"] for r in rows if "val_loss" in r] == pytest.approx(
        [r["val_loss"] for r in single.evals], rel=1e-5)
    weights = load_file(tmp_path / "ddp" / "model.safetensors")
    d = TINY.n_embd
    for name, p in single.model.named_parameters():
        ddp, one = weights[name], p.detach()
        if name.endswith("attn.c_attn.bias"):
            # the key bias adds q.b_k to every score of a query, which the softmax ignores: its true
            # gradient is 0, and Adam divides the rounding noise by its own size, so skip it
            ddp, one = torch.cat([ddp[:d], ddp[2 * d:]]), torch.cat([one[:d], one[2 * d:]])
        torch.testing.assert_close(ddp, one, rtol=1e-4, atol=1e-6, msg=name)


# ------------------------------------------------------------------ FLOPs and MFU
def test_flops_per_token_is_what_the_matrix_products_of_a_training_step_cost():
    """PyTorch's FLOP counter over one step of GPT-2 small on the meta device: attention's T x T
    products cost 12 L T d per token (PaLM's count, not Kaplan's 6 L T d), and 6N is within 0.1%
    (N counts the biases and LayerNorms too, which no matrix product multiplies)."""
    from torch.utils.flop_counter import FlopCounterMode

    from gpt2course import GPT2_SMALL as c
    from gpt2course.torch_gpt import GPT

    with torch.device("meta"):
        model, ids = GPT(c), torch.zeros((1, c.block_size), dtype=torch.long)
    counter = FlopCounterMode(display=False)
    with counter:
        model(ids, ids)[1].backward()
    per_token = {str(op): n / c.block_size for op, n in counter.get_flop_counts()["Global"].items()}
    n = sum(p.numel() for p in model.parameters()) - c.block_size * c.n_embd
    assert per_token["aten.bmm"] == 12 * c.n_layer * c.block_size * c.n_embd
    assert flops_per_token(c, n) == pytest.approx(sum(per_token.values()), rel=1e-3)


@pytest.mark.parametrize("name, part", [
    ("NVIDIA H100 80GB HBM3", "H100 SXM"), ("NVIDIA H100 PCIe", "H100 PCIe"), ("NVIDIA H100 NVL", None),
    ("NVIDIA H200", "H200"), ("NVIDIA H200 NVL", None), ("NVIDIA GH200 480GB", None),
    ("NVIDIA A100-SXM4-80GB", "A100"), ("NVIDIA A100 80GB PCIe", "A100"), ("NVIDIA A10", None),
    ("NVIDIA L40S", "L40S"), ("NVIDIA L40", None), ("NVIDIA L4", "L4"), ("cpu", None)])
def test_a_gpu_name_maps_to_its_own_part_or_to_none(name, part):
    assert gpu_part(name) == part and (part is None or part in PEAK_BF16_TFLOPS)
    assert PEAK_BF16_TFLOPS["H100 SXM"] != PEAK_BF16_TFLOPS["H100 PCIe"]


# ------------------------------------------------------------------ the command line
def test_cli_help():
    done = subprocess.run([sys.executable, "-m", "gpt2course.train", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for flag in ("--max-steps", "--lr", "--warmup-steps", "--grad-clip", "--out-dir", "--resume", "--config"):
        assert flag in done.stdout


def test_cli_flags_override_the_json_config(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"max_steps": 500, "lr": 0.01, "stop_at": 200}))
    cfg = parse_config(["--config", str(path), "--max-steps", "700", "--resume", "--stop-at", "none"])
    assert (cfg.max_steps, cfg.lr, cfg.resume, cfg.stop_at) == (700, 0.01, True, None)
    path.write_text(json.dumps({"max_step": 50}))
    with pytest.raises(SystemExit, match="max_step"):
        parse_config(["--config", str(path)])


def logged(out: Path) -> list[dict]:
    """metrics.jsonl without its timings (they differ between any two runs)."""
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [{k: v for k, v in r.items() if k != "tokens_per_s"} for r in rows]


def test_metrics_hold_this_run_only_after_another_run_a_crash_and_a_resume(tmp_path):
    run = dict(max_steps=10, eval_interval=4)
    train(quick(out_dir=str(tmp_path / "whole"), **run))
    parts = tmp_path / "parts"
    train(quick(out_dir=str(parts), seed=99, **run))              # an earlier, other run in the same folder
    train(quick(out_dir=str(parts), stop_at=5, **run))             # a fresh run: a fresh file
    with (parts / "metrics.jsonl").open("a") as f:                 # a crash after logging past its checkpoint
        f.write(json.dumps({"step": 5, "loss": 99.0, "lr": 0.0}) + "\n")
    train(quick(out_dir=str(parts), resume=True, **run))
    extra_eval = {"step": 5}                                       # stop_at evaluates (and saves) at step 5
    parts_rows = [r for r in logged(parts) if not ("val_loss" in r and r["step"] == extra_eval["step"])]
    assert parts_rows == logged(tmp_path / "whole")
