"""What mediators do, checked in both tiers: every case runs FAST and
ISOLATE, the saved values must be bit-identical, and they must match a
reference computed with plain torch hooks."""

import time
import types

from common import (CARRY_BACK_SOURCE, TIERS, ChangedLater, Hooked, TinyGPT, assert_same, ivc,
                    mediator, plan, run_both, runtime, tokens, torch, unittest)
from ivc import _core


class Looped(torch.nn.Module):
    """One submodule called three times in a forward."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(4)
        self.step = torch.nn.Linear(4, 4)

    def forward(self, x):
        for _ in range(3):
            x = torch.tanh(self.step(x))
        return x


class Iteration(unittest.TestCase):
    def test_iterating_over_calls(self):
        model, x = Looped(), torch.randn(2, 4, generator=torch.Generator().manual_seed(1))
        calls = []
        h = model.step.register_forward_hook(lambda m, a, out: calls.append(out.detach()))
        model(x)
        h.remove()
        # An open-ended loop ends the mediator when the model stops calling
        # (as in nnsight: nothing after it runs).
        p = plan(mediator("""
            every = []
            for _ in tracer.iter[:]:
                every.append(model.step.output)
            after = True
            """, saves=["every", "after"]))
        r = run_both(self, p, model, [x])
        self.assertEqual(len(r["every"]), 3)
        self.assertNotIn("after", r)
        self.assertEqual(r.errors, [])
        for got, want in zip(r["every"], calls):
            self.assertTrue(torch.equal(got, want))
        p = plan(mediator("""
            for i in tracer.iter[1:3]:
                model.step.output = model.step.output * 0
            last = model.step.next().next().output
            """, saves=["last"]))
        # Calls 1 and 2 are zeroed; a tanh of zero stays zero.
        r = run_both(self, p, model, [x])
        self.assertTrue(torch.equal(r["last"], torch.zeros(2, 4)))
        # An index past the last call is an error, not a quiet end.
        p = plan(mediator("x = [model.step.output for _ in tracer.iter[5]]\n"))
        err = runtime().run(p, model, [x], raise_errors=False).errors[0]
        self.assertIsInstance(err, ValueError)
        self.assertIn("never reached", str(err))


class ModuleLists(unittest.TestCase):
    def test_a_slice_of_a_module_list_is_a_tuple_of_its_envoys(self):
        # The analyzer types every item of it as a submodule: nothing else
        # may be put in it.
        model, ids = TinyGPT(), tokens()
        p = plan(mediator("""
            blocks = model.transformer.h[0:2]
            outs = [b.output[0] for b in blocks]
            n = len(blocks)
            """, saves=["outs", "n"]))
        r = run_both(self, p, model, [ids])
        self.assertEqual((r["n"], len(r["outs"])), (2, 2))
        for body, error in (("hs = model.transformer.h[0:0]\nhs.append('{0}')\n", AttributeError),
                            ("hs = model.transformer.h[:]\nhs[0] = '{0}'\n", TypeError)):
            for tier in TIERS:
                r = runtime().run(plan(mediator(body)), model, [ids], tiers={0: tier},
                                  raise_errors=False)
                self.assertIsInstance(r.errors[0], error, (body, tier))


class ModuleCalls(unittest.TestCase):
    def test_a_mediator_runs_a_module_on_its_own_values_outside_the_trace(self):
        # The logit lens: the last block's lens is the model's own logits,
        # and the model's own calls of ln_f and lm_head are still call 0.
        model, ids = TinyGPT(), tokens()
        p = plan(mediator("""
            lens = [model.lm_head(model.transformer.ln_f(b.output[0]))
                    for b in model.transformer.h]
            final = model.lm_head.output
            one = model.transformer.wte(ids[:, :1])
            """, saves=["lens", "final", "one"], free_names=["ids"]))
        r = run_both(self, p, model, [ids], {"ids": ids})
        self.assertEqual(len(r["lens"]), len(model.transformer.h))
        self.assertTrue(torch.equal(r["lens"][-1], r["final"]))
        self.assertFalse(torch.equal(r["lens"][0], r["final"]))
        self.assertTrue(torch.equal(r["one"], model.transformer.wte(ids[:, :1])))

    def test_what_a_module_call_may_take_and_make_is_bounded(self):
        model, ids = TinyGPT(), tokens()
        for body, error, says in (
                ("x = model.lm_head('h')\n", TypeError, "tensors, bools and None"),
                ("x = model.lm_head(torch.zeros(32), 2**40)\n", TypeError, "not int"),
                # Each token id is a position.
                ("x = model.transformer.wte(torch.zeros(1, 17, dtype=torch.long))\n",
                 ValueError, "17 vectors, where the trace's inputs have 16 positions"),
                ("x = model.lm_head(torch.zeros(3))\n", RuntimeError, "shape"),
                # More vectors than the inputs' 16 positions (attention is
                # quadratic in them).
                ("x = model.transformer.h[0](torch.zeros(1, 17, 32))\n", ValueError,
                 "17 vectors, where the trace's inputs have 16 positions"),
                ("x = model.lm_head(*[0] * 17)\n", TypeError, "at most 16")):
            for tier in TIERS:
                r = runtime().run(plan(mediator("import torch\n" + body)), model, [ids],
                                  tiers={0: tier}, raise_errors=False)
                self.assertIsInstance(r.errors[0], error, (body, tier))
                self.assertIn(says, str(r.errors[0]), (body, tier))


    def test_a_fast_mediators_module_calls_count_against_its_budget(self):
        # The host runs them outside the mediator's turns: their time is
        # charged all the same (three calls of a 0.3 s module, 0.5 s budget).
        class Sleepy(torch.nn.Module):
            def forward(self, x):
                time.sleep(0.3)
                return x

        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.slow = Sleepy()
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.lin(x)

        rt = ivc.Runtime(fast_timeout_s=0.5)
        self.addCleanup(rt.close)
        p = plan(mediator("""
            h = model.lin.output
            for _ in range(3):
                h = model.slow(h)
            """))
        r = rt.run(p, Model(), [torch.ones(1, 4)], tiers={0: "fast"}, raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)

    def test_a_module_call_may_make_at_most_so_many_elements(self):
        # (White box: a wide embedding on as many ids as the inputs allow.)
        from ivc._module_calls import MAX_MODULE_CALL_ELEMENTS, module_call_problem
        wide = torch.nn.Embedding(4, 2**20)
        ids = torch.zeros(2**9, dtype=torch.long)
        self.assertIsNone(module_call_problem(wide, (ids[:2**7],), {}, 2**9))
        problem = module_call_problem(wide, (ids,), {}, 2**9)
        self.assertEqual(problem[0], "ValueError")
        self.assertIn(f"may make more than {MAX_MODULE_CALL_ELEMENTS}", problem[1])


class RawWrites(unittest.TestCase):
    """Writes that bypass torch's version counter still reach the model from
    a worker: a numpy view, .data, the storage."""

    def test_writes_behind_torchs_back(self):
        rt = ivc.Runtime(ivc.SandboxConfig(preload=["torch", "numpy", "math"]))
        self.addCleanup(rt.close)
        model, ids = TinyGPT(), tokens(batch=2)
        bodies = {
            "numpy view": "arr = h.numpy()\narr[:, -1] += 1",
            ".data": "h.data[:, -1] += 1",
            "np.asarray": "h.__array__()[:, -1] += 1",
            "storage": "h.storage()[0] = 7.0",
            "view of a view": "h[1].numpy()[-1] *= 0",
            "read only": "x = float(h.numpy().sum())",
        }
        plain = Hooked(model)(ids)
        for name, body in bodies.items():
            p = plan(mediator("h = model.transformer.h[1].output[0]\n" + body +
                              "\nlogits = model.lm_head.output.save()\n", saves=["logits"]))
            fast, isolate = (rt.run(p, model, [ids], tiers={0: t})["logits"]
                             for t in ("fast", "isolate"))
            self.assertTrue(torch.equal(fast, isolate), name)
            self.assertEqual(torch.equal(fast, plain), name == "read only", name)


class CarryBack(unittest.TestCase):
    """Only what a mediator changed goes back: an in-place update of one
    delivery does not also carry back the others (deliveries share memory
    in a worker, but not their version counters), which would undo the
    model's own later change to them."""

    def test_an_update_carries_back_that_delivery_alone(self):
        model = ChangedLater()
        x = torch.randn(2, 4, generator=torch.Generator().manual_seed(5))
        r = run_both(self, plan(mediator(CARRY_BACK_SOURCE, saves=["out"])), model, [x])
        with torch.no_grad():
            a = model.first(x) + 100.0
            expected = model.last(a)
        self.assertTrue(torch.equal(r["out"], expected))


class Concurrency(unittest.TestCase):
    def test_runs_on_two_models_from_two_threads(self):
        import threading
        models = [TinyGPT(seed=1), TinyGPT(seed=2)]
        ids = tokens(batch=1)
        p = plan(mediator("""
            h = model.transformer.h[0].output[0]
            h += 1
            logits = model.lm_head.output.save()
            """, saves=["logits"]))
        expected = [Hooked(m).replace("transformer.h.0", lambda o: (o[0] + 1,))(ids)
                    for m in models]
        failures = []

        def work(i, tier):
            try:
                for _ in range(20):
                    r = runtime().run(p, models[i], [ids], tiers={0: tier})
                    if not torch.equal(r["logits"], expected[i]):
                        failures.append((i, tier))
            except Exception as e:  # noqa: BLE001
                failures.append(e)
        threads = [threading.Thread(target=work, args=(i, tier))
                   for i, tier in ((0, "fast"), (1, "isolate"), (1, "fast"), (0, "isolate"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])

    def test_two_runtimes_on_one_model_take_turns(self):
        import threading
        model, ids = TinyGPT(seed=3), tokens(batch=1)
        p = plan(mediator("""
            h = model.transformer.h[0].output[0]
            h += 1
            logits = model.lm_head.output.save()
            """, saves=["logits"]))
        expected = Hooked(model).replace("transformer.h.0", lambda o: (o[0] + 1,))(ids)
        other = ivc.Runtime(pool_size=1)
        self.addCleanup(other.close)
        failures = []

        def work(rt):
            try:
                for _ in range(30):
                    r = rt.run(p, model, [ids], tiers={0: "fast"})
                    if not torch.equal(r["logits"], expected):
                        failures.append("wrong logits")
            except Exception as e:  # noqa: BLE001
                failures.append(e)
        threads = [threading.Thread(target=work, args=(rt,)) for rt in (runtime(), other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


class CachedTable(torch.nn.Module):
    """Returns a view of its buffer, or of a tensor it keeps as a plain
    attribute (alone, in nested dicts, in a plain object), as rotary
    embeddings' caches do."""

    def __init__(self, keep="buffer"):
        super().__init__()
        table = torch.linspace(0, 1, 16 * 4).reshape(16, 4)
        self.keep = keep
        if keep == "buffer":
            self.register_buffer("kept", table)
        elif keep == "attribute":
            self.kept = table
        elif keep == "nested":
            self.cache = {"rope": {"cos": [table]}}
        else:
            self.cache = types.SimpleNamespace(cos=table)
        self.original = table.clone()

    @property
    def table(self):
        if self.keep == "nested":
            return self.cache["rope"]["cos"][0]
        return self.cache.cos if self.keep == "object" else self.kept

    def forward(self, n):
        return (self.table[:n],)


class CachedSlices(torch.nn.Module):
    def __init__(self, keep="buffer"):
        super().__init__()
        torch.manual_seed(0)
        self.embed = torch.nn.Embedding(16, 4)
        self.cached = CachedTable(keep)
        self.mix = torch.nn.Identity()
        self.head = torch.nn.Linear(4, 16)
        self.register_buffer("bias", torch.ones(6, 4))

    def forward(self, ids):
        x = self.embed(ids) * self.cached(ids.shape[1])[0]
        return self.head(x + self.mix(self.bias))


class Semantics(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = TinyGPT()
        cls.ids = tokens(batch=2)

    def test_read_and_save(self):
        p = plan(mediator("""
            hidden = model.transformer.h[1].output[0].save()
            logits = model.lm_head.output.save()
            shape = list(hidden.shape)
            mean = hidden.mean().item()
            label = "layer " + str(1)
            unsaved = 3
            """, saves=["hidden", "logits", "shape", "mean", "label"]))
        r = run_both(self, p, self.model, [self.ids])
        ref = Hooked(self.model).capture("transformer.h.1")
        logits = ref(self.ids)
        self.assertTrue(torch.equal(r["hidden"], ref.seen["transformer.h.1"][0]))
        self.assertTrue(torch.equal(r["logits"], logits))
        self.assertEqual(r["shape"], [2, 8, 32])
        self.assertEqual(r["mean"], ref.seen["transformer.h.1"][0].mean().item())
        self.assertEqual(r["label"], "layer 1")
        self.assertNotIn("unsaved", r)

    def test_swap_output(self):
        p = plan(mediator("""
            h = model.transformer.h[0].output[0]
            model.transformer.h[0].output = (h * 0.5,)
            logits = model.lm_head.output.save()
            """, saves=["logits"]))
        r = run_both(self, p, self.model, [self.ids])
        expected = Hooked(self.model).replace("transformer.h.0", lambda out: (out[0] * 0.5,))(self.ids)
        self.assertTrue(torch.equal(r["logits"], expected))
        self.assertFalse(torch.equal(r["logits"], self.model(self.ids)))

    def test_helper_functions(self):
        p = plan(mediator("""
            h = model.transformer.h[1].output[0]
            model.transformer.h[1].output = (steer(h, direction, 2.0),)
            logits = model.lm_head.output.save()
            """, saves=["logits"], free_names=["direction"],
            definitions=[("scale", "def scale(x, s):\n    return x * s\n"),
                         ("steer", "def steer(h, d, s):\n    return h + scale(d, s)\n")]))
        direction = torch.randn(32, generator=torch.Generator().manual_seed(3))
        r = run_both(self, p, self.model, [self.ids], {"direction": direction})
        expected = Hooked(self.model).replace(
            "transformer.h.1", lambda out: (out[0] + direction * 2.0,))(self.ids)
        self.assertTrue(torch.equal(r["logits"], expected))

    def test_in_place_update_of_a_delivered_activation(self):
        p = plan(mediator("""
            h = model.transformer.h[1].output[0]
            h[:, -1] += direction
            logits = model.lm_head.output.save()
            """, saves=["logits"], free_names=["direction"]))
        direction = torch.full((32,), 0.25)

        def bump(out):
            out[0][:, -1] += direction
            return out
        r = run_both(self, p, self.model, [self.ids], {"direction": direction})
        expected = Hooked(self.model).replace("transformer.h.1", bump)(self.ids)
        self.assertTrue(torch.equal(r["logits"], expected))
        self.assertFalse(torch.equal(r["logits"], self.model(self.ids)))

    def test_in_place_update_carried_by_the_last_message(self):
        # The mediator ends right after the update: END carries it back.
        p = plan(mediator("""
            h = model.transformer.h[2].output[0]
            h.mul_(2)
            """))
        results = [runtime().run(p, self.model, [self.ids], tiers={0: t}).output
                   for t in ("fast", "isolate")]
        expected = Hooked(self.model).replace("transformer.h.2", lambda o: (o[0] * 2,))(self.ids)
        for out in results:
            self.assertTrue(torch.equal(out, expected))

    def test_skip(self):
        p = plan(mediator("""
            model.transformer.h[1].mlp.skip(torch.zeros(2, 8, 32))
            logits = model.lm_head.output.save()
            """, saves=["logits"], free_names=["torch"]))
        r = run_both(self, p, self.model, [self.ids])
        expected = Hooked(self.model).replace("transformer.h.1.mlp", torch.zeros_like)(self.ids)
        self.assertTrue(torch.equal(r["logits"], expected))

    def test_a_skip_of_the_whole_batch_is_no_larger_than_the_module_could_make(self):
        # The rest of the forward runs on it: a block skipped with a
        # 1024-long sequence where the input has 8 would run every later
        # layer on it. The module runs instead.
        p = plan(mediator("""
            model.transformer.h[1].skip((torch.zeros(2, 1024, 32),))
            """, free_names=["torch"]))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids], tiers={0: tier}, raise_errors=False)
            self.assertIn("skip of transformer.h.1: a value of 65536 elements",
                          str(r.mediators[0].error), tier)
            self.assertTrue(torch.equal(r.output, self.model(self.ids)), tier)

    def test_saves_are_copied_once_each_and_never_expanded(self):
        # The host copies what a mediator saves: a tensor referenced a
        # thousand times once, and an expanded view (4 bytes standing for
        # 2^28 elements) not at all.
        p = plan(mediator("""
            h = model.transformer.h[0].output[0]
            many = [h] * 1000
            """, saves=["many"]))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids], tiers={0: tier})
            self.assertEqual(len(r["many"]), 1000)
            self.assertTrue(torch.equal(r["many"][999], r["many"][0]))
        p = plan(mediator("wide = [torch.zeros(1).expand(2**28)] * 4\n", saves=["wide"],
                          free_names=["torch"]))
        r = runtime().run(p, self.model, [self.ids], tiers={0: "fast"}, raise_errors=False)
        self.assertIn("(an expanded view) would be copied whole", str(r.mediators[0].error))

    def test_what_the_host_copies_for_a_fast_mediator_counts_against_its_memory(self):
        # Views of one tensor are each copied whole when saved, and every
        # read of a weight is a copy: both are host memory the mediator holds.
        rt = ivc.Runtime(fast_memory_bytes=16 << 20)
        self.addCleanup(rt.close)
        views = plan(mediator("t = torch.ones(2**18)\nparts = [t[i:] for i in range(64)]\n",
                              saves=["parts"], free_names=["torch"]))
        r = rt.run(views, self.model, [self.ids], tiers={0: "fast"}, raise_errors=False)
        self.assertIn("more than the", str(r.mediators[0].error))
        self.assertIn("left of the trace's fast_memory_bytes", str(r.mediators[0].error))
        big = torch.nn.Linear(1024, 1024)
        model = torch.nn.Sequential(big)
        reads = plan(mediator("ws = [model[0].weight for _ in range(8)]\n", saves=["ws"]))
        r = rt.run(reads, model, [torch.ones(1, 1024)], tiers={0: "fast"}, raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorMemoryExceeded)

    def test_a_second_skip_of_one_call_fails_its_mediator(self):
        p = plan(mediator("""
            for _ in range(3):
                model.transformer.h[1].mlp.skip(torch.zeros(2, 8, 32))
            """, free_names=["torch"]), mediator("logits = model.lm_head.output.save()\n",
                                                 saves=["logits"]))
        for tier in ("fast", "isolate"):
            r = runtime().run(p, self.model, [self.ids, self.ids], tiers={0: tier, 1: tier},
                              raise_errors=False)
            self.assertIn("skipped already in this call", str(r.mediators[0].error), tier)
            self.assertIsNone(r.mediators[1].error, tier)

    def test_input_read_and_swap(self):
        p = plan(mediator("""
            x = model.transformer.h[2].input.save()
            args, kwargs = model.transformer.h[2].inputs
            n_args = len(args)
            model.transformer.ln_f.input = model.transformer.ln_f.input * 0
            logits = model.lm_head.output.save()
            """, saves=["x", "n_args", "logits"]))
        r = run_both(self, p, self.model, [self.ids])
        ref = Hooked(self.model).capture("transformer.h.1")
        ref(self.ids)
        self.assertTrue(torch.equal(r["x"], ref.seen["transformer.h.1"][0]))
        self.assertEqual(r["n_args"], 1)
        ln = self.model.transformer.ln_f
        expected = self.model.lm_head(ln(torch.zeros(2, 8, 32))).detach()
        self.assertTrue(torch.equal(r["logits"], expected))

    def test_multi_invoke_batch_rows(self):
        a, b = tokens(batch=2, seed=5), tokens(batch=3, seed=6)
        p = plan(
            mediator("""
                h = model.transformer.h[0].output[0]
                model.transformer.h[0].output = (h * 0.0,)
                a_logits = model.lm_head.output.save()
                a_rows = h.shape[0]
                """, kind="invoke", saves=["a_logits", "a_rows"]),
            mediator("""
                b_h0 = model.transformer.h[0].output[0].save()
                b_logits = model.lm_head.output.save()
                """, kind="invoke", saves=["b_h0", "b_logits"]))
        r = run_both(self, p, self.model, [a, b])
        self.assertEqual(r["a_rows"], 2)

        def zero_rows(out):
            h = out[0].clone()
            h[:2] = 0
            return (h,)
        ref = Hooked(self.model).capture("transformer.h.0").replace("transformer.h.0", zero_rows)
        expected = ref(torch.cat([a, b]))
        self.assertTrue(torch.equal(r["a_logits"], expected[:2]))
        self.assertTrue(torch.equal(r["b_logits"], expected[2:]))
        self.assertTrue(torch.equal(r["b_h0"], ref.seen["transformer.h.0"][0][2:]))
        # Mixed tiers give the same bits too.
        for tiers in ({0: "fast", 1: "isolate"}, {0: "isolate", 1: "fast"}):
            mixed = runtime().run(p, self.model, [a, b], tiers=tiers)
            assert_same(self, r.saves, mixed.saves)

    def test_parameters_are_read_only_copies(self):
        p = plan(mediator("""
            w = model.lm_head.weight
            w += 1
            w_saved = model.lm_head.weight.save()
            logits = model.lm_head.output.save()
            """, saves=["w_saved", "logits"]))
        r = run_both(self, p, self.model, [self.ids])
        self.assertTrue(torch.equal(r["w_saved"], self.model.lm_head.weight.detach()))
        self.assertTrue(torch.equal(r["logits"], self.model(self.ids).detach()))

    def test_activations_that_view_the_models_memory_are_copies(self):
        # A rotary embedding returns slices of its cached buffer (or of a
        # tensor it keeps as a plain attribute, even a few levels into
        # dicts, lists or plain objects), and the next module is given
        # one as its input: updating either in place changes this trace
        # only, never the shared model.
        for keep in ("buffer", "attribute", "nested", "object"):
            with self.subTest(keep=keep):
                self.check_edits_stay_in_the_trace(CachedSlices(keep))

    def check_edits_stay_in_the_trace(self, model):
        ids = torch.arange(6).reshape(1, 6)
        clean = model(ids).detach()
        p = plan(mediator("""
            model.cached.output[0][:] = 1000.0
            model.mix.input[:] = -1.0
            logits = model.head.output.save()
            """, saves=["logits"]))

        def edited(mod, args, out):
            return (torch.full_like(out[0], 1000.0),)
        expected = Hooked(model).replace("cached", lambda out: edited(None, None, out))
        expected.handles.append(model.mix.register_forward_pre_hook(
            lambda mod, args: (torch.full_like(args[0], -1.0),)))
        expected = expected(ids)
        for tier in TIERS:
            r = runtime().run(p, model, [ids], tiers={0: tier})
            self.assertTrue(torch.equal(r["logits"], expected), tier)
            self.assertTrue(torch.equal(model.cached.table, model.cached.original), tier)
            self.assertTrue(torch.equal(model(ids), clean), tier)

    def test_an_expanded_tensor_is_refused_not_copied_whole(self):
        # 4 bytes viewed as 2^30 elements: passing it by value would copy
        # them all (4 GiB) before the mediator starts.
        p = plan(mediator("y = v\n", free_names=["v"]))
        for value in (torch.zeros(1).expand(2**30), [torch.zeros(1).expand(2**30)]):
            with self.assertRaisesRegex(ivc.PlanError, "an expanded view"):
                runtime().run(p, self.model, [self.ids], {"v": value})
        runtime().run(p, self.model, [self.ids], {"v": torch.zeros(4).expand(2, 4)[:, :2]})

    def test_a_tensor_of_more_dimensions_than_the_channel_carries_is_refused(self):
        p = plan(mediator("y = v.save()\n", free_names=["v"], saves=["y"]))
        with self.assertRaisesRegex(ivc.PlanError, "33 dimensions; the channel carries at most 32"):
            runtime().run(p, self.model, [self.ids], {"v": torch.zeros([1] * 33)})
        p = plan(mediator("y = torch.zeros([1] * 33)\n", free_names=["torch"], saves=["y"]))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids], tiers={0: tier}, raise_errors=False)
            self.assertIsInstance(r.mediators[0].error, TypeError, tier)
            self.assertIn("33 dimensions cannot cross", str(r.mediators[0].error), tier)

    def test_a_definition_cannot_rebind_a_guarded_value(self):
        # The runtime checked k before choosing FAST; the definition's
        # default would put 2**30 under the verdict instead.
        p = plan(mediator("y = k + 1\n", free_names=["k"], saves=["y"],
                          definitions=[("f", "def f(x=(k := 2**30)):\n    return x\n")],
                          guards={"k": {"kind": "number", "most": 65536}}))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids], {"k": 1}, tiers={0: tier},
                              raise_errors=False)
            self.assertIsInstance(r.errors[0], RuntimeError, tier)
            self.assertIn("rebinds 'k'", str(r.errors[0]), tier)

    def test_module_lists_iterate_and_index(self):
        p = plan(mediator("""
            n = len(model.transformer.h)
            means = [layer.output[0].mean() for layer in model.transformer.h]
            last = model.transformer.h[-1].output[0].save()
            """, saves=["n", "means", "last"]))
        r = run_both(self, p, self.model, [self.ids])
        self.assertEqual(r["n"], 3)
        ref = Hooked(self.model)
        for i in range(3):
            ref.capture(f"transformer.h.{i}")
        ref(self.ids)
        self.assertEqual(len(r["means"]), 3)
        for i, m in enumerate(r["means"]):
            self.assertTrue(torch.equal(m, ref.seen[f"transformer.h.{i}"][0].mean()))
        self.assertTrue(torch.equal(r["last"], ref.seen["transformer.h.2"][0]))

    def test_values_of_every_kind_round_trip(self):
        p = plan(mediator("""
            out = [t64, tb, ti8, tbf, tc, dt, dev, s, b, n, f, d, st, tup, none]
            """, saves=["out"], free_names=["t64", "tb", "ti8", "tbf", "tc", "dt", "dev", "s",
                                            "b", "n", "f", "d", "st", "tup", "none"]))
        values = {
            "t64": torch.arange(6, dtype=torch.float64).reshape(2, 3),
            "tb": torch.tensor([True, False, True]),
            "ti8": torch.tensor([-128, 0, 127], dtype=torch.int8),
            "tbf": torch.tensor([1.5, -2.0], dtype=torch.bfloat16),
            "tc": torch.tensor([1 + 2j], dtype=torch.complex64),
            "dt": torch.float16, "dev": torch.device("cpu"), "s": "h\u00e9llo", "b": b"\x00\xff",
            "n": -(2 ** 63), "f": float("inf"), "d": {"k": (1, 2)}, "st": {1, 2}, "tup": (None,),
            "none": None,
        }
        r = run_both(self, p, self.model, [self.ids], values)
        expected = [values[k] for k in ("t64", "tb", "ti8", "tbf", "tc", "dt", "dev", "s", "b",
                                        "n", "f", "d", "st", "tup", "none")]
        assert_same(self, r["out"], expected)

    def test_torch_operations_in_both_tiers(self):
        # Kernels a worker runs after lockdown: generated code (oneDNN
        # convolutions), LAPACK, FFT, autograd, module construction.
        ops = {
            "conv2d": "torch.nn.functional.conv2d(h.unsqueeze(1), torch.ones(2, 1, 3, 3))",
            "gelu": "torch.nn.functional.gelu(h)",
            "svd": "torch.linalg.svd(h[0])[1]",
            "fft": "torch.fft.rfft(h).abs()",
            "einsum": "torch.einsum('btd,btd->bt', h, h)",
            "topk": "h.topk(3, dim=-1).indices",
            "repr": "repr(h[0, 0, :4])",
            "grad": "(lambda x: torch.autograd.grad((x ** 2).sum(), [x])[0])("
                    "h.detach().requires_grad_())",
        }
        source = "h = model.transformer.h[0].output[0]\n" + "".join(
            f"{name} = {expr}\n" for name, expr in ops.items())
        p = plan(mediator(source, saves=list(ops), free_names=["torch"]))
        r = run_both(self, p, self.model, [self.ids])
        h = Hooked(self.model).capture("transformer.h.0")
        h(self.ids)
        h0 = h.seen["transformer.h.0"][0]
        self.assertTrue(torch.equal(r["svd"], torch.linalg.svd(h0[0])[1]))
        self.assertTrue(torch.equal(r["gelu"], torch.nn.functional.gelu(h0)))
        self.assertTrue(torch.equal(r["grad"], 2 * h0))

    def test_random_numbers_follow_the_seed_not_the_tier(self):
        p = plan(mediator("""
            a = torch.randn(4)
            lin = torch.nn.Linear(3, 2)
            b = lin.weight
            """, saves=["a", "b"], free_names=["torch"]))
        before = torch.get_rng_state()
        r = run_both(self, p, self.model, [self.ids], seed=11)
        # The FAST mediator drew from its own generator, not the host's.
        self.assertTrue(torch.equal(torch.get_rng_state(), before))
        self.assertTrue(torch.equal(r["a"],
                                    torch.randn(4, generator=torch.Generator().manual_seed(11))))
        other = runtime().run(p, self.model, [self.ids], seed=12)
        self.assertFalse(torch.equal(other["a"], r["a"]))

    def test_free_tensors_are_passed_by_value(self):
        p = plan(mediator("d.add_(1)\nseen = d.sum().item()\n", saves=["seen"], free_names=["d"]))
        d = torch.zeros(4)
        r = run_both(self, p, self.model, [self.ids], {"d": d})
        self.assertEqual(r["seen"], 4.0)
        self.assertTrue(torch.equal(d, torch.zeros(4)))

    def test_logs_and_print(self):
        p = plan(mediator("""
            tracer.log("layer", 1, "mean")
            print("printed", 2)
            """))
        r = run_both(self, p, self.model, [self.ids])
        self.assertEqual(r.logs, ["layer 1 mean", "printed 2"])

    def test_nnsight_functions(self):
        # nnsight.save/list/dict/log/apply, as the analyzer reads them (FAST, x
        # saved by name), run by the mediator library without nnsight.
        source = "\n".join([
            "import nnsight",
            "def last_mean(x):",
            "    return x.mean(dim=-1)",
            "with model.trace(prompt) as tracer:",
            "    first = nnsight.save(model.transformer.h[0].output[0])",
            "    direct = model.transformer.h[0].output[0].save()",
            "    norms = nnsight.list().save()",
            "    for block in model.transformer.h:",
            "        norms.append(block.output[0].norm())",
            "    seen = nnsight.dict(layers=len(norms)).save()",
            "    nnsight.log('layers', seen['layers'])",
            "    mean = nnsight.apply(last_mean, first).save()",
        ])
        p = ivc.compile(source, filename="nnsight_functions.py")
        self.assertEqual([m.tier for m in p.trace(0).mediators], ["fast"])
        r = run_both(self, p, self.model, [self.ids])
        self.assertTrue(torch.equal(r["first"], r["direct"]))
        self.assertEqual(len(r["norms"]), len(self.model.transformer.h))
        self.assertEqual(r["seen"], {"layers": len(self.model.transformer.h)})
        self.assertEqual(r.logs, [f"layers {len(self.model.transformer.h)}"])
        self.assertTrue(torch.equal(r["mean"], r["first"].mean(dim=-1)))

    def test_barrier_shares_values_between_invokes(self):
        a, b = tokens(batch=2, seed=7), tokens(batch=2, seed=8)
        p = plan(
            mediator("""
                emb = model.transformer.wte.output
                barrier()
                """, kind="invoke", free_names=["barrier"]),
            mediator("""
                barrier()
                model.transformer.wte.output = emb
                b_wte = model.transformer.wte.output.save()
                """, kind="invoke", free_names=["barrier", "emb"], saves=["b_wte"]))
        r = run_both(self, p, self.model, [a, b], {"barrier": ivc.Barrier(2)})
        self.assertTrue(torch.equal(r["b_wte"], self.model.transformer.wte(a)))

    def test_a_workers_barrier_exports_keep_no_more_than_its_arena(self):
        # Five names of 24 MiB each: the host would keep all five copies,
        # past a 96 MiB arena. Exporting one name again replaces its copy.
        def exporter(names):
            # (It holds one at a time: the worker's own arena is not full.)
            return mediator("".join(f"{n} = torch.full((6 << 20,), {i}.0)\nbarrier()\ndel {n}\n"
                                    for i, n in enumerate(names)), kind="invoke",
                            free_names=["barrier", "torch"])

        def reader(names):
            return mediator("barrier()\n" * len(names) + f"total = float(sum(x.sum() for x in "
                            f"({', '.join(names)},)))\n", kind="invoke", saves=["total"],
                            free_names=["barrier"] + sorted(set(names)))

        rt = ivc.Runtime(ivc.SandboxConfig(arena_max_bytes=96 << 20))
        self.addCleanup(rt.close)
        for names, fails in (("abcde", True), ("aaaaa", False)):
            p = plan(exporter(names), reader(names))
            r = rt.run(p, self.model, [self.ids, self.ids],
                       {"barrier": ivc.Barrier(2), "torch": torch},
                       tiers={0: "isolate", 1: "fast"}, raise_errors=False)
            if fails:
                self.assertIn("more than its arena may hold (arena_max_bytes, 100663296)",
                              str(r.mediators[0].error))
            else:
                self.assertEqual(r.errors, [])
                self.assertEqual(r["total"], 5 * 4.0 * (6 << 20))  # the last a, five times

    def test_a_barrier_that_never_filled_counts_its_waiter_once(self):
        # Answered with an error at the end, the waiter leaves the barrier:
        # waiting again must not count it twice (and open the barrier with
        # one mediator, or fail the whole run).
        p = plan(mediator("""
            try:
                barrier()
            except RuntimeError as e:
                first = str(e)
            barrier()
            """, kind="invoke", saves=["first"], free_names=["barrier"]),
            mediator("x = model.lm_head.output.save()\n", kind="invoke", saves=["x"]))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids, self.ids], {"barrier": ivc.Barrier(2)},
                              tiers={0: tier, 1: tier}, raise_errors=False)
            self.assertIsInstance(r.mediators[0].error, RuntimeError, tier)
            self.assertIn("not all of them reached it", str(r.mediators[0].error), tier)
            self.assertIn("x", r, tier)

    def test_stop_on_a_value_is_the_tracers(self):
        # nnsight's `module.output.stop()`, on a tensor or a block's tuple.
        for stop in ("model.transformer.h[0].output.stop()",
                     "model.transformer.h[0].output[0].stop()"):
            p = plan(mediator(f"""
                h = model.transformer.h[0].output[0].save()
                {stop}
                after = 1
                """, saves=["h", "after"]))
            for tier in TIERS:
                r = runtime().run(p, self.model, [self.ids], tiers={0: tier})
                self.assertIsNone(r.output, (stop, tier))
                self.assertEqual((r.errors, "h" in r, "after" in r), ([], True, False), tier)
        # Outside a mediator a tensor still has no stop().
        with self.assertRaisesRegex(AttributeError, "'Tensor' object has no attribute 'stop'"):
            torch.ones(1).stop()

    def test_save_works_on_any_value(self):
        # nnsight offers .save() on every object; a dict, a list, a number
        # or a string has none of its own, so it is saved as it is.
        p = plan(mediator("""
            h = model.transformer.h[0].output[0]
            stats = {"norm": h.norm(), "rows": h.shape[1]}
            stats.save()
            norms = [n.save() for n in [h.norm(), h.mean()]]
            scale = h.norm().item().save()
            text = f"{scale:.2f}".save()
            kept = keep(h.sum())
            hidden = h.save()
            """, saves=["stats", "norms", "scale", "text", "kept", "hidden"],
            definitions=[("keep", """
                def keep(x):
                    return (x, "sum").save()
                """)]))
        r = run_both(self, p, self.model, [self.ids])
        self.assertEqual(r.errors, [])
        self.assertEqual(r["stats"]["rows"], self.ids.shape[1])
        self.assertTrue(torch.equal(r["stats"]["norm"], r["hidden"].norm()))
        self.assertEqual(r["text"], f"{r['scale']:.2f}")
        self.assertEqual((len(r["norms"]), r["kept"][1]), (2, "sum"))

    def test_the_save_rewrite_caches_only_small_code(self):
        # (White box.) The cache is every tenant's: code whose constants fold
        # to megabytes compiles again on each run instead of staying there.
        from ivc import _mediator
        small = "h = model.transformer.h[0].output[0].save()\n"
        self.assertIs(_mediator._compiled(small, "<s>"), _mediator._compiled(small, "<s>"))
        folded = small + "".join(f"v{i} = '{i:04}' * 1024\n" for i in range(40))
        self.assertIsNot(_mediator._compiled(folded, "<f>"), _mediator._compiled(folded, "<f>"))
        for i in range(2 * _mediator._CACHE_ENTRIES):
            _mediator._compiled(f"x = {i}\n" + small, "<n>")
        self.assertEqual(len(_mediator._cache), _mediator._CACHE_ENTRIES)

    def test_user_code_catches_errors_but_never_a_stop(self):
        # try/except of builtin errors is FAST; a stop is no Exception.
        p = plan(mediator("""
            try:
                h = model.transformer.h[40].output[0]
            except IndexError as e:
                missing = str(e)
                h = model.transformer.h[-1].output[0].save()
            try:
                tracer.stop()
            except Exception:
                after = 1
            """, saves=["h", "missing", "after"]))
        for tier in TIERS:
            r = runtime().run(p, self.model, [self.ids], tiers={0: tier})
            self.assertEqual((r.errors, "h" in r, "after" in r), ([], True, False), tier)
            self.assertIn("out of range", r["missing"])

    def test_stop(self):
        p = plan(
            mediator("""
                h = model.transformer.h[0].output[0].save()
                tracer.stop()
                after = 1
                """, kind="invoke", saves=["h", "after"]),
            mediator("""
                early = model.transformer.wte.output.save()
                late = model.lm_head.output.save()
                """, kind="invoke", saves=["early", "late"]))
        for tier in ("fast", "isolate"):
            r = runtime().run(p, self.model, [self.ids, self.ids], tiers={0: tier, 1: tier})
            self.assertIsNone(r.output)
            self.assertIn("h", r)
            self.assertIn("early", r)
            self.assertNotIn("after", r)
            self.assertNotIn("late", r)
            self.assertEqual(r.errors, [])


class Polling(unittest.TestCase):
    """channel_spin_us changes how each side waits, never what a trace does:
    both tiers, mixed in one trace, give what they give without it."""

    def test_polling_channels_change_nothing_but_the_wait(self):
        model, a, b = TinyGPT(), tokens(batch=2, seed=7), tokens(batch=2, seed=8)
        p = plan(
            mediator("""
                h = model.transformer.h[1].output[0]
                h[:, -1] += 1.0
                emb = h.sum()
                barrier()
                logits = model.lm_head.output.save()
                """, kind="invoke", free_names=["barrier"], saves=["logits"]),
            mediator("""
                barrier()
                model.transformer.h[2].output = (model.transformer.h[2].output[0] * emb,)
                print("seen", emb)
                late = model.lm_head.output.save()
                """, kind="invoke", free_names=["barrier", "emb"], saves=["late"]))
        values = {"barrier": ivc.Barrier(2)}
        self.assertEqual(ivc.SandboxConfig().channel_spin_us, 50)  # runtime() polls
        sleeping = ivc.Runtime(ivc.SandboxConfig(channel_spin_us=0), pool_size=1)
        polling = ivc.Runtime(ivc.SandboxConfig(channel_spin_us=_core.MAX_CHANNEL_SPIN_US),
                              pool_size=1)
        try:
            for tiers in ({0: "fast", 1: "isolate"}, {0: "isolate", 1: "fast"}):
                want = sleeping.run(p, model, [a, b], values, tiers=tiers, seed=3)
                for rt in (runtime(), polling):
                    got = rt.run(p, model, [a, b], values, tiers=tiers, seed=3)
                    self.assertEqual(got.errors, [])
                    assert_same(self, got.saves, want.saves)
                    self.assertEqual(got.logs, want.logs)
                    self.assertTrue(got.logs and got.logs[0].startswith("seen"))
                    self.assertTrue(torch.equal(got.output, want.output))
        finally:
            sleeping.close()
            polling.close()
        with self.assertRaisesRegex(ValueError, "channel_spin_us"):
            ivc.Runtime(ivc.SandboxConfig(channel_spin_us=_core.MAX_CHANNEL_SPIN_US + 1))


if __name__ == "__main__":
    unittest.main()
