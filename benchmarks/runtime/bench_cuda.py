"""cuda-ipc transport benchmark (docs/performance.md, "CUDA").

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/runtime/bench_cuda.py \
        [--quick] [--spin-us N]

Per-hook round trip host -> worker -> host for activations on the GPU,
4 KiB .. 64 MiB, through the cuda-ipc transport, next to a device-to-device
copy of the same bytes measured in the same run (the floor: a delivery is
one such copy, a swap two). Goal: under 0.1 ms per hook for small tensors.
The last column runs a kernel in the worker at every hook (an in-place
update of the delivery): two processes' work on one GPU, so the device
switches context to the worker and back. --spin-us sets
SandboxConfig.channel_spin_us: both sides poll their channel that long
before they sleep.
Prints "skipped: no CUDA device (...)" and exits 0 where there is no GPU.
"""

import argparse
import statistics
import sys
import time

import torch

import ivc
from ivc import _core

KiB, MiB = 1 << 10, 1 << 20


class Chain(torch.nn.Module):
    """K modules that pass their input on: what is measured is the hook."""

    class Pass(torch.nn.Module):
        def forward(self, x):
            return x

    def __init__(self, k):
        super().__init__()
        self.layers = torch.nn.ModuleList(self.Pass() for _ in range(k))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def plan(source):
    return {"schema": "ivc-plan/v1", "file": "bench.py", "traces": [{
        "index": 0, "receiver": "model", "tracer": "tracer", "mediators": [{
            "index": 0, "tier": "isolate", "source": source, "saves": []}]}]}


def why_not():
    if not _core.cuda_built():
        return "this build has no cuda-ipc transport (cuda.h was not found)"
    usable, why = _core.cuda_driver_status()
    if not usable:
        return why
    if not torch.cuda.is_available():
        return "torch sees no CUDA device"
    return None


def synced(fn):
    def run():
        fn()
        torch.cuda.synchronize()
    return run


def best_and_median(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def device_copy(nbytes, repeats=50):
    src = torch.ones(nbytes // 4, device="cuda")
    dst = torch.empty_like(src)
    return best_and_median(synced(lambda: dst.copy_(src)), repeats)


def fmt(s):
    return f"{s * 1e3:9.3f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--spin-us", type=int, default=ivc.SandboxConfig().channel_spin_us,
                    help="SandboxConfig.channel_spin_us (default: its default; 0 sleeps at once)")
    args = ap.parse_args()
    why = why_not()
    if why:
        print(f"skipped: no CUDA device ({why})")
        return 0
    sizes = [4 * KiB, 1 * MiB] if args.quick else [4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB]
    print(f"device: {torch.cuda.get_device_name()}; channel_spin_us={args.spin_us}; times per "
          "hook, best of the repeats (median in brackets)")
    print(f"{'size':>8} {'D2D copy':>12} | {'read':>12} {'(median)':>12} {'x copy':>7} | "
          f"{'swap':>12} {'x 2 copies':>10} | {'update':>12}")
    for size in sizes:
        k = 16 if size <= MiB else 4
        sandbox = ivc.SandboxConfig(transport="cuda-ipc", address_space_bytes=1 << 46,
                                    download_bytes=max(64 * MiB, (k + 1) * (size + 4096)),
                                    upload_bytes=max(16 * MiB, 2 * size + 4096),
                                    channel_spin_us=args.spin_us)
        with ivc.Runtime(sandbox, pool_size=1) as rt:
            model = Chain(k)
            x = torch.ones(size // 4, device="cuda")
            base = plan("pass\n")
            read = plan("for i in range(%d):\n    y = model.layers[i].output\n" % k)
            swap = plan("for i in range(%d):\n    model.layers[i].output = "
                        "model.layers[i].output\n" % k)
            update = plan("for i in range(%d):\n    model.layers[i].output.mul_(1.0)\n" % k)
            repeats = 40 if size <= MiB else 9
            runs = (("base", base), ("read", read), ("swap", swap), ("update", update))
            for _, p in runs:
                for _ in range(3):
                    rt.run(p, model, [x])
            t = {name: best_and_median(synced(lambda p=p: rt.run(p, model, [x])), repeats)
                 for name, p in runs}
        per_read = (t["read"][0] - t["base"][0]) / k
        per_read_med = (t["read"][1] - t["base"][1]) / k
        per_swap = (t["swap"][0] - t["base"][0]) / k
        per_update = (t["update"][0] - t["base"][0]) / k
        copy, _ = device_copy(size)
        label = f"{size // MiB} MiB" if size >= MiB else f"{size // KiB} KiB"
        print(f"{label:>8} {fmt(copy)} | {fmt(per_read)} ({fmt(per_read_med).strip()}) "
              f"{per_read / copy:7.1f} | {fmt(per_swap)} {per_swap / (2 * copy):10.1f} | "
              f"{fmt(per_update)}")
    print("goal: read under 0.1 ms per hook for small tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
