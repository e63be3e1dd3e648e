"""Runtime benchmarks (docs/performance.md, "Runtime").

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/runtime/bench_runtime.py

Prints figures next to baselines measured in the same run, as ratios:
  1. per-hook round trip host -> worker -> host, 4 KiB .. 64 MiB, vs memcpy;
     at 4 KiB also with each side polling before it sleeps (channel_spin_us),
     and FAST with and without its memory budget (fast_memory_bytes)
  2. warm-pool trace overhead vs the same plan in process (FAST)
  3. cold worker start, with and without the zygote
Medians of several repeats; machines are shared, so read ratios, not times.
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
    """K modules that pass their input on: the model costs nothing, so what
    is measured is the interleaving."""

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


def plan(source, saves=()):
    return {"schema": "ivc-plan/v1", "file": "bench.py", "traces": [{
        "index": 0, "receiver": "model", "tracer": "tracer", "mediators": [{
            "index": 0, "tier": "fast", "source": source, "saves": list(saves)}]}]}


def times_of(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def median_time(fn, repeats):
    return statistics.median(times_of(fn, repeats))


def fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds:8.2f} s "


def channel_ping_pong():
    """Baseline: a 64-byte frame to another process and back, Python on both
    ends, over the same channel code (socketpair, framing, deadlines)."""
    import os
    import socket
    a, b = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        a.close()
        ch = _core.Channel.from_fd(b.detach())
        while True:
            try:
                data, _ = ch.recv()
            except Exception:  # noqa: BLE001
                os._exit(0)
            ch.send(data)
    b.close()
    ch = _core.Channel.from_fd(a.detach())
    msg = b"x" * 64

    def once():
        for _ in range(200):
            ch.send(msg)
            ch.recv()
    once()
    ts = [t / 200 for t in times_of(once, 15)]
    ch.close()
    os.waitpid(pid, 0)
    return min(ts), statistics.median(ts)


def hook_times(size, k, repeats, spin_us=ivc.SandboxConfig().channel_spin_us):
    """Per hook, for ISOLATE then FAST: (read, swap, median read)."""
    # The download segment holds a whole job's deliveries, so its pages
    # stay mapped from one trace to the next.
    sandbox = ivc.SandboxConfig(download_bytes=max(64 * MiB, (k + 1) * (size + 4096)),
                                channel_spin_us=spin_us)
    rt = ivc.Runtime(sandbox, pool_size=1)
    model = Chain(k)
    x = torch.ones(size // 4)
    base = plan("pass\n")
    read = plan("for i in range(%d):\n    y = model.layers[i].output\n" % k)
    swap = plan("for i in range(%d):\n    model.layers[i].output = "
                "model.layers[i].output\n" % k)
    per = []
    for tier in ("isolate", "fast"):
        tiers = {0: tier}
        for p in (base, read, swap):
            for _ in range(3):
                rt.run(p, model, [x], tiers=tiers)
        t = {name: times_of(lambda p=p: rt.run(p, model, [x], tiers=tiers), repeats)
             for name, p in (("base", base), ("read", read), ("swap", swap))}
        best = {name: min(v) for name, v in t.items()}
        med = {name: statistics.median(v) for name, v in t.items()}
        per.append(((best["read"] - best["base"]) / k, (best["swap"] - best["base"]) / k,
                    (med["read"] - med["base"]) / k))
    rt.close()
    return per


def hook_round_trips(quick):
    print("1. Per-hook round trip host -> worker -> host, warm worker")
    print("   read: the activation is delivered, the mediator asks for the next one;")
    print("   swap: it also assigns it back (layer.output = x): the bytes go both")
    print("   ways and the host copies them into a new output tensor, as FAST does.")
    ping_best, ping_median = channel_ping_pong()
    print("   baseline, bare channel ping-pong between two Python processes (64 bytes):")
    print(f"   best {fmt(ping_best).strip()}, median {fmt(ping_median).strip()}")
    print("   Hook times are the best of the repeats (the median in brackets):")
    print("   on a shared machine the best is the noise-robust figure for latency.")
    print(f"   {'size':>8} {'memcpy':>11} | {'read':>11} {'(median)':>11} {'x memcpy':>8} "
          f"{'FAST read':>11} | {'swap':>11} {'x 2 memcpy':>10} {'FAST swap':>11}")
    sizes = [4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB, 64 * MiB]
    if quick:
        sizes = [4 * KiB, 1 * MiB]
    for size in sizes:
        k = 16 if size <= MiB else 4
        repeats = 40 if size <= MiB else 9
        (r, w, rm), (fr, fw, _) = hook_times(size, k, repeats)
        mc = _core.bench_memcpy(size, 20)
        print(f"   {size // KiB:>6} K {fmt(mc)} | {fmt(r)} ({fmt(rm).strip():>8}) {r / mc:7.1f}x "
              f"{fmt(fr)} | {fmt(w)} {w / (2 * mc):9.1f}x {fmt(fw)}")
    print("   memcpy: best of 20 copies between pre-faulted buffers (C++). Read at")
    print("   4 KiB is bounded by the ping-pong; from 16 MiB on by the one copy into")
    print("   shared memory. Swap adds a fresh output tensor: glibc maps big blocks")
    print("   anew, so its page faults dominate, in FAST too.")
    print("   Polling before sleeping (SandboxConfig.channel_spin_us), 4 KiB:")
    print(f"   {'spin':>8} | {'read':>11} {'(median)':>11} {'FAST read':>11} | {'swap':>11}")
    for spin in (0, 50, 200):
        (r, w, rm), (fr, _, _) = hook_times(4 * KiB, 16, 40, spin)
        print(f"   {spin:>5} us | {fmt(r)} ({fmt(rm).strip():>8}) {fmt(fr)} | {fmt(w)}")
    fast_memory_cost(quick)


def fast_memory_cost(quick, k=16):
    """FAST read at 4 KiB, with the default memory budget (two readings of
    the host's resident memory per hook) and without one, alternating."""
    model, x = Chain(k), torch.ones(KiB)
    base = plan("pass\n")
    read = plan("for i in range(%d):\n    y = model.layers[i].output\n" % k)
    runtimes = {"budget": ivc.Runtime(pool_size=1),
                "none": ivc.Runtime(pool_size=1, fast_memory_bytes=None)}
    per = {name: [] for name in runtimes}
    for _ in range(2 if quick else 5):
        for name, rt in runtimes.items():
            run = lambda p, rt=rt: rt.run(p, model, [x], tiers={0: "fast"})
            for _ in range(3):
                run(base), run(read)
            per[name].append((min(times_of(lambda: run(read), 200))
                              - min(times_of(lambda: run(base), 200))) / k)
    for rt in runtimes.values():
        rt.close()
    print("   FAST read, 4 KiB, with the default fast_memory_bytes and with None")
    print("   (alternating rounds; best per round):")
    for name, times in per.items():
        print(f"   {name:>8} | " + " ".join(fmt(t).strip() for t in times))
    print(f"   cost of the budget: {fmt(min(per['budget']) - min(per['none'])).strip()} per hook "
          "(best against best)")


def trace_overhead(quick):
    sys.path.insert(0, "unittests/runtime/python")
    from plans import mediator
    from plans import plan as make_plan
    from tiny_gpt import TinyGPT, tokens

    print("\n2. Warm-pool trace overhead: the same plan, FAST (in process) vs ISOLATE")
    model, ids = TinyGPT(), tokens(batch=2)
    p = make_plan(mediator("""
        h = model.transformer.h[1].output[0]
        h[:, -1] += 1.0
        logits = model.lm_head.output.save()
        """, saves=["logits"]))
    rt = ivc.Runtime(pool_size=2)
    repeats = 50 if quick else 200
    for tier in ("fast", "isolate"):
        for _ in range(10):
            rt.run(p, model, [ids], tiers={0: tier})
    with torch.no_grad():
        t_model = median_time(lambda: model(ids), repeats)
    t_fast = median_time(lambda: rt.run(p, model, [ids], tiers={0: "fast"}), repeats)
    t_iso = median_time(lambda: rt.run(p, model, [ids], tiers={0: "isolate"}), repeats)
    print(f"   model forward alone           {fmt(t_model)}")
    print(f"   trace, FAST (in process)      {fmt(t_fast)}   {t_fast / t_model:6.1f}x the forward")
    print(f"   trace, ISOLATE (warm worker)  {fmt(t_iso)}   {t_iso / t_fast:6.1f}x FAST")
    print(f"   ISOLATE overhead over FAST    {fmt(t_iso - t_fast)}")
    rt.close()


def cold_start(quick):
    print("\n3. Cold worker start (to READY: imported, locked down, audited config)")
    from ivc import _build_info
    sandbox = ivc.SandboxConfig()
    config = sandbox.encoded()
    n = 3 if quick else 5

    def starts(pool):
        times = []
        workers = []
        for _ in range(n):
            t0 = time.perf_counter()
            workers.append(pool.acquire(config, ""))
            times.append(time.perf_counter() - t0)
        for w in workers:
            pool.release(w, False)
        return statistics.median(times)

    direct = _core.Pool(_build_info.WORKER_PATH, list(_build_info.WORKER_PYTHON_PATH),
                        use_zygote=False)
    t_direct = starts(direct)
    zygote = _core.Pool(_build_info.WORKER_PATH, list(_build_info.WORKER_PYTHON_PATH),
                        use_zygote=True)
    t0 = time.perf_counter()
    zygote.start_zygote(config)
    t_zygote_start = time.perf_counter() - t0
    t_fork = starts(zygote)
    print(f"   spawn (exec, Python, import torch, lockdown)  {fmt(t_direct)}")
    print(f"   zygote start (once per preload list)           {fmt(t_zygote_start)}")
    print(f"   fork from the zygote + lockdown                {fmt(t_fork)}   "
          f"{t_direct / t_fork:6.1f}x faster than a spawn")
    direct.clear()
    zygote.clear()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    args = ap.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} intra-op thread(s)\n")
    hook_round_trips(args.quick)
    trace_overhead(args.quick)
    cold_start(args.quick)


if __name__ == "__main__":
    main()
