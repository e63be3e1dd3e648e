"""What ordering GPU work across two processes costs (docs/performance.md, "CUDA").

    /usr/bin/python3 benchmarks/runtime/bench_cuda_ordering.py

The floor under the cuda-ipc transport's per-hook time, without ivc: a host
process copies 4 KiB into device memory shared with a worker process, sends
a message over a pipe, and waits for the reply; per round trip, best of 3
runs of 2000. Strategies:
  messages only     no GPU work at all (the pipe's round trip: the baseline)
  stream waits      each side makes its stream wait for the other's
                    interprocess event, and records its own (ivc's first design)
  CPU wait          the worker waits on the CPU for the host's event and
                    records nothing while its stream is idle (ivc's design)
"+ kernel" runs a kernel in the worker each round (an in-place update).
Prints "skipped: no CUDA device" and exits 0 where there is none.
"""

import sys
import time

import torch
import torch.multiprocessing as mp

ROUNDS = 2000


def worker(conn, arena, to_worker, to_host, strategy, kernel):
    torch.cuda.set_device(0)
    stream = torch.cuda.current_stream()
    to_worker = torch.cuda.Event.from_ipc_handle(0, to_worker)
    to_host = torch.cuda.Event.from_ipc_handle(0, to_host)
    while conn.recv():
        if strategy == "stream waits":
            stream.wait_event(to_worker)
        elif strategy == "CPU wait":
            to_worker.synchronize()
        if kernel:
            arena[:1].add_(1)
        if strategy == "stream waits" or (strategy == "CPU wait" and not stream.query()):
            to_host.record(stream)
        conn.send(True)
    torch.cuda.synchronize()
    conn.send(True)


def per_round_trip(strategy, kernel):
    arena = torch.zeros(1 << 20, device="cuda")
    src = torch.ones(1024, device="cuda")
    to_worker = torch.cuda.Event(interprocess=True)
    to_host = torch.cuda.Event(interprocess=True)
    to_worker.record()
    to_host.record()
    here, there = mp.get_context("spawn").Pipe()
    proc = mp.get_context("spawn").Process(
        target=worker, args=(there, arena, to_worker.ipc_handle(), to_host.ipc_handle(),
                             strategy, kernel))
    proc.start()
    stream = torch.cuda.current_stream()
    best = float("inf")
    for _ in range(3):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(ROUNDS):
            if strategy != "messages only":
                arena[:1024].copy_(src)
                to_worker.record(stream)
            here.send(True)
            here.recv()
            if strategy == "stream waits" or (strategy == "CPU wait" and not to_host.query()):
                stream.wait_event(to_host)
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / ROUNDS)
    here.send(False)
    here.recv()
    proc.join()
    return best


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device (torch sees none)")
        return 0
    print(f"device: {torch.cuda.get_device_name()}; per round trip, best of 3 x {ROUNDS}")
    base = per_round_trip("messages only", False)
    print(f"{'messages only':>22} {base * 1e6:8.1f} us")
    for strategy in ("stream waits", "CPU wait"):
        for kernel in (False, True):
            t = per_round_trip(strategy, kernel)
            name = strategy + (" + kernel" if kernel else "")
            print(f"{name:>22} {t * 1e6:8.1f} us  (+{(t - base) * 1e6:.1f} us over messages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
