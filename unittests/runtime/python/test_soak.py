"""1,000 traces through a warm pool of two workers: no new workers, no
growth in the host's open descriptors or resident memory."""

from common import TinyGPT, ivc, mediator, plan, tokens, torch, unittest
from common import quiet_fds, rss_kib

TRACES = 1000


class Soak(unittest.TestCase):
    def test_thousand_traces(self):
        rt = ivc.Runtime(pool_size=2)
        self.addCleanup(rt.close)
        model = TinyGPT()
        a, b = tokens(batch=1, seed=1), tokens(batch=1, seed=2)
        p = plan(
            mediator("""
                h = model.transformer.h[1].output[0]
                h[:, -1] += 1.0
                a_logits = model.lm_head.output.save()
                """, kind="invoke", saves=["a_logits"]),
            mediator("""
                b_h = model.transformer.h[2].output[0].save()
                """, kind="invoke", saves=["b_h"]))
        tiers = {0: "isolate", 1: "isolate"}
        expected = rt.run(p, model, [a, b], tiers={0: "fast", 1: "fast"})
        warmup = 50
        for _ in range(warmup):
            rt.run(p, model, [a, b], tiers=tiers)
        fds, rss = quiet_fds(), rss_kib()
        stats = rt.stats()
        for i in range(TRACES - warmup):
            r = rt.run(p, model, [a, b], tiers=tiers)
            if i % 97 == 0:
                self.assertTrue(torch.equal(r["a_logits"], expected["a_logits"]))
                self.assertTrue(torch.equal(r["b_h"], expected["b_h"]))
        after = rt.stats()
        self.assertEqual(after["forked"] + after["spawned"], stats["forked"] + stats["spawned"],
                         "the warm pool started new workers")
        self.assertEqual(after["reused"] - stats["reused"], 2 * (TRACES - warmup))
        self.assertEqual(quiet_fds(), fds, "open descriptors grew")
        # Allocator noise is a few hundred KiB; a leak of one tensor or
        # mapping per trace would be tens of MiB over 950 traces.
        growth = rss_kib() - rss
        self.assertLess(growth, 4096, f"RSS grew by {growth} KiB")


if __name__ == "__main__":
    unittest.main()
