#!/usr/bin/env python3
"""Generate a deterministic corpus of realistic nnsight intervention files.

    gen_corpus.py --out DIR [--bytes N] [--seed S] [--manifest FILE]

Writes Python files into DIR until they total at least N bytes (default
1.5 MB). Each file is 5-40 KB and reads like a researcher's script: module
docstring, imports, constants, a config dataclass, tensor helpers (some
nested, some recursive, some decorated), data loading, plotting and
argparse code, and 1-5 trace blocks (`model.trace`, `model.generate`,
`model.session`) with 1-4 invokes, over GPT-2, GPT-J, Llama, Mistral, Qwen,
Gemma, Pythia and OPT module paths.

About 7.5% of mediators get one construct that should make them ISOLATE
(a while loop, json.dumps, try/except, a class statement, a call into
transformers) and about 1% one that should make them REJECT (an import of
os, getattr with a dunder, a type-hierarchy walk, a frame walk, eval, open,
__import__). `--manifest FILE` writes, for every file, its traces and the
tier each mediator was generated to have.

The output depends only on the arguments: every file has its own
random.Random seeded with a string (hashed with SHA-512 by the random
module, so PYTHONHASHSEED does not matter), nothing iterates a set, and
nothing reads the clock. File k is the same whatever --bytes is, so a
smaller corpus is a prefix of a larger one. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass, field

DEFAULT_BYTES = 1_500_000
MIN_FILE_BYTES = 5 * 1024
MAX_FILE_BYTES = 40 * 1024
RATE_REJECT = 0.01
RATE_ISOLATE = 0.075
TIER_ORDER = {"fast": 0, "isolate": 1, "reject": 2}


# ----------------------------------------------------------------------------
# Model families: module paths as nnsight exposes them for each architecture.
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    key: str
    hf_id: str
    layers: str      # the ModuleList of blocks
    n_layers: int
    d_model: int
    n_heads: int
    attn: str        # attention submodule of a block
    mlp: str         # MLP submodule (or its output projection) of a block
    attn_out: str    # attention output projection, whose input is the heads
    norm: str        # final norm before the unembedding
    head: str        # unembedding
    embed: str


FAMILIES = [
    Family("gpt2", "openai-community/gpt2", "transformer.h", 12, 768, 12,
           "attn", "mlp", "attn.c_proj", "transformer.ln_f", "lm_head", "transformer.wte"),
    Family("gpt2_medium", "openai-community/gpt2-medium", "transformer.h", 24, 1024, 16,
           "attn", "mlp", "attn.c_proj", "transformer.ln_f", "lm_head", "transformer.wte"),
    Family("gptj", "EleutherAI/gpt-j-6b", "transformer.h", 28, 4096, 16,
           "attn", "mlp", "attn.out_proj", "transformer.ln_f", "lm_head", "transformer.wte"),
    Family("llama", "meta-llama/Llama-3.1-8B", "model.layers", 32, 4096, 32,
           "self_attn", "mlp", "self_attn.o_proj", "model.norm", "lm_head", "model.embed_tokens"),
    Family("llama_small", "meta-llama/Llama-3.2-1B", "model.layers", 16, 2048, 32,
           "self_attn", "mlp", "self_attn.o_proj", "model.norm", "lm_head", "model.embed_tokens"),
    Family("mistral", "mistralai/Mistral-7B-v0.1", "model.layers", 32, 4096, 32,
           "self_attn", "mlp", "self_attn.o_proj", "model.norm", "lm_head", "model.embed_tokens"),
    Family("qwen", "Qwen/Qwen2.5-1.5B", "model.layers", 28, 1536, 12,
           "self_attn", "mlp", "self_attn.o_proj", "model.norm", "lm_head", "model.embed_tokens"),
    Family("gemma", "google/gemma-2-2b", "model.layers", 26, 2304, 8,
           "self_attn", "mlp", "self_attn.o_proj", "model.norm", "lm_head", "model.embed_tokens"),
    Family("pythia", "EleutherAI/pythia-410m", "gpt_neox.layers", 24, 1024, 16,
           "attention", "mlp", "attention.dense", "gpt_neox.final_layer_norm", "embed_out",
           "gpt_neox.embed_in"),
    Family("opt", "facebook/opt-1.3b", "model.decoder.layers", 24, 2048, 32,
           "self_attn", "fc2", "self_attn.out_proj", "model.decoder.final_layer_norm", "lm_head",
           "model.decoder.embed_tokens"),
]

TASKS = {
    "factual": [
        "The Eiffel Tower is located in the city of",
        "The capital of Japan is",
        "Michael Jordan played the sport of",
        "The Colosseum can be found in",
        "The official language of Brazil is",
        "The Great Wall is located in",
        "Mount Kilimanjaro is in the country of",
        "The currency of the United Kingdom is the",
    ],
    "ioi": [
        "When John and Mary went to the store, Mary gave a bottle of milk to",
        "When Tom and James went to the park, James gave a ball to",
        "After Alice and Bob had lunch, Bob handed the bill to",
        "While Sarah and Dan were at the office, Dan sent an email to",
        "Then, Kate and Paul had a long argument, and afterwards Paul said to",
    ],
    "sentiment": [
        "I absolutely loved this movie, it was",
        "The service was terrible and the food was",
        "What a wonderful surprise, I feel",
        "This product broke after one day, I am",
        "The concert last night was",
    ],
    "greater_than": [
        "The war lasted from the year 1732 to the year 17",
        "The contract ran from 1845 to 18",
        "She lived there from 1961 to 19",
        "The bridge was built between 1806 and 18",
    ],
    "code": [
        "def fibonacci(n):\n    if n <",
        "for i in range(10):\n    print(",
        "import numpy as np\narr = np.",
    ],
}

ANSWERS = [" Paris", " Tokyo", " basketball", " Rome", " Portuguese", " China", " Tanzania",
           " pound", " Mary", " James", " happy", " terrible"]

PURPOSES = [
    ("logit_lens", "Logit lens over {fam} on {task} prompts",
     "Decodes each block's residual stream through the final norm and the unembedding to see\n"
     "at which depth the answer becomes linearly readable."),
    ("steering", "Activation steering for {fam}",
     "Adds a contrastive direction to the residual stream and measures how generations and\n"
     "next-token distributions move as the coefficient grows."),
    ("ablation", "Component ablations on {task} prompts ({fam})",
     "Zero- and mean-ablates attention and MLP outputs layer by layer and records the drop in\n"
     "the correct answer's probability."),
    ("patching", "Activation patching between clean and corrupted {task} prompts",
     "Copies activations from the clean run into the corrupted run, one layer and position at\n"
     "a time, to localise where the task-relevant information flows ({fam})."),
    ("attribution", "Attribution patching with gradients ({fam})",
     "Approximates a full patching sweep with one forward and one backward pass per prompt\n"
     "pair, using activation differences times gradients."),
    ("probing", "Linear probes on cached residual streams ({fam}, {task})",
     "Caches residual-stream activations for a dataset, then fits and evaluates simple probes\n"
     "offline."),
    ("generation", "Interventions during generation with {fam}",
     "Applies step-dependent interventions while the model generates and logs the tokens and\n"
     "per-step statistics."),
    ("heads", "Attention head importance for {task} ({fam})",
     "Ablates single heads through the input of the attention output projection and ranks\n"
     "heads by their effect."),
]

STYLES = ["module", "function", "method"]


# ----------------------------------------------------------------------------
# Output blocks: lines plus the trace regions they contain.
# ----------------------------------------------------------------------------

@dataclass
class Mediator:
    kind: str          # "invoke" or "body"
    tier: str          # the tier this mediator was generated to have
    injected: str = ""  # what was injected, if anything


@dataclass
class TraceRec:
    """One trace region; its line is found in the finished text (locate_traces)."""

    method: str
    mediators: list = field(default_factory=list)
    children: list = field(default_factory=list)


@dataclass
class Block:
    lines: list = field(default_factory=list)
    traces: list = field(default_factory=list)   # top-level TraceRec, children nested
    result: str = ""                              # the main value a run returns

    def add(self, text: str, indent: int = 0) -> None:
        pad = "    " * indent
        for line in text.split("\n"):
            self.lines.append(pad + line if line else "")

    def extend(self, other: "Block", indent: int = 0) -> None:
        pad = "    " * indent
        for line in other.lines:
            self.lines.append(pad + line if line else "")
        self.traces.extend(other.traces)

    def size(self) -> int:
        return sum(len(line.encode("utf-8")) + 1 for line in self.lines)


def pystr(value) -> str:
    """A Python literal for an ASCII string (or list of them), double-quoted like black."""
    return json.dumps(value)


# ----------------------------------------------------------------------------
# Per-file context.
# ----------------------------------------------------------------------------

class Ctx:
    def __init__(self, rng: random.Random, fam: Family, task: str):
        self.rng = rng
        self.fam = fam
        self.task = task
        self.imports = []            # ordered, unique import lines
        self.receiver = "model"
        self.helpers = {}            # role -> function name defined in this file
        self.used_names = set()
        self.constants = []          # (name, value source)

    # -- small utilities -----------------------------------------------------
    def need(self, line: str) -> None:
        if line not in self.imports:
            self.imports.append(line)

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def fresh(self, base: str) -> str:
        name, k = base, 2
        while name in self.used_names:
            name = f"{base}_{k}"
            k += 1
        self.used_names.add(name)
        return name

    def layer(self, i) -> str:
        return f"{self.receiver}.{self.fam.layers}[{i}]"

    def head(self) -> str:
        return f"{self.receiver}.{self.fam.head}"

    def layer_indices(self, k: int):
        n = self.fam.n_layers
        return sorted(self.rng.sample(range(n), min(k, n)))

    def coef(self) -> str:
        return self.pick(["0.5", "1.0", "2.0", "4.0", "6.0", "8.0", "-2.0", "-4.0", "12.0"])


# ----------------------------------------------------------------------------
# Injected constructs: ISOLATE-worthy and REJECT-worthy statements.
# ----------------------------------------------------------------------------

def isolate_snippet(ctx: Ctx, i: int):
    kind = ctx.pick(["while", "json", "try", "class", "tokenizer"])
    L = ctx.layer(i)
    if kind == "while":
        v = ctx.fresh("probe_norm")
        return kind, [
            f"{v} = {L}.output[0].norm()",
            "halvings = 0",
            f"while {v} > {ctx.rng.choice([10, 50, 100, 500])} and halvings < 8:",
            f"    {v} = {v} / 2",
            "    halvings += 1",
        ]
    if kind == "json":
        ctx.need("import json")
        v = ctx.fresh("meta")
        return kind, [
            f'{v} = json.dumps({{"layer": {i}, "seq_len": int({L}.output[0].shape[1])}}).save()',
        ]
    if kind == "try":
        v = ctx.fresh("layer_norms")
        return kind, [
            "try:",
            f"    {v} = {L}.output[0].norm(dim=-1).save()",
            "except (RuntimeError, IndexError):",
            f"    {v} = None",
        ]
    if kind == "class":
        c = ctx.fresh("Accumulator")
        return kind, [
            f"class {c}:",
            "    total = 0.0",
            "",
            f"{c}.total = {c}.total + {L}.output[0].mean()",
        ]
    ctx.need("from transformers import AutoTokenizer")
    v = ctx.fresh("helper_tok")
    return kind, [
        f'{v} = AutoTokenizer.from_pretrained("{ctx.fam.hf_id}")',
        f'answer_ids = {v}.encode("{ctx.pick(ANSWERS)}")',
    ]


def reject_snippet(ctx: Ctx, i: int):
    kind = ctx.pick(["import_os", "getattr_dunder", "subclasses", "frame", "eval", "open",
                     "dunder_import"])
    L = ctx.layer(i)
    if kind == "import_os":
        return kind, ["import os", "", 'cache_dir = os.environ.get("HF_HOME", "")']
    if kind == "getattr_dunder":
        return kind, [f'act_type = getattr({L}.output[0], "__class__")']
    if kind == "subclasses":
        return kind, ["loaded = ().__class__.__base__.__subclasses__()"]
    if kind == "frame":
        return kind, ["probe_gen = (x for x in [0])", "outer = probe_gen.gi_frame.f_back.f_globals"]
    if kind == "eval":
        return kind, ['scale = eval("0.5 * 2")']
    if kind == "open":
        return kind, ['host = open("/etc/hostname").read()']
    return kind, ['sp = __import__("subprocess")']


def finish_mediator(ctx: Ctx, body, i: int, kind: str = "body", allow_inject: bool = True):
    """Possibly inject a construct at the start of `body`; return (lines, Mediator)."""
    tier, what = "fast", ""
    if allow_inject:
        r = ctx.rng.random()
        if r < RATE_REJECT:
            what, snippet = reject_snippet(ctx, i)
            tier = "reject"
        elif r < RATE_REJECT + RATE_ISOLATE:
            what, snippet = isolate_snippet(ctx, i)
            tier = "isolate"
        if what:
            body = snippet + body
    return body, Mediator(kind, tier, what)


# ----------------------------------------------------------------------------
# Tensor helpers: plain functions that traces call (FAST-clean).
# ----------------------------------------------------------------------------

def helper(ctx: Ctx, role: str) -> str:
    """Name of the helper for `role`, defining it on first use."""
    if role in ctx.helpers:
        return ctx.helpers[role]
    names = {
        "normalize": ["normalize", "unit", "to_unit", "l2_normalize"],
        "project_out": ["project_out", "remove_direction", "ablate_direction"],
        "logit_diff": ["logit_diff", "logit_difference", "answer_margin"],
        "kl": ["kl_divergence", "kl_from_logits"],
        "scale": ["make_scaler", "scaler_factory", "build_scale_fn"],
        "clamp": ["make_clamp", "clamp_factory"],
        "mean_pool": ["mean_over_positions", "pool_positions"],
        "cosine": ["cosine_similarity", "cos_sim"],
    }[role]
    name = ctx.fresh(ctx.pick(names))
    ctx.helpers[role] = name
    return name


def helper_source(ctx: Ctx, role: str, name: str) -> str:
    rng = ctx.rng
    if role == "normalize":
        return (f'def {name}(x, eps=1e-6):\n'
                f'    """Scale `x` to unit L2 norm along the last dimension."""\n'
                f'    return x / (x.norm(dim=-1, keepdim=True) + eps)\n')
    if role == "project_out":
        return (f'def {name}(hidden, direction):\n'
                f'    """Remove the component of `hidden` along `direction`."""\n'
                f'    unit = direction / direction.norm()\n'
                f'    coeff = (hidden * unit).sum(dim=-1, keepdim=True)\n'
                f'    return hidden - coeff * unit\n')
    if role == "logit_diff":
        return (f'def {name}(logits, correct, incorrect):\n'
                f'    """Final-position logit of the correct answer minus the incorrect one."""\n'
                f'    last = logits[:, -1, :]\n'
                f'    return (last[:, correct] - last[:, incorrect]).mean()\n')
    if role == "kl":
        return (f'def {name}(p_logits, q_logits):\n'
                f'    p = p_logits.log_softmax(dim=-1)\n'
                f'    q = q_logits.log_softmax(dim=-1)\n'
                f'    return (p.exp() * (p - q)).sum(dim=-1).mean()\n')
    if role == "scale":
        return (f'def {name}(alpha):\n'
                f'    """Return a function that multiplies its input by `alpha`."""\n'
                f'    def scale(x):\n'
                f'        return x * alpha\n'
                f'\n'
                f'    return scale\n')
    if role == "clamp":
        lo = rng.choice([10, 20, 50])
        return (f'def {name}(low=-{lo}.0, high={lo}.0):\n'
                f'    def clamp(x):\n'
                f'        return x.clamp(min=low, max=high)\n'
                f'\n'
                f'    return clamp\n')
    if role == "mean_pool":
        return (f'def {name}(hidden, keepdim=False):\n'
                f'    # hidden: (batch, seq, d_model)\n'
                f'    return hidden.mean(dim=1, keepdim=keepdim)\n')
    if role == "cosine":
        return (f'def {name}(a, b):\n'
                f'    return (a * b).sum(dim=-1) / (a.norm(dim=-1) * b.norm(dim=-1))\n')
    raise KeyError(role)


# ----------------------------------------------------------------------------
# Trace templates. Each returns a Block at indent 0; `ctx.receiver` is the
# expression the trace is called on (model, lm, self.model).
# ----------------------------------------------------------------------------

def trace_header(ctx: Ctx, method: str, args: str, tracer: str | None) -> str:
    extra = []
    r = ctx.rng.random()
    if method == "trace" and r < 0.08:
        extra.append("remote=REMOTE")
        ctx.constants.append(("REMOTE", "False"))
    elif method == "trace" and r < 0.14:
        extra += ["scan=False", "validate=False"]
    call_args = ", ".join(a for a in [args] + extra if a)
    alias = f" as {tracer}" if tracer else ""
    return f"with {ctx.receiver}.{method}({call_args}){alias}:"


def tracer_name(ctx: Ctx, required: bool) -> str | None:
    if not required and ctx.rng.random() < 0.25:
        return None
    return ctx.pick(["tracer", "tracer", "tracer", "tr", "t"])


def t_logit_lens(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    fam = ctx.fam
    tr = tracer_name(ctx, False)
    out = ctx.fresh("lens_probs")
    b.add(f"{out} = []")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr))
    body = []
    if ctx.rng.random() < 0.5:
        body += [f"for layer in {ctx.receiver}.{fam.layers}:",
                 f"    resid = layer.output[0]",
                 f"    logits = {ctx.head()}({ctx.receiver}.{fam.norm}(resid))",
                 f"    {out}.append(logits[0, -1].softmax(dim=-1).save())"]
    else:
        step = ctx.pick([1, 2, 4])
        body += [f"for i in range(0, {fam.n_layers}, {step}):",
                 f"    resid = {ctx.receiver}.{fam.layers}[i].output[0]",
                 f"    decoded = {ctx.head()}({ctx.receiver}.{fam.norm}(resid[:, -1, :]))",
                 f"    {out}.append(decoded.log_softmax(dim=-1).save())"]
    body, m = finish_mediator(ctx, body, 0)
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = out
    return b


def t_steering(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    i = ctx.rng.randrange(1, ctx.fam.n_layers - 1)
    tr = tracer_name(ctx, False)
    vec = ctx.fresh("steer_vec")
    b.add(f"{vec} = torch.randn({ctx.fam.d_model}) * {ctx.coef()}")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr))
    L = ctx.layer(i)
    style = ctx.rng.randrange(3)
    if style == 0:
        body = [f"{L}.output[0][:, -1, :] += {vec}"]
    elif style == 1:
        h = helper(ctx, "normalize")
        body = [f"hidden = {L}.output[0]",
                f"{L}.output[0][:] = hidden + {ctx.coef()} * {h}({vec})"]
    else:
        s = helper(ctx, "scale")
        body = [f"boost = {s}({ctx.coef()})",
                f"hidden = {L}.output[0]",
                f"hidden[:, -1] += boost({vec})"]
    saved = ctx.fresh("steered_logits")
    body.append(f"{saved} = {ctx.head()}.output[0, -1].save()")
    body, m = finish_mediator(ctx, body, max(0, i - 1))
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = saved
    return b


def t_ablation_sweep(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    fam = ctx.fam
    layers = ctx.layer_indices(ctx.rng.randrange(3, 7))
    res = ctx.fresh("ablation_effect")
    tr = tracer_name(ctx, False)
    b.add(f"{res} = {{}}")
    b.add(f"for layer_idx in {layers}:")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr), 1)
    target = ctx.pick([fam.mlp, fam.attn])
    path = f"{ctx.receiver}.{fam.layers}[layer_idx].{target}"
    if target == fam.attn:
        mode = ctx.pick(["zero", "mean"])
        body = ([f"{path}.output[0][:] = 0"] if mode == "zero" else
                [f"attn_out = {path}.output[0]",
                 f"{path}.output[0][:] = attn_out.mean(dim=1, keepdim=True)"])
    else:
        mode = ctx.pick(["zero", "mean", "scale"])
        body = ([f"{path}.output[:] = 0"] if mode == "zero" else
                [f"{path}.output[:] = {path}.output.mean(dim=1, keepdim=True)"] if mode == "mean" else
                [f"{path}.output[:] *= {ctx.pick(['0.0', '0.1', '0.5'])}"])
    body.append(f"probs = {ctx.head()}.output[0, -1].softmax(dim=-1).save()")
    body, m = finish_mediator(ctx, body, layers[0])
    b.add("\n".join(body), 2)
    t.mediators.append(m)
    b.add(f"{res}[layer_idx] = probs.max().item()", 1)
    b.traces.append(t)
    b.result = res
    return b


def t_patching(ctx: Ctx, clean: str, corrupt: str) -> Block:
    b = Block()
    i = ctx.rng.randrange(ctx.fam.n_layers)
    tr = tracer_name(ctx, True)
    L = ctx.layer(i)
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", "", tr))
    use_barrier = ctx.rng.random() < 0.5
    if use_barrier:
        b.add(f"barrier = {tr}.barrier(2)", 1)
    pos = ctx.pick(["-1", "-2", "5", "slice(None)"])
    idx = f"[:, {pos}, :]" if pos != "slice(None)" else "[:]"
    body1 = [f"clean_act = {L}.output[0]{idx}"]
    if use_barrier:
        body1.append("barrier()")
    else:
        body1[0] += ".save()"
    body1, m1 = finish_mediator(ctx, body1, i, "invoke")
    b.add(f"with {tr}.invoke({clean}):", 1)
    b.add("\n".join(body1), 2)
    body2 = (["barrier()"] if use_barrier else []) + [f"{L}.output[0]{idx} = clean_act"]
    if ctx.rng.random() < 0.5:
        ld = helper(ctx, "logit_diff")
        body2.append(f"patched = {ld}({ctx.head()}.output, CORRECT_ID, WRONG_ID).save()")
        ctx.constants.append(("CORRECT_ID", str(ctx.rng.randrange(200, 50000))))
        ctx.constants.append(("WRONG_ID", str(ctx.rng.randrange(200, 50000))))
    else:
        body2.append(f"patched = {ctx.head()}.output[0, -1].log_softmax(dim=-1).save()")
    body2, m2 = finish_mediator(ctx, body2, i, "invoke")
    b.add("")
    b.add(f"with {tr}.invoke({corrupt}):", 1)
    b.add("\n".join(body2), 2)
    t.mediators += [m1, m2]
    if use_barrier:
        t.mediators.append(Mediator("body", "fast"))
    b.traces.append(t)
    b.result = "patched"
    return b


def t_batch_invokes(ctx: Ctx, prompts) -> Block:
    b = Block()
    tr = tracer_name(ctx, True)
    n = ctx.rng.randrange(2, 5)
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", "", tr))
    outs = []
    for k in range(n):
        i = ctx.rng.randrange(ctx.fam.n_layers)
        v = ctx.fresh(f"resid_{k}")
        outs.append(v)
        body = [f"{v} = {ctx.layer(i)}.output[0][:, -1, :].save()"]
        if ctx.rng.random() < 0.4:
            body.insert(0, f"{ctx.layer(i)}.{ctx.fam.mlp}.output[:] *= {ctx.pick(['0.0', '0.5', '2.0'])}")
        if ctx.rng.random() < 0.5:
            body.append(f"{v}_logits = {ctx.head()}.output[:, -1].save()")
        body, m = finish_mediator(ctx, body, i, "invoke")
        if k:
            b.add("")
        b.add(f"with {tr}.invoke({pystr(ctx.pick(prompts))}):", 1)
        b.add("\n".join(body), 2)
        t.mediators.append(m)
    b.traces.append(t)
    b.result = "(" + ", ".join(outs) + ",)"
    return b


def t_attribution(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    fam = ctx.fam
    tr = tracer_name(ctx, False)
    layers = ctx.layer_indices(ctx.rng.randrange(2, 6))
    acts, grads = ctx.fresh("acts"), ctx.fresh("grads")
    b.add(f"{acts}, {grads} = {{}}, {{}}")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr))
    if ctx.rng.random() < 0.5:
        body = [f"for i in {layers}:",
                f"    hidden = {ctx.receiver}.{fam.layers}[i].output[0]",
                f"    {acts}[i] = hidden.save()",
                f"    {grads}[i] = hidden.grad.save()",
                f"logits = {ctx.head()}.output",
                f"metric = logits[0, -1].log_softmax(dim=-1).max()",
                f"metric.backward()"]
    else:
        body = [f"hiddens = [{ctx.receiver}.{fam.layers}[i].output[0] for i in {layers}]",
                f"logits = {ctx.head()}.output",
                f"metric = logits[0, -1, ANSWER_ID] - logits[0, -1].mean()",
                f"with metric.backward():",
                f"    for i, hidden in reversed(list(zip({layers}, hiddens))):",
                f"        {grads}[i] = hidden.grad.save()",
                f"        {acts}[i] = hidden.save()"]
        ctx.constants.append(("ANSWER_ID", str(ctx.rng.randrange(200, 50000))))
    body, m = finish_mediator(ctx, body, layers[0])
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.add(f"scores = {{i: ({acts}[i] * {grads}[i]).sum().item() for i in {acts}}}")
    b.result = "scores"
    return b


def t_generate(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    tr = tracer_name(ctx, True)
    n_new = ctx.rng.randrange(3, 25)
    i = ctx.rng.randrange(ctx.fam.n_layers)
    L = ctx.layer(i)
    toks = ctx.fresh("generated")
    t = TraceRec("generate")
    form = ctx.pick(["with_iter", "for_iter", "next_all", "all"])
    if form == "for_iter":
        b.add(f"{toks}_steps = []")
    b.add(trace_header(ctx, "generate", f"{prompt}, max_new_tokens={n_new}", tr))
    if form == "with_iter":
        k = ctx.rng.randrange(1, min(n_new, 6) + 1)
        body = [f"with {tr}.iter[0:{k}]:",
                f"    {L}.output[0][:, -1, :] *= {ctx.pick(['0.0', '0.5', '1.5'])}",
                f"{toks} = {ctx.receiver}.generator.output.save()"]
    elif form == "for_iter":
        body = [f"for step in {tr}.iter[0:{n_new}]:",
                f"    if step < {ctx.rng.randrange(1, n_new + 1)}:",
                f"        {L}.output[0][:, -1, :] += {ctx.coef()}",
                f"    {toks}_steps.append({ctx.head()}.output[0, -1].argmax(dim=-1).save())",
                f"{toks} = {ctx.receiver}.generator.output.save()"]
    elif form == "next_all":
        body = [f"first = {ctx.head()}.output[0, -1].save()",
                f"second = {ctx.head()}.next().output[0, -1].save()",
                f"{toks} = {ctx.receiver}.generator.output.save()"]
    else:
        # tracer.all() is unbounded: nothing after it would run, so it comes last.
        body = [f"{toks} = []",
                f"with {tr}.all():",
                f"    {L}.output[0][:] = {L}.output[0].clamp({-ctx.rng.choice([20, 50])}, {ctx.rng.choice([20, 50])})",
                f"    {toks}.append({ctx.head()}.output[0, -1].argmax(dim=-1).save())"]
    body, m = finish_mediator(ctx, body, i)
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = toks
    return b


def t_session(ctx: Ctx, pos_prompts, neg_prompts, test_prompt: str) -> Block:
    b = Block()
    i = ctx.rng.randrange(1, ctx.fam.n_layers - 1)
    L = ctx.layer(i)
    sess = TraceRec("session")
    b.add(f"with {ctx.receiver}.session() as session:")
    inner_tiers = []
    k = ctx.rng.randrange(2, 4)
    prompt_sets = [(pystr(pos_prompts), "pos_mean"), (pystr(neg_prompts), "neg_mean")]
    for j in range(min(k, 2)):
        args, var = prompt_sets[j]
        tr = tracer_name(ctx, False)
        t = TraceRec("trace")
        b.add(trace_header(ctx, "trace", args, tr), 1)
        body = [f"{var} = {L}.output[0][:, -1, :].mean(dim=0)"]
        body, m = finish_mediator(ctx, body, i)
        b.add("\n".join(body), 2)
        t.mediators.append(m)
        inner_tiers.append(m.tier)
        sess.children.append(t)
    b.add("direction = pos_mean - neg_mean", 1)
    b.add("direction = direction / direction.norm()", 1)
    if k == 3:
        tr = tracer_name(ctx, False)
        t = TraceRec("trace")
        b.add(trace_header(ctx, "trace", test_prompt, tr), 1)
        body = [f"{L}.output[0][:, -1, :] += {ctx.coef()} * direction",
                f"steered = {ctx.head()}.output[0, -1].argmax(dim=-1).save()"]
        body, m = finish_mediator(ctx, body, i)
        b.add("\n".join(body), 2)
        t.mediators.append(m)
        inner_tiers.append(m.tier)
        sess.children.append(t)
    b.add("saved_direction = direction.save()", 1)
    # The session body contains the inner traces' code: its tier is their maximum.
    top = max(inner_tiers, key=TIER_ORDER.__getitem__)
    sess.mediators.append(Mediator("body", top, "inner traces" if top != "fast" else ""))
    b.traces.append(sess)
    b.result = "saved_direction"
    return b


def t_cache(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    tr = tracer_name(ctx, True)
    layers = ctx.layer_indices(ctx.rng.randrange(2, 5))
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr))
    c = ctx.fresh("act_cache")
    body = [f"{c} = {tr}.cache(modules=[{ctx.receiver}.{ctx.fam.layers}[i] for i in {layers}])",
            f"final = {ctx.head()}.output[0, -1].save()"]
    body, m = finish_mediator(ctx, body, layers[0])
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = c
    return b


def t_probe_collect(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    tr = tracer_name(ctx, True)
    lo = ctx.rng.randrange(0, ctx.fam.n_layers // 2)
    hi = ctx.rng.randrange(lo + 1, ctx.fam.n_layers + 1)
    store = ctx.fresh("features")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr))
    body = [f"{store} = {{",
            f'    f"layer_{{i:02d}}": {ctx.receiver}.{ctx.fam.layers}[i].output[0][:, -1, :].save()',
            f"    for i in range({lo}, {hi})",
            "}"]
    if ctx.rng.random() < 0.4:
        body.append(f"{tr}.log({ctx.layer(hi - 1)}.output[0].norm())")
    if ctx.rng.random() < 0.5:
        body.append(f"{tr}.stop()")
    body, m = finish_mediator(ctx, body, lo)
    b.add("\n".join(body), 1)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = store
    return b


def t_heads(ctx: Ctx, prompt: str) -> Block:
    b = Block()
    fam = ctx.fam
    i = ctx.rng.randrange(fam.n_layers)
    head_dim = fam.d_model // fam.n_heads
    res = ctx.fresh("head_scores")
    tr = tracer_name(ctx, False)
    b.add(f"{res} = []")
    b.add(f"for head in range({fam.n_heads}):")
    b.add(f"    start, stop = head * {head_dim}, (head + 1) * {head_dim}")
    t = TraceRec("trace")
    b.add(trace_header(ctx, "trace", prompt, tr), 1)
    body = [f"{ctx.layer(i)}.{fam.attn_out}.input[:, :, start:stop] = 0",
            f"{res}.append({ctx.head()}.output[0, -1].log_softmax(dim=-1).max().save())"]
    body, m = finish_mediator(ctx, body, i)
    b.add("\n".join(body), 2)
    t.mediators.append(m)
    b.traces.append(t)
    b.result = res
    return b


TEMPLATES = {
    "logit_lens": [t_logit_lens, t_probe_collect, t_cache],
    "steering": [t_steering, t_generate, t_session],
    "ablation": [t_ablation_sweep, t_batch_invokes, t_logit_lens],
    "patching": [t_patching, t_batch_invokes, t_ablation_sweep],
    "attribution": [t_attribution, t_patching, t_logit_lens],
    "probing": [t_probe_collect, t_cache, t_batch_invokes],
    "generation": [t_generate, t_steering, t_session],
    "heads": [t_heads, t_ablation_sweep, t_patching],
}
ALL_TEMPLATES = [t_logit_lens, t_steering, t_ablation_sweep, t_patching, t_batch_invokes,
                 t_attribution, t_generate, t_session, t_cache, t_probe_collect, t_heads]


def make_trace(ctx: Ctx, purpose: str, prompt_const: str) -> Block:
    rng = ctx.rng
    pool = TEMPLATES[purpose] if rng.random() < 0.7 else ALL_TEMPLATES
    fn = pool[rng.randrange(len(pool))]
    prompts = TASKS[ctx.task]
    prompt = prompt_const if rng.random() < 0.5 else pystr(rng.choice(prompts))
    if fn is t_patching:
        return fn(ctx, pystr(rng.choice(prompts)), pystr(rng.choice(prompts)))
    if fn is t_batch_invokes:
        return fn(ctx, prompts)
    if fn is t_session:
        return fn(ctx, rng.sample(TASKS["sentiment"], 2), rng.sample(TASKS["sentiment"], 2),
                  pystr(rng.choice(prompts)))
    return fn(ctx, prompt)


# ----------------------------------------------------------------------------
# Ordinary, non-trace Python: the bulk of a research script.
# ----------------------------------------------------------------------------

def sec_config(ctx: Ctx) -> str:
    ctx.need("from dataclasses import dataclass, field")
    name = ctx.fresh(ctx.pick(["ExperimentConfig", "RunConfig", "SweepConfig", "PatchingConfig"]))
    fam = ctx.fam
    layers = ctx.layer_indices(4)
    return f'''@dataclass
class {name}:
    """Settings for one run; defaults reproduce the numbers in the write-up."""

    model_name: str = "{fam.hf_id}"
    layers: list = field(default_factory=lambda: {layers})
    batch_size: int = {ctx.pick([4, 8, 16, 32])}
    seed: int = {ctx.rng.randrange(10000)}
    coefficient: float = {ctx.coef()}
    output_dir: str = "results/{ctx.task}"
    remote: bool = False

    def __post_init__(self):
        if self.batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.layers = sorted(set(self.layers))

    def describe(self):
        return f"{{self.model_name}} layers={{self.layers}} bs={{self.batch_size}}"
'''


def sec_load_csv(ctx: Ctx) -> str:
    ctx.need("import csv")
    name = ctx.fresh(ctx.pick(["load_prompts", "read_dataset", "load_pairs"]))
    return f'''def {name}(path, limit=None):
    """Read (prompt, answer) rows from a CSV file with a header line."""
    rows = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            prompt = row["prompt"].strip()
            if not prompt:
                continue
            rows.append((prompt, row.get("answer", "").strip()))
            if limit is not None and len(rows) >= limit:
                break
    return rows
'''


def sec_load_jsonl(ctx: Ctx) -> str:
    ctx.need("import json")
    name = ctx.fresh("load_jsonl")
    return f'''def {name}(path):
    """One JSON object per line; blank lines and comments (#) are skipped."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise ValueError(f"{{path}}:{{line_no}}: {{err}}") from err
    return records
'''


def sec_batched(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["batched", "chunks", "minibatches"]))
    return f'''def {name}(items, size):
    """Yield successive lists of at most `size` items."""
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
'''


def sec_recursive_split(ctx: Ctx) -> str:
    name = ctx.fresh("split_recursive")
    return f'''def {name}(items, max_len):
    """Split `items` in halves until every piece has at most `max_len` items."""
    if len(items) <= max_len:
        return [items]
    middle = len(items) // 2
    return {name}(items[:middle], max_len) + {name}(items[middle:], max_len)
'''


def sec_recursive_flatten(ctx: Ctx) -> str:
    name = ctx.fresh("flatten")
    return f'''def {name}(nested):
    """Flatten arbitrarily nested lists and tuples of results."""
    flat = []
    for item in nested:
        if isinstance(item, (list, tuple)):
            flat.extend({name}(item))
        else:
            flat.append(item)
    return flat
'''


def sec_seed(ctx: Ctx) -> str:
    ctx.need("import random")
    name = ctx.fresh("seed_everything")
    return f'''def {name}(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
'''


def sec_plot_curve(ctx: Ctx) -> str:
    ctx.need("import matplotlib.pyplot as plt")
    name = ctx.fresh(ctx.pick(["plot_layer_curve", "plot_by_layer", "line_plot"]))
    return f'''def {name}(values, title, out_path=None, ylabel="effect"):
    """Plot one value per layer; save to `out_path` when given, else show."""
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(range(len(values)), values, marker="o", linewidth=1.5)
    ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("layer")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    if out_path:
        fig.savefig(out_path, dpi=150)
    else:
        plt.show()
    plt.close(fig)
'''


def sec_plot_heatmap(ctx: Ctx) -> str:
    ctx.need("import matplotlib.pyplot as plt")
    name = ctx.fresh("plot_heatmap")
    return f'''def {name}(matrix, row_labels, col_labels, out_path, cmap="RdBu"):
    fig, ax = plt.subplots(figsize=(1 + 0.4 * len(col_labels), 1 + 0.4 * len(row_labels)))
    limit = max(abs(float(v)) for row in matrix for v in row) or 1.0
    image = ax.imshow(matrix, cmap=cmap, vmin=-limit, vmax=limit, aspect="auto")
    ax.set_xticks(range(len(col_labels)), labels=col_labels, rotation=90)
    ax.set_yticks(range(len(row_labels)), labels=row_labels)
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(out_path, dpi=150)
    plt.close(fig)
'''


def sec_save_results(ctx: Ctx) -> str:
    ctx.need("import json")
    ctx.need("from pathlib import Path")
    name = ctx.fresh(ctx.pick(["save_results", "write_results", "dump_results"]))
    return f'''def {name}(results, out_dir, name="results.json"):
    """Write results (tensors converted to lists) as pretty JSON."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    def convert(value):
        if isinstance(value, torch.Tensor):
            return value.detach().cpu().tolist()
        if isinstance(value, dict):
            return {{str(k): convert(v) for k, v in value.items()}}
        if isinstance(value, (list, tuple)):
            return [convert(v) for v in value]
        return value

    path = out / name
    path.write_text(json.dumps(convert(results), indent=2, sort_keys=True))
    return path
'''


def sec_stats(ctx: Ctx) -> str:
    ctx.need("import math")
    name = ctx.fresh(ctx.pick(["summarize", "mean_and_stderr", "describe_values"]))
    return f'''def {name}(values):
    """Mean, standard deviation and standard error of a list of floats."""
    n = len(values)
    if n == 0:
        return {{"n": 0, "mean": float("nan"), "std": float("nan"), "sem": float("nan")}}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    std = math.sqrt(var)
    return {{"n": n, "mean": mean, "std": std, "sem": std / math.sqrt(n)}}
'''


def sec_bootstrap(ctx: Ctx) -> str:
    ctx.need("import random")
    name = ctx.fresh("bootstrap_ci")
    return f'''def {name}(values, n_resamples=1000, alpha=0.05, seed=0):
    """Percentile bootstrap confidence interval for the mean."""
    rng = random.Random(seed)
    means = []
    for _ in range(n_resamples):
        sample = [rng.choice(values) for _ in values]
        means.append(sum(sample) / len(sample))
    means.sort()
    lo = means[int(alpha / 2 * n_resamples)]
    hi = means[int((1 - alpha / 2) * n_resamples) - 1]
    return lo, hi
'''


def sec_table(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["format_table", "render_table"]))
    return f'''def {name}(rows, headers):
    """Render rows as a fixed-width text table."""
    widths = [len(h) for h in headers]
    for row in rows:
        for k, cell in enumerate(row):
            widths[k] = max(widths[k], len(f"{{cell:.4f}}" if isinstance(cell, float) else str(cell)))
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        cells = [f"{{c:.4f}}" if isinstance(c, float) else str(c) for c in row]
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)))
    return "\\n".join(lines)
'''


def sec_token_ids(ctx: Ctx) -> str:
    ctx.need("import functools")
    name = ctx.fresh("answer_token_id")
    return f'''@functools.lru_cache(maxsize=None)
def {name}(word):
    """First token id of `word` (with its leading space) under the model's tokenizer."""
    ids = model.tokenizer.encode(word, add_special_tokens=False)
    if not ids:
        raise ValueError(f"empty tokenization for {{word!r}}")
    return ids[0]
'''


def sec_no_grad(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["mean_difference", "contrastive_direction", "diff_of_means"]))
    return f'''@torch.no_grad()
def {name}(pos_acts, neg_acts, normalize=True):
    """Difference of class means, optionally scaled to unit norm."""
    direction = pos_acts.mean(dim=0) - neg_acts.mean(dim=0)
    if normalize:
        direction = direction / direction.norm()
    return direction
'''


def sec_cosine_matrix(ctx: Ctx) -> str:
    name = ctx.fresh("cosine_matrix")
    return f'''@torch.no_grad()
def {name}(vectors):
    """Pairwise cosine similarity of the rows of `vectors`."""
    unit = vectors / vectors.norm(dim=-1, keepdim=True)
    return unit @ unit.T
'''


def sec_running_stats(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["RunningStats", "OnlineMoments", "Welford"]))
    return f'''class {name}:
    """Welford's online mean and variance, for activations streamed batch by batch."""

    def __init__(self):
        self.count = 0
        self.mean = None
        self.m2 = None

    def update(self, batch):
        for row in batch:
            self.count += 1
            if self.mean is None:
                self.mean = row.clone()
                self.m2 = torch.zeros_like(row)
                continue
            delta = row - self.mean
            self.mean += delta / self.count
            self.m2 += delta * (row - self.mean)

    @property
    def variance(self):
        if self.count < 2:
            return None
        return self.m2 / (self.count - 1)
'''


def sec_result_store(ctx: Ctx) -> str:
    ctx.need("from collections import defaultdict")
    name = ctx.fresh(ctx.pick(["ResultStore", "Results", "MetricLog"]))
    return f'''class {name}:
    """Collects (condition, layer) -> list of metric values."""

    def __init__(self):
        self._values = defaultdict(list)

    def add(self, condition, layer, value):
        self._values[(condition, layer)].append(float(value))

    def mean(self, condition, layer):
        vals = self._values.get((condition, layer), [])
        return sum(vals) / len(vals) if vals else float("nan")

    def conditions(self):
        return sorted({{c for c, _ in self._values}})

    def rows(self):
        for (condition, layer), vals in sorted(self._values.items()):
            yield condition, layer, sum(vals) / len(vals), len(vals)
'''


def sec_ioi_prompts(ctx: Ctx) -> str:
    ctx.need("import itertools")
    name = ctx.fresh("build_ioi_prompts")
    names, templates = ctx.fresh("IOI_NAMES"), ctx.fresh("IOI_TEMPLATES")
    return f'''{names} = ["John", "Mary", "Tom", "James", "Alice", "Bob", "Sarah", "Dan"]
{templates} = [
    "When {{a}} and {{b}} went to the store, {{b}} gave a bottle of milk to",
    "After {{a}} and {{b}} had lunch, {{b}} handed the bill to",
]


def {name}(n_pairs=20):
    """Clean/corrupted IOI prompt pairs: the corrupted prompt swaps the subject."""
    pairs = []
    for (a, b), template in itertools.product(itertools.permutations({names}, 2), {templates}):
        clean = template.format(a=a, b=b)
        corrupted = template.format(a=b, b=a)
        pairs.append((clean, corrupted, " " + a, " " + b))
        if len(pairs) >= n_pairs:
            break
    return pairs
'''


def sec_nested_helper(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["rank_layers", "top_layers", "select_layers"]))
    return f'''def {name}(effects, k=3, absolute=True):
    """Return the k layers with the largest effect."""

    def key(item):
        layer, value = item
        return abs(value) if absolute else value

    ranked = sorted(effects.items(), key=key, reverse=True)
    return [layer for layer, _ in ranked[:k]]
'''


def sec_ema(ctx: Ctx) -> str:
    name = ctx.fresh("smooth")
    return f'''def {name}(values, beta=0.9):
    """Exponential moving average with bias correction."""
    out, avg = [], 0.0
    for step, value in enumerate(values, 1):
        avg = beta * avg + (1 - beta) * value
        out.append(avg / (1 - beta ** step))
    return out
'''


def sec_markdown(ctx: Ctx) -> str:
    ctx.need("from pathlib import Path")
    name = ctx.fresh("write_report")
    return f'''def {name}(title, sections, path):
    """Write a small Markdown report: a title and (heading, text) sections."""
    parts = [f"# {{title}}", ""]
    for heading, text in sections:
        parts.append(f"## {{heading}}")
        parts.append("")
        parts.append(text.strip())
        parts.append("")
    Path(path).write_text("\\n".join(parts), encoding="utf-8")
'''


def sec_probe_fit(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["fit_probe", "train_linear_probe"]))
    return f'''def {name}(features, labels, epochs=200, lr=1e-2, weight_decay=1e-4):
    """Logistic-regression probe trained with full-batch Adam on cached features."""
    probe = torch.nn.Linear(features.shape[-1], 1)
    optim = torch.optim.Adam(probe.parameters(), lr=lr, weight_decay=weight_decay)
    targets = labels.float().unsqueeze(-1)
    for epoch in range(epochs):
        optim.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(probe(features), targets)
        loss.backward()
        optim.step()
    with torch.no_grad():
        accuracy = ((probe(features) > 0).float() == targets).float().mean().item()
    return probe, accuracy
'''


def sec_dataset(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["PromptPairs", "PairDataset", "ContrastDataset"]))
    return f'''class {name}:
    """Clean/corrupted prompt pairs with the token ids of both answers."""

    def __init__(self, pairs, tokenizer):
        self.pairs = list(pairs)
        self.tokenizer = tokenizer

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, index):
        clean, corrupted, good, bad = self.pairs[index]
        good_id = self.tokenizer.encode(good, add_special_tokens=False)[0]
        bad_id = self.tokenizer.encode(bad, add_special_tokens=False)[0]
        return {{"clean": clean, "corrupted": corrupted, "good": good_id, "bad": bad_id}}

    def batches(self, size):
        for start in range(0, len(self), size):
            yield [self[i] for i in range(start, min(start + size, len(self)))]
'''


def sec_collate(ctx: Ctx) -> str:
    name = ctx.fresh("pad_token_lists")
    return f'''def {name}(token_lists, pad_id=0, left=True):
    """Pad lists of token ids to a rectangle; left padding keeps the last token aligned."""
    width = max(len(t) for t in token_lists)
    rows, masks = [], []
    for tokens in token_lists:
        gap = [pad_id] * (width - len(tokens))
        rows.append(gap + tokens if left else tokens + gap)
        ones = [1] * len(tokens)
        zeros = [0] * (width - len(tokens))
        masks.append(zeros + ones if left else ones + zeros)
    return torch.tensor(rows), torch.tensor(masks)
'''


def sec_metrics(ctx: Ctx) -> str:
    a, r = ctx.fresh("topk_accuracy"), ctx.fresh("answer_rank")
    return f'''def {a}(logits, targets, k=5):
    """Fraction of rows whose target is among the k largest logits."""
    top = logits.topk(k, dim=-1).indices
    return (top == targets.unsqueeze(-1)).any(dim=-1).float().mean().item()


def {r}(logits, target):
    """Rank (0 = best) of `target` in a 1-D logit vector."""
    return int((logits > logits[target]).sum().item())
'''


def sec_logging(ctx: Ctx) -> str:
    ctx.need("import logging")
    name = ctx.fresh("get_logger")
    return f'''def {name}(name="{ctx.task}", level=logging.INFO):
    logger = logging.getLogger(name)
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level)
    return logger
'''


def sec_grid(ctx: Ctx) -> str:
    ctx.need("import itertools")
    name = ctx.fresh(ctx.pick(["sweep_grid", "make_grid", "config_grid"]))
    coefs = sorted(ctx.rng.sample([-8.0, -4.0, -2.0, -1.0, 0.5, 1.0, 2.0, 4.0, 8.0], 4))
    return f'''def {name}(layers, coefficients={coefs}, positions=(-1,)):
    """Every (layer, coefficient, position) combination, as dicts, in a stable order."""
    grid = []
    for layer, coef, pos in itertools.product(layers, coefficients, positions):
        grid.append({{"layer": layer, "coefficient": coef, "position": pos}})
    return grid
'''


def sec_checkpoint(ctx: Ctx) -> str:
    ctx.need("from pathlib import Path")
    save, load = ctx.fresh("save_direction"), ctx.fresh("load_direction")
    return f'''def {save}(direction, path):
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save(direction.detach().cpu(), path)


def {load}(path, device="cpu"):
    return torch.load(path, map_location=device)
'''


def sec_timer(ctx: Ctx) -> str:
    ctx.need("import contextlib")
    ctx.need("import time")
    name = ctx.fresh("timed")
    return f'''@contextlib.contextmanager
def {name}(label, sink=None):
    """Measure the wall time of a block; report it to `sink` (a list) or print it."""
    start = time.perf_counter()
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        if sink is not None:
            sink.append((label, elapsed))
        else:
            print(f"{{label}}: {{elapsed:.2f}}s")
'''


def sec_enum(ctx: Ctx) -> str:
    ctx.need("import enum")
    name = ctx.fresh(ctx.pick(["Metric", "AblationKind", "Position"]))
    return f'''class {name}(enum.Enum):
    LOGIT_DIFF = "logit_diff"
    PROB = "prob"
    KL = "kl"

    @classmethod
    def parse(cls, text):
        for member in cls:
            if member.value == text.lower():
                return member
        raise ValueError(f"unknown metric {{text!r}}")
'''


def sec_namedtuple(ctx: Ctx) -> str:
    ctx.need("from typing import NamedTuple")
    name = ctx.fresh(ctx.pick(["PatchResult", "LayerEffect", "RunRecord"]))
    return f'''class {name}(NamedTuple):
    layer: int
    position: int
    effect: float
    baseline: float

    @property
    def recovered(self):
        return self.effect / self.baseline if self.baseline else float("nan")
'''


def sec_notes(ctx: Ctx) -> str:
    fam = ctx.fam
    rng = ctx.rng
    lines = [
        f"# Notes ({fam.hf_id}):",
        f"# - blocks live at model.{fam.layers}[i]; attention output projection is {fam.attn_out}",
        f"# - d_model={fam.d_model}, {fam.n_heads} heads of size {fam.d_model // fam.n_heads}",
        "# - outputs of a block are tuples here; index [0] for the residual stream",
        f"# - layer {rng.randrange(fam.n_layers)} looked most promising in the pilot run",
        "# - remember: save() anything needed after the trace exits",
        f"# - TODO: rerun with {rng.choice(['more prompts', 'mean ablation', 'a second seed'])}",
    ]
    return "\n".join(lines) + "\n"


def sec_plot_multi(ctx: Ctx) -> str:
    ctx.need("import matplotlib.pyplot as plt")
    name = ctx.fresh(ctx.pick(["plot_conditions", "compare_curves"]))
    return f'''def {name}(curves, out_path, title="", xlabel="layer"):
    """One line per condition; `curves` maps a label to a list of values."""
    fig, ax = plt.subplots(figsize=(8, 4))
    for label, values in sorted(curves.items()):
        ax.plot(range(len(values)), values, label=label, linewidth=1.2)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend(frameon=False, fontsize="small")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path, dpi=150)
    plt.close(fig)
'''


def sec_histogram(ctx: Ctx) -> str:
    ctx.need("import matplotlib.pyplot as plt")
    name = ctx.fresh("plot_histogram")
    return f'''def {name}(values, out_path, bins=40, label="value"):
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist([float(v) for v in values], bins=bins, color="tab:blue", alpha=0.8)
    ax.set_xlabel(label)
    ax.set_ylabel("count")
    fig.tight_layout()
    fig.savefig(out_path, dpi=150)
    plt.close(fig)
'''


def sec_effective_rank(ctx: Ctx) -> str:
    name = ctx.fresh("effective_rank")
    return f'''@torch.no_grad()
def {name}(acts, eps=1e-12):
    """Exponential of the entropy of the normalised singular values (Roy & Vetterli)."""
    sv = torch.linalg.svdvals(acts.float() - acts.float().mean(dim=0))
    p = sv / (sv.sum() + eps)
    entropy = -(p * (p + eps).log()).sum()
    return entropy.exp().item()
'''


def sec_recursive_search(ctx: Ctx) -> str:
    name = ctx.fresh(ctx.pick(["bisect_threshold", "search_coefficient"]))
    return f'''def {name}(predicate, lo, hi, tol=1e-3, depth=0, max_depth=40):
    """Smallest x in [lo, hi] with predicate(x) true, assuming monotonicity (recursive)."""
    if hi - lo <= tol or depth >= max_depth:
        return hi
    mid = (lo + hi) / 2
    if predicate(mid):
        return {name}(predicate, lo, mid, tol, depth + 1, max_depth)
    return {name}(predicate, mid, hi, tol, depth + 1, max_depth)
'''


def sec_generator_pipeline(ctx: Ctx) -> str:
    a, b = ctx.fresh("iter_prompts"), ctx.fresh("dedupe")
    return f'''def {a}(records, field="prompt", min_len=3):
    for record in records:
        text = record.get(field, "") if isinstance(record, dict) else str(record)
        if len(text.split()) >= min_len:
            yield text.strip()


def {b}(items):
    seen = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item
'''


def sec_user_decorator(ctx: Ctx) -> str:
    ctx.need("import functools")
    deco, fn = ctx.fresh("log_calls"), ctx.fresh(ctx.pick(["describe_run", "announce"]))
    return f'''def {deco}(fn):
    """Print the arguments of each call; handy when a sweep misbehaves."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        shown = ", ".join([repr(a) for a in args] + [f"{{k}}={{v!r}}" for k, v in kwargs.items()])
        print(f"-> {{fn.__name__}}({{shown}})")
        return fn(*args, **kwargs)

    return wrapper


@{deco}
def {fn}(name, layers, note=""):
    return f"{{name}}: layers {{layers}} {{note}}".strip()
'''


NON_TRACE_SECTIONS = [sec_load_csv, sec_load_jsonl, sec_batched, sec_recursive_split,
                      sec_recursive_flatten, sec_seed, sec_plot_curve, sec_plot_heatmap,
                      sec_save_results, sec_stats, sec_bootstrap, sec_table, sec_token_ids,
                      sec_no_grad, sec_cosine_matrix, sec_running_stats, sec_result_store,
                      sec_ioi_prompts, sec_nested_helper, sec_ema, sec_markdown, sec_probe_fit,
                      sec_dataset, sec_collate, sec_metrics, sec_logging, sec_grid, sec_checkpoint,
                      sec_timer, sec_enum, sec_namedtuple, sec_notes, sec_plot_multi,
                      sec_histogram, sec_effective_rank, sec_recursive_search,
                      sec_generator_pipeline, sec_user_decorator]


def sec_argparse(ctx: Ctx, cfg_name: str | None) -> str:
    ctx.need("import argparse")
    return f'''def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="{ctx.fam.hf_id}")
    parser.add_argument("--layers", type=int, nargs="*", default=None)
    parser.add_argument("--batch-size", type=int, default={ctx.pick([4, 8, 16])})
    parser.add_argument("--out", default="results")
    parser.add_argument("--remote", action="store_true", help="run on NDIF")
    parser.add_argument("--seed", type=int, default={ctx.rng.randrange(100)})
    return parser.parse_args(argv)
'''


# ----------------------------------------------------------------------------
# One file.
# ----------------------------------------------------------------------------

def generate_file(seed: int, index: int):
    rng = random.Random(f"ivc-corpus:{seed}:{index}")
    fam = rng.choice(FAMILIES)
    task = rng.choice(list(TASKS))
    purpose, title, blurb = rng.choice(PURPOSES)
    ctx = Ctx(rng, fam, task)
    ctx.used_names.update({"model", "tracer", "session", "torch", "main", "parse_args",
                           "PROMPTS", "MODEL_NAME", "LAYERS", "NAMES", "TEMPLATES"})
    bucket = rng.random()
    if bucket < 0.4:
        target = rng.randrange(MIN_FILE_BYTES + 600, 10_000)
    elif bucket < 0.8:
        target = rng.randrange(10_000, 20_000)
    else:
        target = rng.randrange(20_000, MAX_FILE_BYTES - 4000)
    style = rng.choice(STYLES)
    n_traces = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])
    slug = f"{index:04d}_{purpose}_{fam.key}"

    # Helpers the traces may use are decided as the traces are generated;
    # the traces are built first, then the file is assembled around them.
    trace_blocks = []
    for k in range(n_traces):
        if style == "method":
            ctx.receiver = "self.model"
        elif style == "function":
            ctx.receiver = rng.choice(["model", "lm"])
        else:
            ctx.receiver = "model"
        tb = make_trace(ctx, purpose, "self.prompts[0]" if style == "method" else "PROMPTS[0]")
        trace_blocks.append((ctx.receiver, tb))

    # Non-trace sections, drawn without replacement until the size target is met.
    sections = []
    pool = list(NON_TRACE_SECTIONS)
    rng.shuffle(pool)
    cfg_name = None
    if rng.random() < 0.7:
        sections.append(sec_config(ctx))
        cfg_name = sections[-1].split("class ", 1)[1].split(":", 1)[0]

    def assemble():
        out = Block()
        out.add(f'"""{heading}.\n\n{body_text}\n"""')
        imports = ["import torch", "from nnsight import LanguageModel"] + ctx.imports

        def order(line):   # `import x` before `from x import y`, then by module
            return (line.startswith("from "), line.split()[1])

        std = sorted((i for i in imports if i.split()[1].split(".")[0] in STDLIB), key=order)
        third = sorted((i for i in imports if i.split()[1].split(".")[0] not in STDLIB), key=order)
        out.add("\n".join(std))
        out.add("")
        out.add("\n".join(third))
        out.add("")
        out.add(f'MODEL_NAME = "{fam.hf_id}"')
        out.add(f"LAYERS = {layers_const}")
        out.add("PROMPTS = [")
        for p in prompts_sample:
            out.add(f"    {pystr(p)},")
        out.add("]")
        seen = set()
        for name, value in ctx.constants:
            if name not in seen:
                seen.add(name)
                out.add(f"{name} = {value}")
        out.add("")
        out.add(f"model = LanguageModel(MODEL_NAME, device_map=\"auto\", dispatch=True)")
        out.add("")
        for text in helper_texts:
            out.add("")
            out.add(text.rstrip("\n"))
            out.add("")
        for sec in sections:
            out.add("")
            out.add(sec.rstrip("\n"))
            out.add("")
        # Traces, in the chosen style.
        if style == "method":
            out.add("")
            out.add("class Experiment:")
            out.add('    """Bundles the model and the runs of this study."""')
            out.add("")
            out.add("    def __init__(self, model, prompts):")
            out.add("        self.model = model")
            out.add("        self.prompts = prompts")
            out.add("")
            for k, (recv, tb) in enumerate(trace_blocks):
                out.add(f"    def run_{k}(self):")
                out.add(f'        """Run {k}: returns the values saved inside the trace."""')
                out.extend(tb, 2)
                out.add(f"        return {tb.result or 'None'}")
                out.add("")
        elif style == "function":
            for k, (recv, tb) in enumerate(trace_blocks):
                out.add("")
                out.add(f"def run_{k}({recv}):")
                out.add(f'    """Run {k} of the study."""')
                out.extend(tb, 1)
                out.add(f"    return {tb.result or 'None'}")
                out.add("")
        else:
            for k, (recv, tb) in enumerate(trace_blocks):
                out.add("")
                out.add(f"# --- run {k} " + "-" * 60)
                out.extend(tb, 0)
                out.add("")
        out.add("")
        out.add(sec_argparse_text.rstrip("\n"))
        out.add("")
        out.add("")
        out.add("def main(argv=None):")
        out.add("    args = parse_args(argv)")
        out.add("    torch.manual_seed(args.seed)")
        if cfg_name:
            out.add(f"    cfg = {cfg_name}(model_name=args.model, batch_size=args.batch_size)")
            out.add("    print(cfg.describe())")
        if style == "method":
            out.add("    experiment = Experiment(model, PROMPTS)")
            for k in range(len(trace_blocks)):
                out.add(f"    results_{k} = experiment.run_{k}()")
        elif style == "function":
            for k, (recv, _) in enumerate(trace_blocks):
                out.add(f"    results_{k} = run_{k}(model)")
        out.add('    print("done:", args.out)')
        out.add("")
        out.add("")
        out.add('if __name__ == "__main__":')
        out.add("    main()")
        return out

    fmt = {"fam": fam.hf_id, "task": task.replace("_", "-")}
    heading, body_text = title.format(**fmt), blurb.format(**fmt)
    layers_const = ctx.layer_indices(rng.randrange(2, 6))
    prompts_sample = rng.sample(TASKS[task], min(len(TASKS[task]), rng.randrange(2, 6)))
    helper_texts = [helper_source(ctx, role, name) for role, name in ctx.helpers.items()]
    sec_argparse_text = sec_argparse(ctx, cfg_name)
    out = assemble()
    while out.size() < max(target, MIN_FILE_BYTES + 200):
        if not pool:
            # Large files: a second round of sections, renamed by ctx.fresh.
            pool = list(NON_TRACE_SECTIONS)
            rng.shuffle(pool)
        sections.append(pool.pop()(ctx))
        candidate = assemble()
        if candidate.size() > MAX_FILE_BYTES - 512:
            sections.pop()
            break
        out = candidate
    text = "\n".join(collapse_blank_lines(out.lines)).rstrip("\n") + "\n"
    return slug + ".py", text, out.traces


STDLIB = {"argparse", "collections", "contextlib", "csv", "dataclasses", "enum", "functools",
          "itertools", "json", "logging", "math", "os", "pathlib", "random", "sys", "time", "typing"}


def collapse_blank_lines(lines):
    """At most two consecutive blank lines (the assembler adds spacing freely)."""
    out, blanks = [], 0
    for line in lines:
        if line.strip():
            blanks = 0
            out.append(line)
        else:
            blanks += 1
            if blanks <= 2:
                out.append(line)
    return out


def locate_traces(text: str, traces):
    """Attach 1-based line numbers to trace records, in source order."""
    lines = text.split("\n")
    headers = [n + 1 for n, line in enumerate(lines)
               if line.lstrip().startswith("with ")
               and any(f".{m}(" in line for m in ("trace", "generate", "session"))]
    flat = []

    def walk(t):
        flat.append(t)
        for c in t.children:
            walk(c)

    for t in traces:
        walk(t)
    if len(flat) != len(headers):
        raise AssertionError(f"{len(flat)} trace records but {len(headers)} trace headers")
    return [(line, t) for line, t in zip(headers, flat)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="directory to write the files into")
    parser.add_argument("--bytes", type=int, default=DEFAULT_BYTES,
                        help="minimum total size of the corpus (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default: 0)")
    parser.add_argument("--manifest", help="also write the generated tiers as JSON here")
    args = parser.parse_args(argv)

    os.makedirs(args.out, exist_ok=True)
    total, index, manifest = 0, 0, []
    counts = {"fast": 0, "isolate": 0, "reject": 0}
    while total < args.bytes:
        name, text, traces = generate_file(args.seed, index)
        data = text.encode("utf-8")
        with open(os.path.join(args.out, name), "wb") as handle:
            handle.write(data)
        total += len(data)
        entry = {"file": name, "bytes": len(data), "traces": []}
        for line, t in locate_traces(text, traces):
            meds = [{"kind": m.kind, "tier": m.tier, "injected": m.injected} for m in t.mediators]
            for m in t.mediators:
                counts[m.tier] += 1
            entry["traces"].append({"line": line, "method": t.method, "mediators": meds})
        manifest.append(entry)
        index += 1
    if args.manifest:
        with open(args.manifest, "w", encoding="utf-8") as handle:
            json.dump({"seed": args.seed, "bytes": total, "files": manifest, "mediators": counts},
                      handle, indent=2, sort_keys=True)
            handle.write("\n")
    n = sum(counts.values())
    print(f"wrote {index} files, {total} bytes, {n} mediators "
          f"(fast {counts['fast']}, isolate {counts['isolate']}, reject {counts['reject']})",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
