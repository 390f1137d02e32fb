"""Runs a command and reports the CPU time of it and of every process it started, at any depth.

    python3 support/cpuOfTree.py COMMAND [ARGS...]

Ends stderr with `cpu-seconds N` (user + system) and exits with the command's code. A process's CPU
time reaches its parent only when the parent waits for it, and a command may exit before its own
children (the fleet command leaves its workers to end on their own): this process is made the
subreaper of the whole tree (prctl PR_SET_CHILD_SUBREAPER), so orphans are handed to it, and it
waits for every one of them — bounded, so a process that never ends cannot hold a benchmark up.
"""

import ctypes
import os
import resource
import signal
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36
ORPHANS_BOUND_SECONDS = 30


def main() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.stderr.write(f"cpuOfTree: prctl failed: {os.strerror(ctypes.get_errno())}\n")
        return 2
    code = subprocess.call(sys.argv[1:])
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError()))
    signal.alarm(ORPHANS_BOUND_SECONDS)
    try:
        while True:
            os.wait()
    except ChildProcessError:
        pass  # no child left: every process of the tree has been waited for
    except TimeoutError:
        sys.stderr.write(f"cpuOfTree: processes still running after {ORPHANS_BOUND_SECONDS} s: not counted\n")
    signal.alarm(0)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stderr.write(f"cpu-seconds {usage.ru_utime + usage.ru_stime:.3f}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
