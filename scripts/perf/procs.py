"""The process tree of the app under measurement, from /proc: who is below whom, names, memory
(PSS) and CPU time per process or per thread. Linux only; standard library only."""
import os

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def _stat_fields(path):
    """The fields of a /proc stat file after the command name (field 3 onwards)."""
    with open(path) as f:
        return f.read().rsplit(")", 1)[1].split()


def alive(pid):
    try:
        return _stat_fields(f"/proc/{pid}/stat")[0] not in ("Z", "X")
    except OSError:
        return False


def tree(root):
    """root and every process below it."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                parents[int(name)] = int(_stat_fields(f"/proc/{name}/stat")[1])
            except (OSError, IndexError, ValueError):
                pass
    found = [root]
    for pid in found:
        found.extend(p for p, pp in parents.items() if pp == pid)
    return found


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def describe(root):
    return ", ".join(f"{comm(p)}:{p}" for p in tree(root))


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid, thread=None):
    """User + system CPU time of a process (all its threads), or of one of its threads."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread else f"/proc/{pid}/stat"
    try:
        fields = _stat_fields(path)
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat, so 11 and 12 after the command name.
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND
