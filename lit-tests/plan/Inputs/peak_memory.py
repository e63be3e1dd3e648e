"""Runs `ivc check FILE` and `ivc plan FILE` and compares their peak
resident memory: the plan is written a trace at a time, so it should cost
about what the analysis does. Prints both figures; exits 1 past 1.5x."""
import resource
import subprocess
import sys

ivc, path = sys.argv[1], sys.argv[2]


def peak_kib(command):
    # RUSAGE_CHILDREN keeps the largest child's peak: run each in a fresh
    # helper so the two figures stay apart.
    probe = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True,
                         text=True, check=True)
    return int(out.stdout)


check = peak_kib([ivc, "check", path])
plan = peak_kib([ivc, "plan", path])
ratio = plan / check
print(f"peak memory: check {check} KiB, plan {plan} KiB, ratio {ratio:.2f}")
sys.exit(0 if ratio <= 1.5 else 1)
