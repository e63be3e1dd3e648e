"""The cuda-ipc transport (docs/runtime.md, "Transports").

Two parts:
  - WithoutGpu runs everywhere: configuration, the driver's absence reported
    clearly, the DLPack capsule (checked with CPU memory, which torch imports
    through the same code path), the strict reading of announcements, and the
    host's refusal of hostile cuda descriptors.
  - OnGpu needs a CUDA device and skips with "no CUDA device: <reason>"
    otherwise: FAST and ISOLATE must give bit-identical results for a model
    on the GPU (read, swap, in-place, multi-invoke). With IVC_REQUIRE_CUDA=1
    (tools/gpu/check sets it on a GPU machine) a missing device fails instead.
"""

import gc
import os
import unittest

import torch

import ivc
from common import CARRY_BACK_SOURCE, ChangedLater, TinyGPT, assert_same, mediator, plan, tokens
from ivc import _core, _protocol, _tensors


def cuda_unavailable():
    """Why the GPU tests cannot run here, or None."""
    if not _core.cuda_built():
        return "this build has no cuda-ipc transport (cuda.h was not found)"
    usable, why = _core.cuda_driver_status()
    if not usable:
        return why
    if not torch.cuda.is_available():
        return "torch was built without CUDA or sees no device"
    return None


def good_announcement():
    return {"pci_bus_id": "0000:3b:00.0", "memory": b"\x01" * 64, "to_worker": b"\x02" * 64,
            "to_host": b"\x03" * 64, "download": 1 << 20, "upload": 1 << 16}


class FakeWorker:
    """The few host-side entry points HostCudaTensors uses to check a
    descriptor, with a 1 MiB download and a 64 KiB upload region."""

    cuda_device = 0

    def cuda_check_range(self, space, offset, nbytes):
        size = {_core.CUDA_DOWNLOAD_SPACE: 1 << 20, _core.CUDA_UPLOAD_SPACE: 1 << 16}.get(space)
        return size is not None and offset <= size and nbytes <= size - offset

    def check_range(self, space, offset, nbytes):
        return False

    def cuda_region(self, space):
        raise AssertionError("a hostile descriptor must be refused before the arena is touched")


class WithoutGpu(unittest.TestCase):
    def test_transport_is_validated(self):
        self.assertEqual(ivc.SandboxConfig().transport, "shared-memory")
        wire = ivc.SandboxConfig(transport="cuda-ipc", cuda_device=1).to_wire()
        self.assertEqual((wire["transport"], wire["cuda_device"]), ("cuda-ipc", 1))
        checked = _core.decode(_core.sandbox_config_check(
            ivc.SandboxConfig(transport="cuda-ipc").encoded()), _protocol.no_tensors)
        self.assertEqual(checked["transport"], "cuda-ipc")
        with self.assertRaisesRegex(ValueError, "transport must be one of"):
            ivc.SandboxConfig(transport="nvlink").to_wire()

    def test_driver_status_says_why(self):
        usable, why = _core.cuda_driver_status()
        if usable:
            self.assertEqual(why, "ok")
        elif not _core.cuda_built():
            self.assertEqual(why, "built without CUDA support")
        else:
            self.assertTrue(why, "an empty reason")

    def test_dlpack_capsule_views_without_a_copy(self):
        seg = _core.Segment.create(4096)
        live = _core._dlpack_live()
        t = torch.utils.dlpack.from_dlpack(_core._dlpack_bytes(seg))
        self.assertEqual((t.dtype, tuple(t.shape)), (torch.uint8, (4096,)))
        t[7] = 42
        self.assertEqual(memoryview(seg)[7], 42)
        self.assertEqual(t.data_ptr(), seg.address)
        # torch consumed the capsule: its deleter runs when the tensor dies.
        self.assertEqual(_core._dlpack_live(), live + 1)
        del t
        gc.collect()
        self.assertEqual(_core._dlpack_live(), live)
        # An unconsumed capsule is released by its own destructor.
        c = _core._dlpack_bytes(seg)
        self.assertEqual(_core._dlpack_live(), live + 1)
        del c
        self.assertEqual(_core._dlpack_live(), live)

    def test_announcement_is_read_strictly(self):
        self.assertEqual(_core.check_cuda_announcement(good_announcement()), good_announcement())
        bad = [
            dict(good_announcement(), memory=b"\x01" * 63),
            dict(good_announcement(), to_host="x" * 64),
            dict(good_announcement(), pci_bus_id="/dev/nvidia0"),
            dict(good_announcement(), download=0),
            dict(good_announcement(), upload=1000),
            dict(good_announcement(), extra=1),
            {k: v for k, v in good_announcement().items() if k != "to_worker"},
            [good_announcement()],
        ]
        for b in bad:
            with self.assertRaises(_core.ProtocolError, msg=repr(b)):
                _core.check_cuda_announcement(b)

    def test_hostile_cuda_descriptors_are_protocol_errors(self):
        host = _tensors.HostCudaTensors.__new__(_tensors.HostCudaTensors)
        _tensors.HostArenaTensors.__init__(host, FakeWorker(), 1 << 20)
        host.device = torch.device("cuda", 0)
        host._cuda_bases = {}
        down, up = _core.CUDA_DOWNLOAD_SPACE, _core.CUDA_UPLOAD_SPACE
        cases = [
            ("float32", (4,), up, (1 << 16) - 8, 16),      # past the end of the region
            ("float32", (1,), up, 2, 4),                    # misaligned for the dtype
            ("uint8", (1 << 17,), up, 0, 1 << 17),          # larger than the region
            ("uint8", (1,), down, (1 << 64) - 1, 1),        # offset + n wraps
            ("float32", (3,), 5, 0, 12),                    # unknown space
        ]
        for dtype, shape, space, offset, nbytes in cases:
            with self.assertRaises(_core.ProtocolError, msg=(space, offset, nbytes)):
                host.import_(dtype, shape, space, offset, nbytes)
        # The per-message budget counts device bytes too.
        host._message_bytes = (1 << 20) - 4
        with self.assertRaisesRegex(_core.ProtocolError, "references more than"):
            host.import_("float32", (2,), down, 0, 8)

    def test_cuda_ipc_without_a_driver_fails_the_isolate_mediator_clearly(self):
        why = cuda_unavailable()
        if why is None or not why.startswith(("libcuda", "no CUDA", "built without")):
            self.skipTest("a CUDA driver is usable here: OnGpu covers this transport")
        with ivc.Runtime(ivc.SandboxConfig(transport="cuda-ipc"), pool_size=1) as rt:
            p = plan(mediator("y = model.lm_head.output\n", saves=["y"]))
            with self.assertRaisesRegex(ivc.SandboxUnavailable, "cuda-ipc transport cannot be "
                                        "used here: " + why.split(" (")[0]):
                rt.run(p, TinyGPT(), [tokens()], tiers={0: "isolate"})
            # FAST mediators do not need the transport.
            r = rt.run(p, TinyGPT(), [tokens()], tiers={0: "fast"})
            self.assertEqual(tuple(r["y"].shape), (2, 8, 64))


class OnGpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = cuda_unavailable()
        if why and os.environ.get("IVC_REQUIRE_CUDA") == "1":
            raise AssertionError(f"IVC_REQUIRE_CUDA=1 but no CUDA device: {why}")
        if why:
            raise unittest.SkipTest(f"no CUDA device: {why}")
        cls.rt = ivc.Runtime(ivc.SandboxConfig(transport="cuda-ipc",
                                               address_space_bytes=1 << 46), pool_size=2)
        cls.model = TinyGPT().cuda()
        cls.ids = tokens().cuda()

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def both(self, p, inputs, values=None, model=None):
        n = len(ivc.load_plan(p).trace(0).mediators)
        out = {}
        for tier in ("fast", "isolate"):
            out[tier] = self.rt.run(p, model or self.model, inputs, values,
                                    tiers=dict.fromkeys(range(n), tier), seed=3)
        assert_same(self, out["fast"].saves, out["isolate"].saves)
        return out["isolate"]

    def test_read_stays_on_the_device(self):
        r = self.both(plan(mediator("""
            h = model.transformer.h[1].output[0].save()
            logits = model.lm_head.output.save()
            """, saves=["h", "logits"])), [self.ids])
        self.assertTrue(r["h"].is_cuda)
        self.assertTrue(torch.equal(r["logits"], self.model(self.ids)))

    def test_swap(self):
        r = self.both(plan(mediator("""
            model.transformer.h[0].output = (model.transformer.h[0].output[0] * 0.5,)
            logits = model.lm_head.output.save()
            """, saves=["logits"])), [self.ids])
        self.assertFalse(torch.equal(r["logits"], self.model(self.ids)))

    def test_in_place_update_reaches_the_model(self):
        self.both(plan(mediator("""
            h = model.transformer.h[1].output[0]
            h[:, -1] += 1.0
            logits = model.lm_head.output.save()
            """, saves=["logits"])), [self.ids])

    def test_values_and_mixed_devices(self):
        steer = torch.randn(32, device="cuda", generator=torch.Generator("cuda").manual_seed(2))
        r = self.both(plan(mediator("""
            model.transformer.h[2].output[0][:] = model.transformer.h[2].output[0] + steer
            cpu_norm = model.lm_head.output.norm().cpu().save()
            logits = model.lm_head.output.save()
            """, saves=["cpu_norm", "logits"], free_names=["steer"])), [self.ids],
            {"steer": steer})
        self.assertFalse(r["cpu_norm"].is_cuda)

    def test_multi_invoke(self):
        a, b = tokens(batch=2, seed=5).cuda(), tokens(batch=3, seed=6).cuda()
        r = self.both(plan(
            mediator("""
                h = model.transformer.h[0].output[0]
                model.transformer.h[0].output = (h * 0.0,)
                a_logits = model.lm_head.output.save()
                """, kind="invoke", saves=["a_logits"]),
            mediator("""
                b_h0 = model.transformer.h[0].output[0].save()
                b_logits = model.lm_head.output.save()
                """, index=1, kind="invoke", saves=["b_h0", "b_logits"])), [a, b])
        self.assertEqual(r["a_logits"].shape[0], 2)
        self.assertEqual(r["b_logits"].shape[0], 3)

    def test_strided_tensors_cross_both_ways(self):
        # Contiguous tensors cross in one driver copy; strided ones (a
        # transposed activation, a strided swap and save) go through torch.
        class Transpose(torch.nn.Module):
            def forward(self, x):
                return x.transpose(0, 1)

        model = torch.nn.Sequential(torch.nn.Linear(8, 6), Transpose(), torch.nn.ReLU()).cuda()
        x = torch.randn(4, 8, device="cuda", generator=torch.Generator("cuda").manual_seed(4))
        r = self.both(plan(mediator("""
            t = model[1].output
            model[1].output = (t * 2).t().contiguous().t()
            every_other = model[1].output[:, ::2].save()
            out = model[2].output.save()
            """, saves=["every_other", "out"])), [x], model=model)
        expected = model[1](model[0](x)) * 2
        self.assertTrue(torch.equal(r["every_other"], expected[:, ::2]))
        self.assertTrue(torch.equal(r["out"], torch.relu(expected)))

    def test_an_update_carries_back_that_delivery_alone(self):
        model = ChangedLater().cuda()
        x = torch.randn(2, 4, device="cuda", generator=torch.Generator("cuda").manual_seed(5))
        r = self.both(plan(mediator(CARRY_BACK_SOURCE, saves=["out"])), [x], model=model)
        with torch.no_grad():
            expected = model.last(model.first(x) + 100.0)
        self.assertTrue(torch.equal(r["out"], expected))

    def test_shared_memory_transport_still_refuses_cuda_tensors(self):
        with ivc.Runtime(pool_size=1) as rt:
            p = plan(mediator("y = model.lm_head.output\n", saves=["y"]))
            with self.assertRaisesRegex(Exception, "moves CPU tensors only"):
                rt.run(p, self.model, [self.ids], tiers={0: "isolate"})


if __name__ == "__main__":
    unittest.main()
