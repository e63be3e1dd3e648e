"""Invokes opened in a loop (a plan's `loop`): one copy of the mediator per
turn, in both tiers, with the loop's names bound as nnsight binds them."""

import textwrap

from common import (Hooked, TinyGPT, assert_same, ivc, mediator, plan, runtime, tokens, torch,
                    unittest)

ENUMERATED = textwrap.dedent("""\
    acts = []
    with model.trace() as tracer:
        for i, prompt in enumerate(prompts):
            with tracer.invoke(prompt):
                acts.append(model.transformer.h[i].output[0].save())
                said = str(i) + prompt
                said = said.save()
    """)

# Two invokes in one loop over a constant the plan pins, then one alone.
PAIRED = textwrap.dedent("""\
    LAYERS = [1, 0, 1]
    seen = []
    with model.trace() as tracer:
        for layer, scale in zip(LAYERS, range(1, 4)):
            with tracer.invoke(ids):
                seen.append(model.transformer.h[layer].output[0].save())
            with tracer.invoke(ids):
                seen.append((model.lm_head.output * scale).save())
        with tracer.invoke(ids):
            seen.append(model.lm_head.output.save())
    """)


class Loops(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = runtime()
        cls.model = TinyGPT()
        cls.turns = [tokens(batch=1, seed=s) for s in (1, 2)]

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def reference(self, path, ids):
        hooked = Hooked(self.model).capture(path)
        hooked(ids)
        return hooked.seen[path]

    def test_one_copy_per_turn_with_the_turns_names(self):
        p = ivc.compile(ENUMERATED, filename="loop.py")
        looped, body = p.trace(0).mediators
        self.assertEqual((looped.loop.text, body.loop),
                         ("for i, prompt in enumerate(prompts)", None))
        runs = {}
        for tier in ("fast", "isolate"):
            r = self.rt.run(p, self.model, [self.turns, self.turns[0]], {"prompts": ["a", "b"]},
                            tiers={0: tier})
            self.assertEqual(r.errors, [])
            self.assertEqual([(m.index, m.turn, m.tier) for m in r.mediators],
                             [(0, 0, tier), (0, 1, tier), (1, None, "fast")])
            # Each turn read its own layer (i) on its own rows, and the
            # copies' lists were joined in turn order.
            want = [self.reference("transformer.h.0", torch.cat(self.turns))[0][:1],
                    self.reference("transformer.h.1", torch.cat(self.turns))[0][1:]]
            self.assertEqual(len(r["acts"]), 2)
            for got, expected in zip(r["acts"], want):
                self.assertTrue(torch.equal(got, expected), tier)
            self.assertEqual(r["said"], "1b")  # the last turn's, as after a loop
            runs[tier] = r
        assert_same(self, runs["fast"].saves, runs["isolate"].saves)

    def test_a_caller_learns_each_turns_names_before_it_runs(self):
        p = ivc.compile(ENUMERATED, filename="loop.py")
        prompts = ["Paris is in", "Rome is in"]
        self.assertEqual(ivc.loop_turns(p, {"prompts": prompts}),
                         {0: [{"i": 0, "prompt": prompts[0]}, {"i": 1, "prompt": prompts[1]}]})
        self.assertEqual(ivc.loop_turns(ivc.compile("with model.trace(x):\n    y = 1\n")), {})
        with self.assertRaisesRegex(ivc.PlanError, "more than 3 turns"):
            ivc.loop_turns(p, {"prompts": range(10 ** 18)}, most=3)

    def test_invokes_of_one_loop_run_turn_by_turn(self):
        p = ivc.compile(PAIRED, filename="paired.py")
        ids = self.turns[0]
        r = self.rt.run(p, self.model, [[ids] * 3, [ids] * 3, ids, ids], {"ids": ids})
        self.assertEqual([(m.index, m.turn) for m in r.mediators],
                         [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, None), (3, None)])
        batch = torch.cat([ids] * 7)
        h1, h0 = (self.reference(f"transformer.h.{n}", batch)[0] for n in (1, 0))
        logits = self.reference("lm_head", batch)
        want = [h1[0:1], logits[1:2] * 1, h0[2:3], logits[3:4] * 2, h1[4:5], logits[5:6] * 3,
                logits[6:7]]
        self.assertEqual(len(r["seen"]), len(want))
        for got, expected in zip(r["seen"], want):
            self.assertTrue(torch.equal(got, expected))

    def test_displays_lengths_and_dict_items(self):
        # The loops researchers write most: over a list written in the loop,
        # over indices of a pinned list, over a caller's dict's items.
        src = textwrap.dedent("""\
            COEFFS = [0.5, 2.0]
            out = {}
            with model.trace() as tracer:
                for c, name in [(1.0, "one"), (3.0, "three")]:
                    with tracer.invoke(ids):
                        out[name] = (model.lm_head.output * c).save()
                for k in range(len(COEFFS)):
                    with tracer.invoke(ids):
                        out[k] = (model.lm_head.output * COEFFS[k]).save()
                for label, row in groups.items():
                    with tracer.invoke(row):
                        out[label] = model.lm_head.output.save()
            """)
        p = ivc.compile(src, filename="forms.py")
        self.assertEqual([m.loop and m.loop.text for m in p.trace(0).mediators],
                         ['for c, name in [(1.0, "one"), (3.0, "three")]',
                          "for k in range(len(COEFFS))", "for label, row in groups.items()", None])
        ids = self.turns[0]
        groups = {"pos": self.turns[0], "neg": self.turns[1]}
        r = self.rt.run(p, self.model, [[ids] * 2, [ids] * 2, list(groups.values()), ids],
                        {"ids": ids, "groups": groups})
        logits = self.reference("lm_head", torch.cat([ids] * 4 + list(groups.values()) + [ids]))
        want = {"one": logits[0:1], "three": logits[1:2] * 3.0, 0: logits[2:3] * 0.5,
                1: logits[3:4] * 2.0, "pos": logits[4:5], "neg": logits[5:6]}
        self.assertEqual(list(r["out"]), list(want))
        for key, expected in want.items():
            self.assertTrue(torch.equal(r["out"][key], expected), key)
        with self.assertRaisesRegex(ivc.PlanError, "'groups' is a list, not a dict"):
            self.rt.run(p, self.model, [[ids] * 2, [ids] * 2, [ids], ids],
                        {"ids": ids, "groups": [("pos", ids)]})

    def test_signed_numbers_slices_and_a_keyword_start(self):
        src = textwrap.dedent("""\
            PROMPTS = ["a", "b", "c"]
            got = []
            with model.trace() as tracer:
                for c in [-1.0, +2]:
                    with tracer.invoke(ids):
                        got.append(c)
                for k in range(2, -1, -2):
                    with tracer.invoke(ids):
                        got.append(k)
                for n, p in enumerate(PROMPTS[::-2], start=-1):
                    with tracer.invoke(ids):
                        got.append((n, p))
            """)
        p = ivc.compile(src, filename="signed.py")
        self.assertEqual(ivc.loop_turns(p)[2], [{"n": -1, "p": "c"}, {"n": 0, "p": "a"}])
        ids = self.turns[0]
        r = self.rt.run(p, self.model, [[ids] * 2, [ids] * 2, [ids] * 2, ids], {"ids": ids})
        self.assertEqual(r["got"], [-1.0, 2, 2, 0, (-1, "c"), (0, "a")])

    def test_an_iterable_the_trace_body_binds_before_the_loop(self):
        # The plan pins it for the invoke (the caller's value of the same
        # name is not the body's), and the runtime counts its turns.
        src = textwrap.dedent("""\
            with model.trace() as tracer:
                scales = [1.0, 2.0, 3.0]
                outs = []
                for s in scales:
                    with tracer.invoke(ids):
                        outs.append(s)
            """)
        p = ivc.compile(src, filename="prelude.py")
        looped = p.trace(0).mediators[0]
        self.assertIn(("scales", "scales = ([1.0, 2.0, 3.0])\n"), looped.definitions)
        ids = self.turns[0]
        r = self.rt.run(p, self.model, [[ids] * 3, ids], {"ids": ids, "scales": [9.0]})
        self.assertEqual(r["outs"], [1.0, 2.0, 3.0])

    def test_inputs_must_match_the_turns(self):
        p = ivc.compile(ENUMERATED, filename="loop.py")
        values = {"prompts": ["a", "b"]}
        for inputs, text in [([self.turns[:1], self.turns[0]], "more than 1 turns, but 1 inputs"),
                             ([self.turns * 2, self.turns[0]], "has 2 turns, but 4 inputs"),
                             ([self.turns[0], self.turns[0]], "give it a list of inputs"),
                             ([self.turns], "2 mediators but 1 inputs")]:
            with self.assertRaisesRegex(ivc.PlanError, text):
                self.rt.run(p, self.model, inputs, values)
        with self.assertRaisesRegex(ivc.PlanError, "no value given for 'prompts'"):
            self.rt.run(p, self.model, [self.turns, self.turns[0]])
        # An element that does not unpack into the target, and a huge range
        # the runtime never makes: it counts no further than the inputs.
        p = ivc.compile(ENUMERATED.replace("i, prompt in enumerate(prompts)",
                                           "(i, prompt) in prompts"), filename="loop.py")
        with self.assertRaisesRegex(ivc.PlanError, "cannot unpack more than 2 values"):
            self.rt.run(p, self.model, [self.turns, self.turns[0]], {"prompts": ["ab", "abc"]})
        p = ivc.compile(ENUMERATED.replace("enumerate(prompts)", "enumerate(range(n))"),
                        filename="loop.py")
        with self.assertRaisesRegex(ivc.PlanError, "more than 2 turns"):
            self.rt.run(p, self.model, [self.turns, self.turns[0]], {"n": 10 ** 18})
        with self.assertRaisesRegex(ivc.PlanError, "range"):
            self.rt.run(p, self.model, [self.turns, self.turns[0]], {"n": "2"})

    def test_loop_names_are_checked_as_the_callers_values_are(self):
        # A name the verdict took for a number: a turn that binds it to a
        # str is refused before anything runs, as a caller's str would be,
        # and one past its guard runs ISOLATE.
        loop = {"target": "i, x", "iterable": "enumerate(xs)"}
        p = plan(mediator("y = x * 2.0\n", kind="invoke", loop=loop, saves=["y"],
                          free_names=["i", "x"], free_types={"i": "number", "x": "number"},
                          guards={"x": {"kind": "number", "most": 100}}),
                 mediator("z = 1\n"))
        args = (self.model, [self.turns, self.turns[0]])
        r = self.rt.run(p, *args, {"xs": [1, 2.5]})
        self.assertEqual((r["y"], [m.tier for m in r.mediators]), (5.0, ["fast"] * 3))
        r = self.rt.run(p, *args, {"xs": [1000, 2.5]})
        self.assertEqual([m.tier for m in r.mediators], ["isolate", "fast", "fast"])
        with self.assertRaisesRegex(ivc.PlanError, "'x' is a number"):
            self.rt.run(p, *args, {"xs": [1, "x"]})

    def test_a_turns_error_names_its_turn(self):
        src = ENUMERATED.replace("said = str(i) + prompt", "said = 1 // (1 - i)")
        p = ivc.compile(src, filename="loop.py")
        r = self.rt.run(p, self.model, [self.turns, self.turns[0]], {"prompts": ["a", "b"]},
                        raise_errors=False)
        self.assertEqual([(m.turn, type(m.error)) for m in r.mediators],
                         [(0, type(None)), (1, ZeroDivisionError), (None, type(None))])
        self.assertIn("turn 1 of its loop", "".join(r.errors[0].__notes__))
        self.assertEqual(r.errors[0].ivc_turn, 1)

    def test_a_loops_fast_copies_share_the_traces_time(self):
        # Each copy has fast_timeout_s of its own, and all of them together
        # fast_trace_timeout_s: a loop's turns come from the caller's data,
        # and must not hold the host for turns times fast_timeout_s.
        loop = {"target": "k", "iterable": "range(4)"}
        p = plan(mediator("while True:\n    pass\n", kind="invoke", loop=loop),
                 mediator("y = 1\n"))
        for trace_s, shared in ((0.5, True), (None, False)):
            rt = ivc.Runtime(fast_timeout_s=0.2, fast_trace_timeout_s=trace_s)
            self.addCleanup(rt.close)
            r = rt.run(p, self.model, [self.turns * 2, self.turns[0]], raise_errors=False)
            errors = [m.error for m in r.mediators[:4]]
            self.assertTrue(all(isinstance(e, ivc.MediatorTimeout) for e in errors), errors)
            self.assertEqual("fast_trace_timeout_s" in str(errors[3]), shared, errors)
        with self.assertRaises(ValueError):
            ivc.Runtime(fast_trace_timeout_s=0)

    def test_one_trace_runs_at_most_so_many_copies(self):
        loop = {"target": "k", "iterable": "range(n)"}
        p = plan(mediator("x = 1\n", kind="invoke", loop=loop), mediator("y = 1\n"))
        many = ivc._loops.MAX_UNITS
        with self.assertRaisesRegex(ivc.PlanError, f"{many + 1} mediators"):
            self.rt.run(p, self.model, [[self.turns[0]] * many, self.turns[0]], {"n": many})
        with self.assertRaisesRegex(ivc.PlanError, "longer than 4096 characters"):
            ivc.load_plan(plan(mediator("x = 1\n", kind="invoke",
                                        loop={"target": "k", "iterable": "[" + "0," * 3000 + "]"})))
        with self.assertRaisesRegex(ivc.PlanError, "offset: expected an integer"):
            ivc.load_plan(plan(mediator("x = 1\n", kind="invoke", loop={
                "target": "k", "iterable": "ks", "range": {"start": {"offset": [1]}}})))

    def test_hostile_loops_are_refused_when_the_plan_is_read(self):
        for loop, text in [
                ({"target": "p", "iterable": "__import__('os').listdir('/')"}, "not a name"),
                ({"target": "p", "iterable": "sorted(prompts)"}, "not a name"),
                ({"target": "p", "iterable": "range(1, n, step=2)"}, "not a name"),
                ({"target": "p", "iterable": "enumerate(prompts, n)"}, "not a name"),
                ({"target": "p.x", "iterable": "prompts"}, "not names"),
                ({"target": "*p", "iterable": "prompts"}, "target"),
                ({"target": "p", "iterable": "prompts)"}, "not a Python expression"),
                ({"target": "p", "iterable": "enumerate(" * 40 + "prompts" + ")" * 40},
                 "not a name"),
                ({"target": "p"}, "expected null or an object"),
                ("for p in prompts", "expected null or an object")]:
            with self.subTest(loop=loop), self.assertRaisesRegex(ivc.PlanError, text):
                ivc.load_plan(plan(mediator("x = 1\n", kind="invoke", loop=loop)))
        ok = {"target": "p", "iterable": "prompts"}
        with self.assertRaisesRegex(ivc.PlanError, "only an invoke runs in a loop"):
            ivc.load_plan(plan(mediator("x = 1\n", loop=ok)))
        with self.assertRaisesRegex(ivc.PlanError, "apart from the plan's definitions"):
            ivc.load_plan(plan(mediator("x = 1\n", kind="invoke", loop=ok,
                                        definitions=[("p", "p = (1)\n")])))

    def test_a_pinned_iterable_must_be_a_literal(self):
        loop = {"target": "p", "iterable": "prompts"}
        for source, turns in [("prompts = ([1, 2])\n", 2), ("prompts = (make())\n", None)]:
            p = plan(mediator("x = p\n", kind="invoke", loop=loop, saves=["x"], free_names=["p"]),
                     mediator("y = 1\n", definitions=[("prompts", source)]))
            args = (self.model, [self.turns, self.turns[0]])
            if turns:
                self.assertEqual(self.rt.run(p, *args)["x"], 2)
            else:
                with self.assertRaisesRegex(ivc.PlanError, "not a literal"):
                    self.rt.run(p, *args, {"prompts": [1, 2]})


if __name__ == "__main__":
    unittest.main()
