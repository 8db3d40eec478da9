"""Lesson 08: train the course's PyTorch GPT on the docstring corpus (gpt2course.data).

One loop for a laptop and for a GPU node:

    python -m gpt2course.train --max-steps 3000 --out-dir runs/tiny        # one CPU process
    python -m gpt2course.train --out-dir runs/tiny --resume                # continue it
    torchrun --nproc_per_node=2 -m gpt2course.train --batch-size 16 ...    # data parallel

Every random choice is a pure function of (seed, step, rank): the batch of step
s is drawn from ``default_rng([seed, 0, s])`` and the dropout generator is
re-seeded from (seed, rank, step). So a run is deterministic on the CPU, a
resumed run continues exactly where an uninterrupted one would be, and under
torchrun the ranks split one global batch: N processes with batch b see the
same windows as one process with batch N*b (DistributedDataParallel then
averages their gradients, which is the gradient of the global batch's mean
loss).

On CUDA (and only there) the loop also uses bfloat16 autocast, torch.compile,
the fused AdamW kernel, a vocabulary padded to a multiple of 64, TF32, and
reports tokens/s, and MFU (model FLOPs utilisation) where it knows the peak: a
GPU part listed in PEAK_BF16_TFLOPS, or --peak-tflops. On the CPU it stays
plain float32 eager PyTorch.

Checkpoint (``out_dir``): ``model.safetensors`` (the weights, each tensor once:
the head is tied to transformer.wte.weight), ``config.json`` (model and
training config, tokenizer, step, losses; human-readable) and
``train_state.pt`` (the optimiser state and step, for --resume).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist

from . import data as corpus
from . import numpy_gpt, state_dicts
from .config import TINY, GPTConfig
from .torch_gpt import GPT

WEIGHTS, META, STATE, METRICS = "model.safetensors", "config.json", "train_state.pt", "metrics.jsonl"


# ------------------------------------------------------------------ configuration
@dataclass
class TrainConfig:
    """Every knob of a run; each one is also a command-line flag (--max-steps ...)."""

    # the model (its vocabulary is the tokenizer's: data.VOCAB_SIZE = 56)
    n_layer: int = TINY.n_layer
    n_embd: int = TINY.n_embd
    n_head: int = TINY.n_head
    block_size: int = TINY.block_size
    dropout: float = 0.0
    # steps and batches
    batch_size: int = 32                # per process: the global batch is batch_size * world size
    max_steps: int = 3000               # the length of the LR schedule
    stop_at: int | None = None          # stop (and checkpoint) at this step; --resume continues the schedule
    val_fraction: float = 0.1           # share of documents held out
    # AdamW, linear warmup, cosine decay to min_lr
    lr: float = 3e-3
    min_lr: float = 3e-4
    warmup_steps: int = 100
    weight_decay: float = 0.1           # on matrices and embeddings only, never on biases or LayerNorms
    beta1: float = 0.9
    beta2: float = 0.95
    grad_clip: float = 1.0              # max global gradient norm; 0 switches clipping off
    # evaluation, logging, checkpoints
    eval_interval: int = 250            # evaluate (and checkpoint) every this many steps, and at the end
    eval_batches: int = 20
    log_interval: int = 10
    out_dir: str | None = None          # checkpoints and metrics.jsonl; None writes nothing
    resume: bool = False                # continue from the checkpoint in out_dir
    seed: int = 1337
    sample_chars: int = 200             # print a sample of this many characters at the end (0: none)
    progress: str = "auto"              # auto (tqdm bar if installed) | bar | lines | none
    # hardware ("auto": the fast settings on CUDA, plain float32 eager on the CPU)
    device: str = "auto"                # auto | cpu | cuda
    dtype: str = "auto"                 # auto | float32 | bfloat16 (autocast)
    compile: str = "auto"               # auto | yes | no
    pad_vocab_to: int | None = None     # None: 64 on CUDA, no padding on the CPU
    peak_tflops: float | None = None    # the device's peak, for MFU; None: looked up for known GPUs

    def __post_init__(self) -> None:
        for name in ("batch_size", "max_steps", "eval_interval", "eval_batches", "log_interval"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.warmup_steps <= self.max_steps:
            raise ValueError(f"warmup_steps={self.warmup_steps} must lie in [0, max_steps={self.max_steps}]")
        if self.stop_at is not None and not 0 < self.stop_at <= self.max_steps:
            raise ValueError(f"stop_at={self.stop_at} must lie in (0, max_steps={self.max_steps}]")
        for name, allowed in (("progress", ("auto", "bar", "lines", "none")), ("device", ("auto", "cpu", "cuda")),
                              ("dtype", ("auto", "float32", "bfloat16")), ("compile", ("auto", "yes", "no"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")

    def model_config(self, pad_to: int = 1) -> GPTConfig:
        vocab = math.ceil(corpus.VOCAB_SIZE / pad_to) * pad_to
        return GPTConfig(vocab, self.block_size, self.n_layer, self.n_embd, self.n_head)


# ------------------------------------------------------------------ pure pieces
def lr_at(step: int, *, max_lr: float, min_lr: float, warmup_steps: int, max_steps: int) -> float:
    """Linear warmup to max_lr over warmup_steps, cosine decay to min_lr at max_steps, then flat.

    Step 0 already gets max_lr / warmup_steps (a zero first step would be wasted);
    step warmup_steps is the peak.
    """
    if step < warmup_steps:
        return max_lr * (step + 1) / warmup_steps
    if step >= max_steps:
        return min_lr
    progress = (step - warmup_steps) / (max_steps - warmup_steps)  # 0 -> 1 over the decay
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * progress)) * (max_lr - min_lr)


def init_model(config: GPTConfig, seed: int, dropout: float = 0.0) -> GPT:
    """The torch GPT with GPT-2's initialisation, taken from the course's numpy_gpt.init_params:
    N(0, 0.02) weights and tables, c_proj scaled by 1/sqrt(2L), biases 0, LayerNorm gains 1.
    (nn.Embedding's own N(0, 1) would make the tied head's logits huge: loss far above ln V.)"""
    params = numpy_gpt.init_params(config, seed=seed, dtype=np.float32)
    model = GPT(config, dropout)
    return model.load_arrays(state_dicts.module_arrays_from_params(params, model.parameter_arrays()))


def make_optimizer(model: torch.nn.Module, cfg: TrainConfig, fused: bool = False) -> torch.optim.AdamW:
    """AdamW; weight decay on 2-D tensors (matrices, embeddings), none on biases and LayerNorms."""
    params = list(model.parameters())  # the tied wte/lm_head tensor appears once
    groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": cfg.weight_decay},
              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg.lr, betas=(cfg.beta1, cfg.beta2), **({"fused": True} if fused else {}))


def _stream_seed(*key: int) -> int:
    return int(np.random.SeedSequence(list(key)).generate_state(1)[0])


def global_batch(ids: np.ndarray, cfg: TrainConfig, step: int, world: int, stream: int = 0):
    """The whole step's batch (world * batch_size windows), the same on every rank."""
    rng = np.random.default_rng([cfg.seed, stream, step])
    return corpus.get_batch(ids, cfg.batch_size * world, cfg.block_size, rng)


def rank_slice(x: np.ndarray, rank: int, batch_size: int) -> np.ndarray:
    return x[rank * batch_size:(rank + 1) * batch_size]


def flops_per_token(config: GPTConfig, n_params: int) -> float:
    """Training FLOPs per token: 6 per weight (forward 2, backward 4) plus attention's
    QK^T and AV in full, 12 L d T: the PaLM paper's convention (Chowdhery et al. 2022,
    appendix B), which nanoGPT's MFU uses; Kaplan et al. 2020 count 6 L d T instead."""
    return 6 * n_params + 12 * config.n_layer * config.n_embd * config.block_size


# Dense bfloat16 peaks per part, from NVIDIA's datasheets (half their "with sparsity" figures).
# An H100 is an SXM module ("NVIDIA H100 80GB HBM3") or a PCIe card ("NVIDIA H100 PCIe"), whose
# peaks differ; any other name (H100 NVL, L40, GH200, ...) gets no MFU unless --peak-tflops says.
PEAK_BF16_TFLOPS = {"H100 SXM": 989.0, "H100 PCIe": 756.0, "H200": 989.0, "A100": 312.0, "L40S": 362.0,
                    "L4": 121.0}
_PART_NAMES = (("H100 SXM", r"\bH100\b.*\b(SXM\d?|HBM3)\b"), ("H100 PCIe", r"\bH100\b.*\bPCIe\b"),
               ("H200", r"\bH200\b(?!.*\bNVL\b)"), ("A100", r"\bA100\b"), ("L40S", r"\bL40S\b"), ("L4", r"\bL4\b"))


def gpu_part(device_name: str) -> str | None:
    """The part in PEAK_BF16_TFLOPS that a CUDA device name (torch.cuda.get_device_name) denotes, or None."""
    return next((part for part, pattern in _PART_NAMES if re.search(pattern, device_name)), None)


# ------------------------------------------------------------------ runtime setup
@dataclass
class Runtime:
    rank: int = 0
    world: int = 1
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))
    autocast: bool = False
    compile: bool = False
    fused: bool = False
    pad_to: int = 1

    @property
    def master(self) -> bool:
        return self.rank == 0

    def amp(self):
        if self.autocast:
            return torch.autocast(self.device.type, dtype=torch.bfloat16)
        return contextlib.nullcontext()


def setup_runtime(cfg: TrainConfig) -> Runtime:
    """Device, dtype and (under torchrun) the process group: gloo on CPU, NCCL on CUDA."""
    cuda = cfg.device == "cuda" or (cfg.device == "auto" and torch.cuda.is_available())
    if cfg.device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda, but torch.cuda.is_available() is False")
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank, local = int(os.environ.get("RANK", "0")), int(os.environ.get("LOCAL_RANK", "0"))
    if world > 1 and not dist.is_initialized():
        dist.init_process_group("nccl" if cuda else "gloo")
    if cuda:
        torch.cuda.set_device(local)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    bf16 = cfg.dtype == "bfloat16" or (cfg.dtype == "auto" and cuda and torch.cuda.is_bf16_supported())
    return Runtime(rank=rank, world=world, device=torch.device(f"cuda:{local}" if cuda else "cpu"),
                   autocast=bf16, compile=cfg.compile == "yes" or (cfg.compile == "auto" and cuda),
                   fused=cuda, pad_to=cfg.pad_vocab_to or (64 if cuda else 1))


def _mean_over_ranks(value: torch.Tensor, rt: Runtime) -> float:
    value = value.detach()
    if rt.world > 1:
        value = value.clone()
        dist.all_reduce(value, op=dist.ReduceOp.SUM)
        value /= rt.world
    return float(value)


@torch.no_grad()
def estimate_loss(model, ids: np.ndarray, cfg: TrainConfig, rt: Runtime, stream: int) -> float:
    """Mean loss over cfg.eval_batches fixed global batches, in eval mode (dropout off), no autograd.

    The batches depend only on (seed, stream, i), so every evaluation of a run sees the same windows
    and N ranks with batch b evaluate exactly what one process with batch N*b does."""
    was_training = model.training
    model.eval()
    total = torch.zeros((), dtype=torch.float64, device=rt.device)
    for i in range(cfg.eval_batches):
        x, y = global_batch(ids, cfg, i, rt.world, stream)
        x, y = (torch.from_numpy(rank_slice(a, rt.rank, cfg.batch_size)).to(rt.device) for a in (x, y))
        with rt.amp():
            _, loss = model(x, y)
        total += loss.double()
    model.train(was_training)
    return _mean_over_ranks(total, rt) / cfg.eval_batches


# ------------------------------------------------------------------ checkpoints
def save_checkpoint(out_dir, model: GPT, optimizer, step: int, cfg: TrainConfig, extra: dict | None = None) -> Path:
    """Write the three checkpoint files; each is written aside and then renamed into place."""
    from safetensors.torch import save_file

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tensors = {name: p.detach().to("cpu", torch.float32).contiguous() for name, p in model.named_parameters()}
    meta = {"step": step, "model_config": model.config.to_dict(), "vocab_size": corpus.VOCAB_SIZE,
            "tokenizer": {"kind": "characters", "alphabet": corpus.ALPHABET, "eot_id": corpus.EOT_ID},
            "train_config": asdict(cfg), **(extra or {})}
    state = {"step": step, "optimizer": optimizer.state_dict(), "model_config": model.config.to_dict()}
    save_file(tensors, out / (WEIGHTS + ".tmp"), metadata={"step": str(step), "format": state_dicts.COURSE_FORMAT})
    torch.save(state, out / (STATE + ".tmp"))
    (out / (META + ".tmp")).write_text(json.dumps(meta, indent=2) + "\n")
    for name in (WEIGHTS, STATE, META):
        os.replace(out / (name + ".tmp"), out / name)
    return out


def _load_weights(model: GPT, path: Path) -> int:
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        step = int(f.metadata().get("step", -1))
        model.load_arrays({k: f.get_tensor(k) for k in f.keys()})
    return step


def load_checkpoint(out_dir, unpad: bool = True) -> tuple[GPT, dict]:
    """The trained model (eval mode, CPU, float32) and its config.json.

    unpad=True drops the rows a padded vocabulary added: with a tied head, the
    logits of the real ids do not depend on them, so the model is exact."""
    out = Path(out_dir)
    if not (out / WEIGHTS).exists():
        raise FileNotFoundError(f"no checkpoint in {out}: expected {WEIGHTS} and {META} (train with --out-dir)")
    meta = json.loads((out / META).read_text())
    model = GPT(GPTConfig(**meta["model_config"]))
    _load_weights(model, out / WEIGHTS)
    V = meta["vocab_size"]
    if unpad and model.config.vocab_size != V:
        arrays = model.parameter_arrays()
        arrays["transformer.wte.weight"] = arrays["transformer.wte.weight"][:V]
        model = GPT(GPTConfig(**{**meta["model_config"], "vocab_size": V})).load_arrays(arrays)
    return model.eval(), meta


def _resume(model: GPT, optimizer, out_dir: Path, rt: Runtime) -> int:
    """Load weights and optimiser state from out_dir; returns the step to continue from."""
    state = torch.load(out_dir / STATE, map_location=rt.device, weights_only=True)
    if state["model_config"] != model.config.to_dict():
        raise ValueError(f"the checkpoint in {out_dir} is a different model: {state['model_config']}, "
                         f"this run builds {model.config.to_dict()}")
    step = _load_weights(model, out_dir / WEIGHTS)
    if step != state["step"]:
        raise ValueError(f"{WEIGHTS} is from step {step} but {STATE} from step {state['step']}: "
                         "a save was interrupted; resume from an earlier copy")
    optimizer.load_state_dict(state["optimizer"])
    return step


# ------------------------------------------------------------------ the loop
@dataclass
class TrainResult:
    model: GPT                                     # the trained module (unwrapped, uncompiled)
    history: list = field(default_factory=list)    # {"step", "loss", "lr", "grad_norm", "tokens_per_s", ...}
    evals: list = field(default_factory=list)      # {"step", "val_loss", "train_loss"}
    out_dir: Path | None = None


def _trim_metrics(path: Path, start: int) -> None:
    """A fresh run starts a fresh file; a resumed one drops the rows an interrupted run logged
    after the checkpoint it resumes from (they are logged again), keeping that step's evaluation."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if start else []
    kept = [r for r in rows if r["step"] < start or (r["step"] == start and "val_loss" in r)]
    path.write_text("".join(json.dumps(r) + "\n" for r in kept))


class _Reporter:
    """Rank 0 writes: a tqdm bar (if installed) or plain lines, and metrics.jsonl."""

    def __init__(self, cfg: TrainConfig, rt: Runtime, start: int, end: int):
        self.on = rt.master and cfg.progress != "none"
        self.metrics = Path(cfg.out_dir) / METRICS if cfg.out_dir and rt.master else None
        if self.metrics and self.metrics.exists():
            _trim_metrics(self.metrics, start)
        self.bar = None
        if self.on and cfg.progress in ("auto", "bar"):
            try:
                from tqdm.auto import tqdm
            except ImportError:
                if cfg.progress == "bar":
                    raise
            else:
                self.bar = tqdm(total=end, initial=start, desc="train", unit="step", dynamic_ncols=True)

    def say(self, msg: str) -> None:
        if self.on:
            (self.bar.write if self.bar else print)(msg, **({} if self.bar else {"flush": True}))

    def record(self, row: dict) -> None:
        if self.metrics:
            self.metrics.parent.mkdir(parents=True, exist_ok=True)
            with self.metrics.open("a") as f:
                f.write(json.dumps(row) + "\n")

    def step(self, row: dict | None) -> None:
        if self.bar:
            self.bar.update(1)
            if row:
                self.bar.set_postfix(loss=f"{row['loss']:.4f}", lr=f"{row['lr']:.2e}")
        elif row:
            extra = f", {row['tokens_per_s']:,.0f} tok/s" if "tokens_per_s" in row else ""
            extra += f", MFU {row['mfu']:.1%}" if "mfu" in row else ""
            self.say(f"step {row['step']:>6}: loss {row['loss']:.4f}, lr {row['lr']:.2e}{extra}")

    def close(self) -> None:
        if self.bar:
            self.bar.close()


def train(cfg: TrainConfig, splits: corpus.Splits | None = None) -> TrainResult:
    """Run (or resume) training; returns the model and the logged losses. Under torchrun, every rank calls this."""
    rt = setup_runtime(cfg)
    splits = splits or corpus.load_splits(cfg.val_fraction)
    config = cfg.model_config(rt.pad_to)
    model = init_model(config, cfg.seed, cfg.dropout).to(rt.device)
    optimizer = make_optimizer(model, cfg, fused=rt.fused)
    out_dir = Path(cfg.out_dir) if cfg.out_dir else None
    start = 0
    if cfg.resume:
        if out_dir is None or not (out_dir / STATE).exists():
            raise FileNotFoundError(f"--resume: no checkpoint in {out_dir} ({STATE} is missing)")
        start = _resume(model, optimizer, out_dir, rt)
    end = cfg.stop_at or cfg.max_steps
    if start > end:
        raise ValueError(f"the checkpoint in {out_dir} is at step {start}, past this run's end {end}: "
                         "raise --max-steps (or --stop-at) to train further")
    forward = torch.compile(model) if rt.compile else model
    stepper = forward
    if rt.world > 1:
        from torch.nn.parallel import DistributedDataParallel as DDP

        stepper = DDP(forward, device_ids=[rt.device.index] if rt.device.type == "cuda" else None)
    n_params = sum(p.numel() for p in model.parameters())
    tokens_per_step = cfg.batch_size * rt.world * cfg.block_size
    fpt = flops_per_token(config, n_params - config.block_size * config.n_embd)
    peak = cfg.peak_tflops
    if peak is None and rt.device.type == "cuda":  # a known part's peak, else no MFU
        peak = PEAK_BF16_TFLOPS.get(gpu_part(torch.cuda.get_device_name(rt.device)))

    report = _Reporter(cfg, rt, start, end)
    result = TrainResult(model=model, out_dir=out_dir)
    report.say(f"{n_params:,} parameters (vocabulary {config.vocab_size}), {rt.world} process(es) on {rt.device}"
               f"{', bfloat16 autocast' if rt.autocast else ''}{', compiled' if rt.compile else ''}; "
               f"{tokens_per_step:,} tokens per step; corpus {splits.fingerprint}: "
               f"{len(splits.train):,} train / {len(splits.val):,} val ids; steps {start} -> {end}")

    def evaluate(step: int) -> None:
        row = {"step": step, "val_loss": estimate_loss(forward, splits.val, cfg, rt, stream=1),
               "train_loss": estimate_loss(forward, splits.train, cfg, rt, stream=2)}
        result.evals.append(row)
        report.record(row)
        report.say(f"step {step:>6}: val loss {row['val_loss']:.4f}, train loss {row['train_loss']:.4f}")
        if out_dir is not None and step > start and rt.master:
            save_checkpoint(out_dir, model, optimizer, step, cfg, {"val_loss": row["val_loss"],
                                                                     "corpus": splits.fingerprint})
        if rt.world > 1:
            dist.barrier()  # nobody resumes/reads a half-written checkpoint

    model.train()
    t0, tokens = time.perf_counter(), 0
    try:
        for step in range(start, end):
            if step % cfg.eval_interval == 0 and step > start or step == 0:
                evaluate(step)
                t0, tokens = time.perf_counter(), 0
            lr = lr_at(step, max_lr=cfg.lr, min_lr=cfg.min_lr, warmup_steps=cfg.warmup_steps, max_steps=cfg.max_steps)
            for group in optimizer.param_groups:
                group["lr"] = lr
            torch.manual_seed(_stream_seed(cfg.seed, 3, rt.rank, step))  # dropout: a function of (seed, rank, step)
            x, y = global_batch(splits.train, cfg, step, rt.world)
            x, y = (torch.from_numpy(rank_slice(a, rt.rank, cfg.batch_size)).to(rt.device, non_blocking=True)
                    for a in (x, y))
            with rt.amp():
                _, loss = stepper(x, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip) if cfg.grad_clip > 0 else None
            optimizer.step()
            tokens += tokens_per_step
            row = None
            if (step + 1) % cfg.log_interval == 0 or step + 1 == end:
                row = {"step": step, "loss": _mean_over_ranks(loss, rt), "lr": lr}
                if norm is not None:
                    row["grad_norm"] = float(norm)
                dt = time.perf_counter() - t0
                row["tokens_per_s"] = tokens / dt
                if peak:
                    row["mfu"] = row["tokens_per_s"] / rt.world * fpt / (peak * 1e12)
                t0, tokens = time.perf_counter(), 0
                result.history.append(row)
                report.record(row)
            report.step(row)
        evaluate(end)
        if cfg.sample_chars and rt.master:
            from .sampling import sample_torch

            prompt = torch.tensor([corpus.EOT_ID], device=rt.device)[None]
            ids = sample_torch(model, prompt, cfg.sample_chars, temperature=0.8, top_k=20,
                               generator=torch.Generator(rt.device).manual_seed(cfg.seed), vocab_size=corpus.VOCAB_SIZE)
            report.say("sample (temperature 0.8, top-k 20):\n" + corpus.decode(ids[0, 1:].cpu()))
    finally:
        report.close()
    return result


# ------------------------------------------------------------------ command line
def _flag_type(annotation: str):
    base = annotation.replace(" | None", "")
    convert = {"int": int, "float": float, "str": str}[base]
    if "None" in annotation:
        return lambda s: None if s.lower() in ("none", "null") else convert(s)
    return convert


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m gpt2course.train",
        description="Train the course's GPT on the standard library's docstrings (lesson 08). "
                    "Also runs under `torchrun --nproc_per_node=N -m gpt2course.train ...` (DDP).",
        epilog="Precedence: defaults < --config JSON file < flags.")
    p.add_argument("--config", metavar="JSON", help="a JSON file of {field: value} using the names below "
                                                    "with underscores (e.g. {\"max_steps\": 500})")
    for f in fields(TrainConfig):
        flag = "--" + f.name.replace("_", "-")
        if f.type == "bool":
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS,
                           help=f"(default: {f.default})")
        else:
            p.add_argument(flag, type=_flag_type(f.type), default=argparse.SUPPRESS, metavar=f.type.split()[0].upper(),
                           help=f"(default: {f.default})")
    return p


def parse_config(argv=None) -> TrainConfig:
    parser = build_parser()
    args = vars(parser.parse_args(argv))
    values = {}
    path = args.pop("config", None)
    if path:
        values = json.loads(Path(path).read_text())
        unknown = sorted(set(values) - {f.name for f in fields(TrainConfig)})
        if unknown:
            raise SystemExit(f"{path}: unknown key(s) {unknown}; known: {[f.name for f in fields(TrainConfig)]}")
    try:
        return TrainConfig(**(values | args))
    except (TypeError, ValueError) as e:
        parser.error(str(e))


def main(argv=None) -> int:
    cfg = parse_config(argv)
    try:
        train(cfg)
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
