"""From source to result: ivc.compile (the analyzer, in-process) to a plan,
then the runtime runs each mediator in the tier the analyzer chose."""

import copy
import json
import os
import random
import tempfile
import threading

import numpy

import plans
from common import Hooked, TinyGPT, assert_same, ivc, tokens, torch, unittest

FAST = """\
import torch

def add_direction(hidden, direction, scale):
    return hidden + scale * direction

with model.trace(ids) as tracer:
    hidden = model.transformer.h[1].output[0]
    model.transformer.h[1].output[0][:] = add_direction(hidden, steering, 0.5)
    logits = model.lm_head.output.save()
"""

ISOLATE = """\
import torch
import numpy as np

with model.trace(ids) as tracer:
    h = model.transformer.h[1].output[0]
    s = torch.from_numpy(np.linalg.svd(h.detach().numpy()[0], compute_uv=False))
    spectrum = s.save()
"""

REJECT = """\
import os

with model.trace(ids) as tracer:
    os.system("id")
    logits = model.lm_head.output.save()
"""

# FAST because `scale` is 2, with a dispatch table and a closure made from
# the file's functions: all definitions the plan carries.
CONSTANTS = """\
import torch

def double(x):
    return x * 2

def make_scale(alpha):
    def scale(x):
        return x * alpha
    return scale

scale = 2
METRICS = {'double': double}
halve = make_scale(0.5)
width = len(METRICS) * 4

with model.trace(ids) as tracer:
    pad = torch.zeros(width).save()
    ids_min = torch.full((1,), -2**63)
    q = (ids_min // scale).save()
    d = METRICS['double'](model.lm_head.output).save()
    h = halve(model.lm_head.output).save()
"""

# Caller-supplied names of the kinds the file binds them to.
KINDS = """\
import torch

steering = torch.randn(32)
scale = float(input())

with model.trace(ids) as tracer:
    boost = (steering * scale).save()
"""


# The caller's values of no kind the file fixes: FAST while they are what
# the verdict assumed (a small number, no sequence), ISOLATE otherwise.
GUARDED = """\
import torch

def run(ids, k, s, coeff, vec):
    with model.trace(ids) as tracer:
        h = model.transformer.h[0].output[0]
        pad = torch.zeros(k, 2).save()
        tracer.log(s * 32)
        steered = (h[:, -1] + coeff * vec).save()
"""


# Saved values kept in lists and dicts: the plan saves the containers.
KEPT = """\
hs = []
with model.trace(ids):
    for l in range(2):
        hs.append(model.transformer.h[l].output[0].save())
    pair = {"a": (model.transformer.ln_f.output.save(), 1)}
    by_layer = {}
    by_layer["last"] = model.lm_head.output.save()
    stacked = torch.stack([model.lm_head.output.save()])
with model.trace(ids):
    every = [b.output[0].save() for b in model.transformer.h]
"""


# A size from the shape of the caller's tensor.
SHAPED = """\
import torch

def reflect(ids, v):
    with model.trace(ids):
        h = model.transformer.h[0].output[0].save()
        flip = (h @ (torch.eye(v.shape[0]) - 2 * torch.outer(v, v))).save()
"""


# The module's names and those of the function around the trace, under the
# same spellings.
LAYERS = """\
import torch

scale = 2
def ident(x):
    return x
eval = ident
def g(x):
    return x // scale
def h(s):
    return eval(s)
def one():
    return max(-1, 1)

def run(ids):
    from operator import mul as max
    scale = -1
    def local(x):
        return x * scale
    with model.trace(ids) as tracer:
        eval = 0
        del eval
        q = g(torch.full((1,), 7)).save()
        w = local(torch.ones(1)).save()
        said = torch.tensor([len(h("text")), one(), max(2, 3)]).save()
"""

# Locals of the function that nothing bound yet: in Python, reading one
# raises; it must never find the builtin or the module's value instead.
UNASSIGNED = """\
import torch

D = [2]
def g(t):
    return t // D[-1]

def builtin_fallback(ids):
    with model.trace(ids) as tracer:
        if tracer is None:
            eval = len
        x = eval("1 + 1")

def module_fallback(ids):
    with model.trace(ids) as tracer:
        D += [-1]
        q = g(torch.full((1,), -2**63)).save()
"""

# Defaults and redefinitions, which only source order gets right.
ORDER = """\
import torch

def ident(x):
    return x
eval = ident
def g(x, f=eval):
    return f(x)
def k():
    return 1
def k():
    return 2

with model.trace(ids) as tracer:
    said = torch.tensor([len(g("text")), k()]).save()
"""

# Activation patching between two invokes across a barrier.
BARRIER = """\
with model.trace() as tracer:
    barrier = tracer.barrier(2)
    with tracer.invoke(ids):
        clean = model.transformer.h[1].output[0][:, -1, :]
        barrier()
    with tracer.invoke(ids):
        barrier()
        model.transformer.h[1].output[0][:, -1, :] = clean
        patched = model.lm_head.output[:, -1].save()
"""

# The random module, imported both ways.
RANDOM = """\
import random
import torch
from random import randint

with model.trace(ids) as tracer:
    picks = random.sample(range(1000), 3) + [randint(0, 10**6)]
    draws = torch.tensor([random.random(), random.gauss(0.0, 1.0)] + picks).save()
"""

# A trace inside a function, which reads the function's names and a helper
# it defines, and a function the module defines under `if`.
AROUND = """\
import torch

if torch.cuda.is_available() or True:
    def triple(x):
        return x * 3

def run(ids, alpha):
    scale = 2
    n = alpha
    def helper(x):
        return x * scale + n
    with model.trace(ids) as tracer:
        q = (torch.full((1,), -2**63) // scale).save()
        logits = model.lm_head.output.save()
        h = helper(triple(model.lm_head.output)).save()
        r = (torch.full((1,), 7) // n).save()
"""


ALIASES = """\
import torch

block = model.transformer.h[1]
width = model.config.n_embd
layers = model.config.num_hidden_layers

def run(ids):
    head = model.lm_head
    with model.trace(ids):
        h = block.output[0].save()
        logits = head.output.save()
        sizes = torch.tensor([width, layers, model.config.n_layer * 2]).save()
"""


class Compile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = ivc.Runtime(ivc.SandboxConfig.from_policy("ndif"), pool_size=2)
        cls.model = TinyGPT()
        cls.ids = tokens(batch=2)

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def test_fast_plan_runs_in_process_and_matches_isolation(self):
        plan = ivc.compile(FAST, filename="steer.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.tier, "fast")
        self.assertEqual(m.free_names, ["steering"])
        steering = torch.randn(32, generator=torch.Generator().manual_seed(2))
        r = self.rt.run(plan, self.model, [self.ids], {"steering": steering})
        self.assertEqual(r.mediators[0].tier, "fast")
        forced = self.rt.run(plan, self.model, [self.ids], {"steering": steering},
                             tiers={0: "isolate"})
        self.assertEqual(forced.mediators[0].tier, "isolate")
        assert_same(self, r.saves, forced.saves)

        def steer(out):
            out[0][:] = out[0] + 0.5 * steering
            return out
        expected = Hooked(self.model).replace("transformer.h.1", steer)(self.ids)
        self.assertTrue(torch.equal(r["logits"], expected))

    def test_isolate_plan_runs_in_a_worker(self):
        plan = ivc.compile(ISOLATE, filename="svd.py")
        self.assertEqual(plan.trace(0).mediators[0].tier, "isolate")
        r = self.rt.run(plan, self.model, [self.ids], {"np": numpy})
        self.assertEqual(r.mediators[0].tier, "isolate")
        self.assertIn("worker pid", r.mediators[0].where)
        h = Hooked(self.model).capture("transformer.h.1")
        h(self.ids)
        want = numpy.linalg.svd(h.seen["transformer.h.1"][0][0].numpy(), compute_uv=False)
        self.assertTrue(numpy.array_equal(r["spectrum"].numpy(), want))

    def test_reject_plan_never_runs(self):
        plan = ivc.compile(REJECT, filename="escape.py")
        self.assertEqual(plan.trace(0).mediators[0].tier, "reject")
        calls = []
        handle = self.model.register_forward_pre_hook(lambda *a: calls.append(1))
        try:
            with self.assertRaises(ivc.RejectedError) as cm:
                self.rt.run(plan, self.model, [self.ids], {"os": None})
        finally:
            handle.remove()
        self.assertEqual(calls, [], "the model ran for a rejected trace")
        self.assertIn("IVC101", str(cm.exception))
        self.assertTrue(any(d.get("code") == "IVC101" for d in cm.exception.diagnostics))

    def test_a_backward_pass_leaves_the_models_gradients_as_they_were(self):
        plan = ivc.compile("""\
with model.trace(ids) as tracer:
    norm = model.transformer.h[0].output[0].norm().save()
    model.lm_head.output.sum().backward()
""", filename="backward.py", policy="ndif")
        m = plan.trace(0).mediators[0]
        self.assertEqual((m.tier, m.differentiate), ("fast", True))
        model = TinyGPT()
        first = next(model.parameters())
        first.grad = torch.ones_like(first)  # the server's own, kept as it is
        r = self.rt.run(plan, model, [self.ids])
        self.assertEqual(r["norm"].dim(), 0)
        self.assertTrue(torch.equal(first.grad, torch.ones_like(first)))
        self.assertEqual([n for n, p in model.named_parameters() if p.grad is not None][1:], [])

    def test_an_activations_grad_read_before_backward_is_filled_by_it(self):
        # nnsight's attribution patching: h.grad saved before .backward() is
        # the gradient of the activation the model went on with, for the
        # mediator's rows; one no backward reaches says so.
        plan = ivc.compile("""\
grads = []
with model.trace(ids) as tracer:
    with tracer.invoke(ids):
        for b in model.transformer.h:
            grads.append(b.output[0].grad.save())
        logits = model.lm_head.output
        (logits[:, -1, 3] - logits[:, -1, 5]).sum().backward()
    with tracer.invoke(ids):
        never = model.transformer.h[0].output[0].grad.save()
""", filename="attribution.py", policy="ndif")
        self.assertEqual([(m.tier, m.differentiate) for m in plan.trace(0).mediators],
                         [("fast", True), ("fast", True)])
        model = TinyGPT()
        r = self.rt.run(plan, model, [self.ids, self.ids], {"ids": self.ids},
                        raise_errors=False)
        kept = []
        hooks = [b.register_forward_hook(lambda m, a, out: out[0].retain_grad() or
                                         kept.append(out[0])) for b in model.transformer.h]
        logits = model(torch.cat([self.ids, self.ids]))
        (logits[:len(self.ids), -1, 3] - logits[:len(self.ids), -1, 5]).sum().backward()
        for h in hooks:
            h.remove()
        self.assertEqual(len(r["grads"]), len(kept))
        for got, out in zip(r["grads"], kept):
            self.assertEqual(type(got), torch.Tensor)
            self.assertTrue(torch.allclose(got, out.grad[:len(self.ids)]))
            self.assertGreater(got.abs().sum().item(), 0)
        self.assertIsInstance(r.mediators[1].error, RuntimeError)
        self.assertIn("'never' holds the gradient of model.transformer.h.0.output[0], which no "
                      ".backward() of this mediator reached", str(r.mediators[1].error))

    def test_retain_grad_then_grad_after_backward(self):
        plan = ivc.compile("""\
with model.trace(ids) as tracer:
    h = model.transformer.h[1].output[0]
    h.retain_grad()
    model.lm_head.output.sum().backward()
    g = h.grad.save()
""", filename="retain.py", policy="ndif")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")
        model = TinyGPT()
        r = self.rt.run(plan, model, [self.ids], {"ids": self.ids})
        kept = []
        hook = model.transformer.h[1].register_forward_hook(
            lambda m, a, out: out[0].retain_grad() or kept.append(out[0]))
        model(self.ids).sum().backward()
        hook.remove()
        self.assertTrue(torch.allclose(r["g"], kept[0].grad))
        self.assertGreater(r["g"].abs().sum().item(), 0)

    def test_the_code_that_runs_is_the_code_that_was_checked(self):
        # Lines that start inside a string keep their blanks: moving the
        # body to column 0 must not change a string's value (a format field
        # `backward.    __globals__` is harmless; `backward.__globals__` is
        # not). Line ends are CRLF and CR alone, and a form feed starts a line.
        source = ("import nnsight\n"
                  "if True:\n"
                  "    def f():\n"
                  "        return \"\"\"x\n        y\"\"\"\n"
                  "with model.trace(ids):\r\n"
                  "    h = model.transformer.h[0].output[0]\r\n"
                  "    s = \"\"\"a\n    b\"\"\"\r\n"
                  "    t = \"{0.backward.\\\n    __globals__}\"\r"
                  "\f    n = nnsight.save((len(s), len(t)))\n"
                  "    k = nnsight.save(f())\n"
                  "    out = h.sum().save()\n")
        plan = ivc.compile(source, filename="strings.py", policy="ndif")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")
        r = self.rt.run(plan, TinyGPT(), [self.ids], {"ids": self.ids})
        self.assertEqual(r.errors, [])
        self.assertEqual(r["n"], (len("a\n    b"), len("{0.backward.    __globals__}")))
        self.assertEqual(r["k"], "x\n        y")

    def test_saves_through_helpers_and_annotations_come_back(self):
        plan = ivc.compile("""\
import torch
def grab(block):
    return block.output[0].save()
with model.trace(ids):
    typed: torch.Tensor = model.transformer.h[0].output[0].save()
    grabbed = grab(model.transformer.h[1])
""", filename="helpers.py", policy="ndif")
        model = TinyGPT()
        r = self.rt.run(plan, model, [self.ids], {"ids": self.ids})
        kept = {}
        hooks = [model.transformer.h[i].register_forward_hook(
            lambda m, a, out, i=i: kept.__setitem__(i, out[0])) for i in (0, 1)]
        model(self.ids)
        for h in hooks:
            h.remove()
        self.assertTrue(torch.equal(r["typed"], kept[0]))
        self.assertTrue(torch.equal(r["grabbed"], kept[1]))

    def test_invokes_fill_one_list_made_before_them(self):
        # `acts = []` before the trace, or `acts = nnsight.list().save()` in
        # its body before the invokes: each invoke appends to it, and the
        # result holds every invoke's items in invoke order, in either tier.
        for setup, inside in (("acts = []\n", ""), ("", "    acts = nnsight.list().save()\n")):
            plan = ivc.compile(
                "import nnsight\nseen = {}\n" + setup + "with model.trace() as tracer:\n" +
                inside + "    scale = 2\n"
                "    with tracer.invoke(ids):\n"
                "        acts.append(model.transformer.h[0].output[0].save())\n"
                "        seen['a'] = 1\n"
                "    with tracer.invoke(ids):\n"
                "        acts.append((model.transformer.h[1].output[0] * scale).save())\n"
                "        seen['b'] = nnsight.save(2)\n",
                filename="gather.py", policy="ndif")
            model = TinyGPT()
            kept = {}
            hooks = [model.transformer.h[i].register_forward_hook(
                lambda m, a, out, i=i: kept.__setitem__(i, out[0])) for i in (0, 1)]
            model(torch.cat([self.ids] * 3))  # (the body is a mediator too)
            for h in hooks:
                h.remove()
            n = len(self.ids)
            for tiers in ({}, {1: "isolate"}):
                r = self.rt.run(plan, model, [self.ids] * 3, {"ids": self.ids},
                                tiers=tiers or None)
                self.assertEqual(r.errors, [])
                self.assertEqual(len(r["acts"]), 2, (setup, tiers))
                self.assertTrue(torch.equal(r["acts"][0], kept[0][:n]))
                self.assertTrue(torch.equal(r["acts"][1], kept[1][n:2 * n] * 2))
                self.assertEqual(r["seen"], {"a": 1, "b": 2})

    def test_the_grad_of_a_tensor_the_mediator_computed(self):
        # nnsight's `.grad` of any tensor read before the backward pass, not
        # only of a delivered activation: SAE latents, say.
        plan = ivc.compile("""\
with model.trace(ids):
    h = model.transformer.h[0].output[0]
    f = h * 2
    g = f.grad.save()
    model.transformer.h[0].output[0][:] = f
    model.lm_head.output.sum().backward()
""", filename="latents.py", policy="ndif")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")
        model = TinyGPT()
        r = self.rt.run(plan, model, [self.ids], {"ids": self.ids})
        kept = []

        def double(m, a, out):
            f = out[0] * 2
            f.retain_grad()
            out[0][:] = f
            kept.append(f)

        hook = model.transformer.h[0].register_forward_hook(double)
        model(self.ids).sum().backward()
        hook.remove()
        self.assertTrue(torch.allclose(r["g"], kept[0].grad))
        self.assertGreater(r["g"].abs().sum().item(), 0)

    def test_a_grad_one_mediator_reshaped_does_not_fail_anothers_backward(self):
        # The hooks that fill `.grad` run in the backward pass the mediators
        # share: one whose tensor was reshaped since stays unfilled.
        plan = ivc.compile("""\
with model.trace() as tracer:
    with tracer.invoke(ids):
        g = model.transformer.h[0].output[0].grad
        g.transpose_(0, 2)
    with tracer.invoke(ids):
        b = model.transformer.h[0].output[0].grad.save()
        model.lm_head.output.sum().backward()
""", filename="reshaped.py", policy="ndif")
        r = self.rt.run(plan, TinyGPT(), [self.ids] * 2, {"ids": self.ids})
        self.assertEqual(r.errors, [])
        self.assertGreater(r["b"].abs().sum().item(), 0)

    def test_an_activations_grad_is_a_tensor_once_backward_has_run(self):
        # Read before the pass, used after it, inside the trace, as a tensor.
        plan = ivc.compile("""\
with model.trace(ids) as tracer:
    h = model.transformer.h[1].output[0]
    g = h.grad
    model.lm_head.output.sum().backward()
    positive = (g > 0).sum().save()
    attribution = (h * g).sum(-1).save()
    where = g.shape
""", filename="after.py", policy="ndif")
        r = self.rt.run(plan, TinyGPT(), [self.ids], {"ids": self.ids})
        self.assertEqual(r["attribution"].shape, self.ids.shape)
        self.assertGreater(r["positive"].item(), 0)

    def test_a_dotted_receiver_is_bound_in_both_tiers(self):
        source = (
            "class Probe:\n"
            "    def run(self, ids):\n"
            "        with self.model.trace(ids):\n"
            "            h = self.model.transformer.h[1].output[0]\n"
            "            self.model.transformer.h[1].output[0][:] = h * 2\n"
            "            logits = self.model.lm_head.output.save()\n"
        )
        plan = ivc.compile(source, filename="probe.py")
        self.assertEqual(plan.trace(0).mediators[0].free_names, [])
        fast = self.rt.run(plan, self.model, [self.ids], {})
        isolated = self.rt.run(plan, self.model, [self.ids], {}, tiers={0: "isolate"})
        self.assertEqual([m.tier for m in (fast.mediators[0], isolated.mediators[0])],
                         ["fast", "isolate"])
        assert_same(self, fast.saves, isolated.saves)
        expected = Hooked(self.model).replace(
            "transformer.h.1", lambda out: (out[0] * 2,) + tuple(out[1:]))(self.ids)
        self.assertTrue(torch.equal(fast["logits"], expected))
        # `self` read otherwise is the caller's object, which cannot cross:
        # the analyzer rejects the mediator (IVC213), and a runtime refuses
        # a plan that says otherwise.
        rejected = ivc.compile(source.replace("h * 2", "h * self.scale"), filename="probe.py")
        mediator = rejected.trace(0).mediators[0]
        self.assertEqual(mediator.tier, "reject")
        self.assertIn("IVC213", [r["code"] for r in mediator.reasons])
        forged = copy.deepcopy(rejected.data)
        forged["traces"][0]["mediators"][0]["tier"] = "fast"
        with self.assertRaisesRegex(ivc.PlanError, "reads 'self' other than as the receiver"):
            ivc.load_plan(json.dumps(forged))

    def test_plan_from_another_policy_is_refused(self):
        plan = ivc.compile(FAST, filename="steer.py", policy="strict")
        with self.assertRaisesRegex(ivc.PlanError, "made under policy 'strict'"):
            self.rt.run(plan, self.model, [self.ids], {"steering": torch.zeros(32)})

    def test_bad_options_and_plans(self):
        with self.assertRaisesRegex(ivc.PlanError, "no-such-policy"):
            ivc.compile(FAST, filename="x.py", policy="no-such-policy")
        with self.assertRaisesRegex(ivc.PlanError, "not valid JSON"):
            ivc.load_plan("{")
        with self.assertRaisesRegex(ivc.PlanError, "schema"):
            ivc.load_plan({"schema": "ivc-plan/v0", "traces": []})
        with self.assertRaisesRegex(ivc.PlanError, r"traces\[0\].mediators\[0\]: missing field 'tier'"):
            ivc.load_plan({"schema": "ivc-plan/v1", "traces": [
                {"receiver": "model", "mediators": [{"source": ""}]}]})
        with self.assertRaisesRegex(ivc.PlanError, "'maybe' is not one of"):
            ivc.load_plan({"schema": "ivc-plan/v1", "traces": [
                {"receiver": "model", "mediators": [{"source": "", "tier": "maybe"}]}]})
        with self.assertRaisesRegex(ivc.PlanError, r"definitions\[0\].scope: 'function' is not"):
            ivc.load_plan({"schema": "ivc-plan/v1", "traces": [
                {"receiver": "model", "mediators": [{"source": "", "tier": "fast",
                                                     "definitions": [{"name": "f", "source": "",
                                                                      "scope": "function"}]}]}]})
        with self.assertRaisesRegex(ivc.PlanError, "function_names: not all of them are free"):
            ivc.load_plan({"schema": "ivc-plan/v1", "traces": [
                {"receiver": "model", "mediators": [{"source": "", "tier": "fast",
                                                     "function_names": ["n"]}]}]})
        # Unknown fields are ignored.
        p = ivc.load_plan({"schema": "ivc-plan/v1", "future": 1, "traces": [
            {"receiver": "model", "new": [], "mediators": [{"source": "x = 1\n", "tier": "fast",
                                                            "saves": ["x"], "extra": {}}]}]})
        plain = ivc.Runtime()  # no policy bound: hand-written plans are accepted
        self.addCleanup(plain.close)
        self.assertEqual(plain.run(p, self.model, [self.ids])["x"], 1)
        with self.assertRaisesRegex(ivc.PlanError, "made under policy None"):
            self.rt.run(p, self.model, [self.ids])
        plan = ivc.compile(FAST, filename="steer.py")
        with self.assertRaisesRegex(ivc.PlanError, "no value given for free name"):
            self.rt.run(plan, self.model, [self.ids])
        with self.assertRaisesRegex(ivc.PlanError, "1 mediators but 2 inputs"):
            self.rt.run(plan, self.model, [self.ids, self.ids], {"steering": torch.zeros(32)})

    def test_constants_a_verdict_rests_on_come_from_the_plan(self):
        # FAST because `scale` is 2: a caller's -1 would trap the division and
        # kill the process. The plan carries the constants (and the dispatch
        # table and closure made from the file's functions), which the
        # runtime binds whatever the caller passes.
        plan = ivc.compile(CONSTANTS, filename="constants.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.tier, "fast")
        self.assertEqual(m.free_names, ["torch"])
        self.assertEqual([n for n, _ in m.definitions],
                         ["double", "make_scale", "scale", "METRICS", "halve", "width"])
        hostile = {"scale": -1, "METRICS": {"double": 1}, "halve": 3, "width": 2**40}
        for tier in ("fast", "isolate"):
            r = self.rt.run(plan, self.model, [self.ids], hostile, tiers={0: tier})
            self.assertEqual(r["q"].item(), -2**62, tier)
            self.assertTrue(torch.equal(r["d"], r["h"] * 4), tier)
            self.assertEqual(r["pad"].shape, (4,), tier)

    def test_the_function_around_a_trace_is_the_callers_but_for_what_the_plan_pins(self):
        # The runtime runs the body, not `run`: `scale` is pinned (a caller's
        # -1 would trap FAST), `helper` and the module's conditional `triple`
        # are definitions, and `n` is the caller's (so `// n` is ISOLATE).
        plan = ivc.compile(AROUND, filename="around.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual((m.tier, m.free_names), ("isolate", ["n", "torch"]))
        self.assertEqual([n for n, _ in m.definitions], ["triple"])
        self.assertEqual(sorted(n for n, _ in m.function_definitions), ["helper", "scale"])
        self.assertEqual((m.in_function, m.function_names), (True, ["n"]))
        hostile = {"scale": -1, "n": 1.0}
        for tier in ("fast", "isolate"):
            r = self.rt.run(plan, self.model, [self.ids], hostile, tiers={0: tier})
            self.assertEqual(r["q"].item(), -2**62, tier)
            self.assertTrue(torch.equal(r["h"], r["logits"] * 6 + 1.0), tier)

    def test_the_function_around_a_trace_keeps_its_names_apart_from_the_modules(self):
        # As in Python: the module's helpers see the module's `scale` and
        # `eval`, whatever `run` and its body bind under those names.
        plan = ivc.compile(LAYERS, filename="layers.py")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")
        for tier in ("fast", "isolate"):
            r = self.rt.run(plan, self.model, [self.ids], tiers={0: tier})
            self.assertEqual(r["q"].item(), 3, tier)  # 7 // the module's 2
            self.assertEqual(r["w"].item(), -1, tier)  # times run's -1
            # ident("text"), not eval; the module's max, the function's mul
            self.assertEqual(r["said"].tolist(), [4, 1, 6], tier)

    def test_names_for_parts_of_the_model_are_bound_in_both_tiers(self):
        # `block = model.transformer.h[1]` outside the trace is a name for a
        # submodule, `model.config.n_embd` a plain value of the model's
        # configuration (a copy no trace can change), with its aliases.
        plan = ivc.compile(ALIASES, filename="aliases.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.model_aliases, {"block": "transformer.h.1", "head": "lm_head",
                                           "layers": "config.num_hidden_layers",
                                           "width": "config.n_embd"})
        self.assertEqual(m.free_names, ["torch"])

        class Config:
            attribute_map = {"num_hidden_layers": "n_layer"}

            def to_dict(self):
                return {"n_embd": 32, "n_layer": 2, "names": ["a", "b", "c"],
                        "loader": object(), "_private": 1}

        model = TinyGPT()
        model.config = Config()
        hooked = Hooked(model)
        hooked.capture("transformer.h.1").capture("lm_head")(self.ids)
        expected = hooked.seen
        for tier in ("fast", "isolate"):
            r = self.rt.run(plan, model, [self.ids], {"ids": self.ids}, tiers={0: tier})
            self.assertEqual(r.mediators[0].error, None, tier)
            self.assertTrue(torch.equal(r["h"], expected["transformer.h.1"][0]), tier)
            self.assertTrue(torch.equal(r["logits"], expected["lm_head"]), tier)
            self.assertEqual(r["sizes"].tolist(), [32, 2, 4], tier)
        # Only numbers are copied (the analysis types config values as
        # numbers), and the copy is read only.
        r = self.rt.run(ivc.compile("with model.trace(ids):\n    x = model.config.names\n"),
                        model, [self.ids], {"ids": self.ids}, raise_errors=False)
        self.assertIn("no number 'names'", str(r.mediators[0].error))
        self.assertEqual(ivc._runtime._model_config(model),
                         {"n_embd": 32, "n_layer": 2, "num_hidden_layers": 2})
        config = ivc._mediator.ModelConfig({"n": 2})
        with self.assertRaises(AttributeError):
            config.n = 3
        with self.assertRaises(TypeError):
            config._values["n"] = 3  # (a body cannot name it; an alias cannot reach it)
        self.assertEqual((config.n, config.to_dict()), (2, {"n": 2}))

    def test_a_name_for_the_model_never_reaches_past_it(self):
        # `model.__class__.__init__.__globals__` bound above the trace is no
        # part of the model: the analysis makes it the caller's free name,
        # and a plan that says otherwise is refused.
        source = ("g = model.__class__.__init__.__globals__\n"
                  "v = model.config._values\n"
                  "with model.trace(ids):\n    s = g['os'].environ\n    w = v\n")
        m = ivc.compile(source).trace(0).mediators[0]
        self.assertEqual(m.model_aliases, {})
        self.assertEqual(sorted(m.free_names), ["g", "v"])
        for path in ("__class__.__init__.__globals__", "config._values", "transformer._modules"):
            with self.assertRaisesRegex(ivc.PlanError, "public names"):
                ivc.load_plan(plans.plan(plans.mediator("x = g\n", model_aliases={"g": path})))
        with self.assertRaisesRegex(AttributeError, "cannot reach"):
            ivc._mediator._alias_target(ivc._mediator.ModelConfig({"n": 2}), "n.real")

    def test_the_functions_unassigned_locals_are_unbound(self):
        plan = ivc.compile(UNASSIGNED, filename="unassigned.py")
        for trace, name in ((0, "eval"), (1, "D")):
            self.assertIn(name, plan.trace(trace).mediators[0].function_locals)
            for tier in ("fast", "isolate"):
                r = self.rt.run(plan, self.model, [self.ids], trace=trace, tiers={0: tier},
                                raise_errors=False)
                self.assertEqual([type(e) for e in r.errors], [NameError], (trace, tier))
                self.assertIn(repr(name), str(r.errors[0]), (trace, tier))

    def test_definitions_run_in_source_order(self):
        # As Python runs the module: a default reads the constant above it,
        # and the later of two defs of one name is the one called.
        plan = ivc.compile(ORDER, filename="order.py")
        for tier in ("fast", "isolate"):
            r = self.rt.run(plan, self.model, [self.ids], tiers={0: tier})
            self.assertEqual(r["said"].tolist(), [4, 2], tier)

    def test_a_barrier_made_in_the_trace_body_is_the_plans(self):
        # `barrier = tracer.barrier(2)` in the body before the invokes: the
        # plan says so, and the runtime binds it (nothing for the caller).
        plan = ivc.compile(BARRIER, filename="barrier.py")
        invokes = [m for m in plan.trace(0).mediators if m.kind == "invoke"]
        self.assertEqual([(m.barriers, "barrier" in m.free_names, m.tier) for m in invokes],
                         [({"barrier": 2}, False, "fast"), ({"barrier": 2}, False, "fast")])
        results = [self.rt.run(plan, self.model, [self.ids] * 3, tiers={0: t, 1: t, 2: t})
                   for t in ("fast", "isolate")]
        for bad in ({"barrier": 0}, {"barrier": True}, {"for": 2}, {"x": 2, "y": 1 << 20}):
            with self.assertRaises(ivc.PlanError):
                ivc.load_plan(plans.plan(plans.mediator("barrier()\n", barriers=bad)))
        self.assertEqual([r.errors for r in results], [[], []])
        assert_same(self, results[0].saves, results[1].saves)

    def test_random_draws_from_a_generator_of_the_mediators_own(self):
        # Seeded as torch's is: the same numbers in both tiers, and the
        # host's own `random` state untouched.
        plan = ivc.compile(RANDOM, filename="draws.py")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")
        random.seed(5)
        before = random.getstate()
        fast = self.rt.run(plan, self.model, [self.ids], seed=7)
        self.assertEqual(random.getstate(), before)
        isolated = self.rt.run(plan, self.model, [self.ids], seed=7, tiers={0: "isolate"})
        self.assertEqual(isolated.mediators[0].tier, "isolate")
        self.assertTrue(torch.equal(fast["draws"], isolated["draws"]))
        other = self.rt.run(plan, self.model, [self.ids], seed=8)
        self.assertFalse(torch.equal(fast["draws"], other["draws"]))

    def test_guards_run_a_mediator_isolate_when_the_callers_values_break_them(self):
        plan = ivc.compile(GUARDED, filename="guarded.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.tier, "fast")
        self.assertEqual(m.guards, {"k": ("number", 65536), "s": ("number_or_tensor", None),
                                    "coeff": ("number_or_tensor", None),
                                    "vec": ("number_or_tensor", None)})
        fine = {"k": 3, "s": 2, "coeff": 0.5, "vec": torch.ones(32)}
        for values, tier in ((fine, "fast"), ({**fine, "s": "ab"}, "isolate"),
                             ({**fine, "k": 2**20}, "isolate"), ({**fine, "k": True}, "isolate"),
                             ({**fine, "k": float("nan")}, "isolate"),
                             ({**fine, "coeff": [1]}, "isolate")):
            r = self.rt.run(plan, self.model, [self.ids], values, raise_errors=False)
            self.assertEqual(r.mediators[0].tier, tier, values)
        r = self.rt.run(plan, self.model, [self.ids], {**fine, "s": "ab"})
        self.assertEqual(r.logs, ["ab" * 32])
        # An int past a float's range breaks the guard (not the check): the
        # channel then refuses it, as it refuses any past 64 bits.
        with self.assertRaisesRegex(ValueError, "64-bit"):
            self.rt.run(plan, self.model, [self.ids], {**fine, "k": 10**400})
        self.assertEqual(r["pad"].shape, (3, 2))

    def test_saved_values_kept_in_containers_come_back_in_them(self):
        plan = ivc.compile(KEPT, filename="kept.py")
        self.assertEqual(sorted(plan.trace(0).mediators[0].saves), ["by_layer", "hs", "pair"])
        self.assertEqual(plan.trace(1).mediators[0].saves, ["every"])
        for tier in ("fast", "isolate"):
            kept, every = (self.rt.run(plan, self.model, [self.ids], tiers={0: tier}, trace=t)
                           for t in (0, 1))
            self.assertEqual((len(kept["hs"]), len(every["every"])),
                             (2, len(self.model.transformer.h)), tier)
            self.assertTrue(torch.equal(kept["hs"][1], every["every"][1]), tier)
            self.assertEqual(kept["by_layer"]["last"].shape[-1], self.model.lm_head.out_features)
            self.assertNotIn("stacked", kept)  # torch.stack keeps no saved value
            self.assertEqual(kept["pair"]["a"][1], 1)

    def test_a_tensor_guard_bounds_every_dimension_an_empty_one_included(self):
        plan = ivc.compile(SHAPED, filename="shaped.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual((m.tier, m.guards), ("fast", {"v": ("tensor", 4096)}))
        unit = torch.nn.functional.normalize(torch.ones(32), dim=0)
        for v, tier in ((unit, "fast"), (torch.zeros(2**13), "isolate"),
                        (torch.zeros(2**20, 0), "isolate"), (torch.zeros(64, 64), "fast"),
                        (torch.nn.Parameter(unit), "isolate"), (3, "isolate")):
            r = self.rt.run(plan, self.model, [self.ids], {"v": v}, raise_errors=False)
            self.assertEqual(r.mediators[0].tier, tier, tuple(getattr(v, "shape", ())))
        r = self.rt.run(plan, self.model, [self.ids], {"v": unit})
        self.assertTrue(torch.allclose(r["flip"], r["h"] - 2 * (r["h"] @ unit)[..., None] * unit,
                                       atol=1e-5))

    def test_a_callers_tensor_larger_than_the_analyzer_counts_runs_isolate(self):
        # The analyzer counts a caller's tensor as at most 2^24 elements (what
        # the channel carries); in process nothing else holds it to that.
        plan = ivc.compile("import torch\ndef run(ids, v):\n    with model.trace(ids):\n"
                           "        w = v.repeat(16).sum().save()\n", filename="big.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual((m.tier, m.guards), ("fast", {}))
        for v, tier in ((torch.ones(64), "fast"), (torch.ones(2**24 + 1), "isolate")):
            r = self.rt.run(plan, self.model, [self.ids], {"v": v}, raise_errors=False)
            self.assertEqual(r.mediators[0].tier, tier)

    def test_a_name_a_definition_may_rebind_gets_no_guard(self):
        # The runtime would check k before the default runs (test_semantics
        # holds the runtime against a plan that guards it anyway).
        compiled = ivc.compile("import torch\ndef run(ids, k):\n"
                               "    def f(x=(k := 2**30)):\n        return x\n"
                               "    with model.trace(ids):\n        z = torch.zeros(k)\n",
                               filename="walrus.py")
        self.assertEqual(compiled.trace(0).mediators[0].guards, {})

    def test_a_free_names_kind_the_verdict_rests_on_is_checked(self):
        # steering is a tensor to the analyzer (what the file binds it to):
        # `steering * scale` is a product of tensors, not a str repeated.
        plan = ivc.compile(KINDS, filename="kinds.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.free_types, {"steering": "tensor", "scale": "number"})
        r = self.rt.run(plan, self.model, [self.ids], {"steering": torch.ones(2), "scale": 3})
        self.assertTrue(torch.equal(r["boost"], torch.full((2,), 3.0)))
        for values, kind in (({"steering": "a", "scale": 2 ** 30}, "tensor"),
                             ({"steering": torch.ones(2), "scale": True}, "number"),
                             ({"steering": torch.ones(2), "scale": "3"}, "number")):
            with self.assertRaisesRegex(ivc.PlanError, f"is a {kind} to the analyzer"):
                self.rt.run(plan, self.model, [self.ids], values)

    def test_a_shadowed_builtin_is_never_the_builtin_at_run_time(self):
        # `eval = torch.abs` is a definition the plan carries: the mediator
        # calls torch.abs. The other bindings are not (the caller would
        # supply eval, and none does): eval is unbound. Never the real eval,
        # and never a statement around a lambda (it would open the marker).
        with tempfile.TemporaryDirectory() as d:
            marker = os.path.join(d, "ran")
            for binding, error, says in (
                    ("torch.abs", TypeError, "abs()"),
                    ("getattr(torch, 'abs')", NameError, "'eval'"),
                    ("torch.abs\neval = torch.abs", NameError, "'eval'"),
                    (f"[lambda s: s, open({marker!r}, 'w')][0]", NameError, "'eval'")):
                source = (f"import torch\neval = {binding}\n"
                          f"with model.trace() as tracer:\n"
                          f"    with tracer.invoke(a):\n"
                          f"        x = eval(\"open({marker!r}, 'w')\")\n"
                          f"    with tracer.invoke(b):\n"
                          f"        y = model.lm_head.output.save()\n")
                plan = ivc.compile(source, filename="shadow.py")
                for tier in ("fast", "isolate"):
                    r = self.rt.run(plan, self.model, [self.ids, self.ids],
                                    tiers={0: tier, 1: tier}, raise_errors=False)
                    self.assertIsInstance(r.mediators[0].error, error, (binding, tier))
                    self.assertIn(says, str(r.mediators[0].error))
                    self.assertFalse(os.path.exists(marker), tier)
                    self.assertIn("y", r)

    def test_a_name_a_runtime_binds_to_a_module_is_judged_as_that_module_too(self):
        # A runtime imports an allowed module for a free name of its name,
        # whatever the file bound it to.
        for source, code in [
                ("torch = [0]\nwith model.trace(x):\n    torch.save('data', 'f.pt')\n", "IVC307"),
                ("import numpy as torch\nwith model.trace(x):\n    torch.save('d', 'f.pt')\n",
                 "IVC307")]:
            plan = ivc.compile(source, filename="alias.py")
            m = plan.trace(0).mediators[0]
            self.assertEqual(m.tier, "isolate", source)
            self.assertIn(code, [r["code"] for r in m.reasons], source)
        # `import torch` itself is the module, as before.
        plan = ivc.compile("import torch\nwith model.trace(x):\n    y = torch.relu(model.lm_head.output).save()\n",
                           filename="plain.py")
        self.assertEqual(plan.trace(0).mediators[0].tier, "fast")

    def test_values_cannot_rebind_what_the_analyzer_judged_as_a_module(self):
        # nnsight.save(h) is FAST because `nnsight` is the mediator library's
        # own, np.asarray because `np` is numpy, tf.split because `tf` is
        # torch.functional: torch.save, torch.asarray or re.split in their
        # place would run what was never judged.
        plan = ivc.compile("import nnsight\nimport numpy as np\nimport torch\n"
                           "from torch import functional as tf, zeros\n"
                           "with model.trace(x):\n"
                           "    h = nnsight.save(torch.relu(model.transformer.h[0].output[0]))\n"
                           "    n = np.asarray([1.0]).sum() + zeros(1)\n"
                           "    parts = tf.split(h, 1)\n", filename="n.py")
        m = plan.trace(0).mediators[0]
        self.assertEqual(m.tier, "fast")
        self.assertEqual(m.free_imports, {"nnsight": "nnsight", "np": "numpy", "tf": "torch.functional",
                                          "torch": "torch", "zeros": "torch.zeros"})
        for values in ({"nnsight": torch}, {"nnsight": "anything"}, {"torch": os},
                       {"np": torch}, {"np": 3}, {"tf": __import__("re")}, {"zeros": torch.ones}):
            with self.assertRaisesRegex(ivc.PlanError, "cannot be given", msg=str(values)):
                self.rt.run(plan, TinyGPT(), [tokens()], values)
        # Modules the file imports need no value; the same module may be given.
        for values in ({}, {"np": numpy, "torch": torch}):
            r = self.rt.run(plan, TinyGPT(), [tokens()], values)
            self.assertEqual(r.mediators[0].error, None)
            self.assertIn("h", r)

    def test_malformed_plan_fields_are_refused_when_read(self):
        def with_mediator(**fields):
            m = {"source": "x = 1\n", "tier": "fast", **fields}
            return {"schema": "ivc-plan/v1", "traces": [{"receiver": "model", "mediators": [m]}]}

        for doc, text in [
                ("[" * 100000 + "]" * 100000, "nested too deeply"),
                (with_mediator(index=1 << 70), r"mediators\[0\].index: \d+ is out of range"),
                (with_mediator(source="x = 1\0"), "contains a NUL character"),
                (with_mediator(source="x = '\ud800'"), "lone surrogate"),
                (with_mediator(definitions=[{"name": "a b", "source": ""}]), "not a Python name"),
                (with_mediator(free_names=["v"], free_types={"v": "module"}),
                 "free_types: 'v' is not a free name of a kind"),
                (with_mediator(free_types={"v": "tensor"}), "free_types: 'v' is not a free name"),
                (with_mediator(free_names=["v"], guards={"v": {"kind": "tensor"}}),
                 "guards: 'v' is not a free name guarded as"),
                (with_mediator(free_names=["v"], guards={"v": {"kind": "tensor", "most": 0}}),
                 "guards: 'v' is not a free name guarded as"),
                (with_mediator(free_names=["v"],
                               guards={"v": {"kind": "number_or_tensor", "most": 4}}),
                 "guards: 'v' is not a free name guarded as"),
                (with_mediator(free_names=["v"],
                               guards={"v": {"kind": "number", "most": 4, "least": 1}}),
                 "guards: 'v' is not a free name guarded as"),
                ({"schema": "ivc-plan/v1", "traces": [{"receiver": "class", "mediators": []}]},
                 "'class' is not a Python name"),
                ({"schema": "ivc-plan/v1", "traces": [{"receiver": "m", "tracer": "m",
                                                       "mediators": []}]},
                 "the same name as the receiver")]:
            with self.assertRaisesRegex(ivc.PlanError, text):
                ivc.load_plan(doc)
        # The analyzer's own receivers, attribute chains included, are names.
        ivc.load_plan({"schema": "ivc-plan/v1", "traces": [
            {"receiver": "self.model", "tracer": "tr", "mediators": []}]})

    def test_run_arguments_are_checked_before_anything_runs(self):
        plain = ivc.Runtime()
        p = ivc.load_plan(plans.plan(plans.mediator("x = 1\n")))
        for kw, error, text in [
                (dict(tiers={"0": "isolate"}), ivc.PlanError, "has no mediator '0'"),
                (dict(tiers={7: "isolate"}), ivc.PlanError, "has no mediator 7"),
                (dict(tiers=["isolate"]), ivc.PlanError, "tiers must be a dict"),
                (dict(tenant=5), TypeError, "tenant must be a str"),
                (dict(model=lambda x: x), TypeError, "model must be a torch.nn.Module"),
                (dict(inputs=[()]), ivc.PlanError, "same number of positional inputs")]:
            args = dict(plan=p, model=self.model, inputs=[self.ids])
            args.update(kw)
            with self.assertRaisesRegex(error, text):
                plain.run(**args)
        two = plans.plan(plans.mediator("x = 1\n", kind="invoke"),
                         plans.mediator("y = 1\n", kind="invoke", index=1))
        with self.assertRaisesRegex(ivc.PlanError, "cannot be batched"):
            plain.run(two, self.model, [self.ids, self.ids[:, :5]])
        with self.assertRaisesRegex(ivc.PlanError, "differs between invokes"):
            plain.run(two, self.model, [(self.ids, self.ids), (self.ids, 3)])
        plain.close()
        with self.assertRaisesRegex(ivc.IvcError, "closed"):
            plain.run(p, self.model, [self.ids])

    def test_bad_sandbox_configs_fail_when_the_runtime_is_made(self):
        for kw, error, text in [
                (dict(open_files=0), ValueError, "'open_files' must be at least 16"),
                (dict(download_bytes=0), ValueError, "fit in its 'max'"),
                (dict(import_allowlist="torch"), TypeError, "import_allowlist must be a list"),
                (dict(allow_jit="no"), TypeError, "allow_jit must be bool"),
                (dict(trace_timeout_s="5"), TypeError, "trace_timeout_s must be float")]:
            with self.assertRaisesRegex(error, text):
                ivc.Runtime(ivc.SandboxConfig(**kw))

    def test_chains_as_deep_as_cpython_compiles(self):
        """A 2900-term sum is FAST and runs, compiled from a thread with a
        256 KiB stack: the analysis has a stack of its own. (CPython's own
        limit, about 3000 levels, counts the frames the compiling code runs
        in.)"""
        source = ("with model.trace(x):\n    y = model.lm_head.output\n    z = (" +
                  " + ".join(["y"] * 2900) + ").save()\n")
        plans = []
        threading.stack_size(256 << 10)
        try:
            t = threading.Thread(target=lambda: plans.append(ivc.compile(source, "deep.py")))
            t.start()
            t.join()
        finally:
            threading.stack_size(0)
        med = plans[0].trace(0).mediators[0]
        self.assertEqual(med.tier, "fast")
        self.assertEqual(med.reasons, [])
        r = self.rt.run(plans[0], self.model, [self.ids])
        self.assertEqual(r.errors, [])
        y = want = self.model(self.ids)
        for _ in range(2899):
            want = want + y
        self.assertTrue(torch.equal(r["z"], want))


if __name__ == "__main__":
    unittest.main()
