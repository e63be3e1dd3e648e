"""Runs a command with its address space limited to argv[1] MiB and prints
its exit status after whatever it wrote."""
import resource
import subprocess
import sys

limit = int(sys.argv[1]) << 20


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


done = subprocess.run(sys.argv[2:], preexec_fn=limited)
print(f"exit status {done.returncode}", flush=True)
