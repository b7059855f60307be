#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Random decide streams and a differential test against govref.

    gen_streams.py gen  --governor SPEC --seed N [--steps N]
        print one random stream (the reference's answers as comments)
    gen_streams.py diff --governor SPEC --seeds A-B [--steps N]
                        [--idlelab PATH] [--save-dir DIR]
        run every stream through `idlelab decide` and the reference model,
        compare every output line, stop at the first divergence, shrink the
        stream to a minimal one that still diverges and report it

A stream is generated step by step together with the reference model
(govref.Core), so that the entered state is usually the selected one, as in
a real idle loop.  Everything is drawn from random.Random(seed): a seed is a
reproducible test case.
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import govref  # noqa: E402

KTIME_MAX = govref.KTIME_MAX
S32_MAX = 2147483647

# (name, exit latency ns, target residency ns, flags)
TABLES = {
    "skl": [("POLL", 0, 0, "polling"), ("C1", 2000, 2000, "-"),
            ("C1E", 10000, 20000, "-"),
            ("C3", 70000, 100000, "timer_stop"),
            ("C6", 85000, 200000, "timer_stop"),
            ("C7s", 124000, 800000, "timer_stop"),
            ("C8", 200000, 800000, "timer_stop"),
            ("C9", 480000, 5000000, "timer_stop"),
            ("C10", 890000, 5000000, "timer_stop")],
    "amd": [("POLL", 0, 0, "polling"), ("C1", 1000, 2000, "-"),
            ("C2", 400000, 800000, "-")],
    "vm": [("POLL", 0, 0, "polling"), ("haltpoll_idle", 1000, 1000, "-")],
    "juno": [("WFI", 1000, 1000, "-"),
             ("cpu-sleep", 1500000, 2000000, "timer_stop"),
             ("cluster-sleep", 1600000, 2500000, "timer_stop")],
}
HZS = (100, 250, 300, 1000)


def tick_nsec(hz):
    return (1000000000 + hz // 2) // hz


def log_uniform(rng, lo, hi):
    """An integer spread evenly over the orders of magnitude of [lo, hi]."""
    lo = max(lo, 1)
    v = int(lo * (hi / lo) ** rng.random())
    return min(max(v, lo), hi)


SPECIAL = (15000, 14999, 15001, 10000, 9999, 7500, 7499, 2000, 1000, 1)


def random_table(rng, tick):
    """2..10 states; mostly ordered, sometimes odd (equal, zero, huge,
    exactly on a threshold)."""
    n = rng.randint(2, govref.CPUIDLE_STATE_MAX)
    states = []
    poll = rng.random() < 0.6
    lat = res = 0
    for i in range(n):
        if i == 0 and poll:
            states.append(("POLL", 0, 0, "polling"))
            continue
        r = rng.random()
        if r < 0.05:
            lat, res = lat, res                         # same as before
        elif r < 0.10:
            lat, res = 0, 0                             # residency 0
        elif r < 0.14:
            lat = log_uniform(rng, 10 ** 9, 4 * 10 ** 18)   # huge
            res = log_uniform(rng, lat, 4 * 10 ** 18)
        elif r < 0.20:
            lat = log_uniform(rng, 1, 10 ** 7)          # unordered
            res = log_uniform(rng, 1, 10 ** 8)
        elif r < 0.32 or (i == 1 and r < 0.5):          # on a threshold
            res = rng.choice(SPECIAL + (tick, tick - 1, tick + 1,
                                        tick // 2, tick // 16))
            lat = min(res, rng.choice(SPECIAL + (res, res // 2, 0)))
        else:
            lat = lat + log_uniform(rng, 1, 500000)
            res = max(res, lat) + log_uniform(rng, 1, 3000000)
        flags = "timer_stop" if rng.random() < 0.3 else "-"
        states.append(("S%d" % i, lat, res, flags))
    return states


def edge_table(rng, tick):
    """States whose numbers sit exactly on the governors' thresholds."""
    vals = sorted(set(SPECIAL + (tick, tick - 1, tick + 1, tick // 2,
                                 tick // 16, 2 * tick, 20000, 50000000)))
    n = rng.randint(1, 6)
    res = sorted(rng.sample(vals, n))
    states = [("POLL", 0, 0, "polling")] if rng.random() < 0.7 else []
    for i, r in enumerate(res):
        lat = min(r, rng.choice(SPECIAL + (r, r // 2, 0)))
        states.append(("E%d" % i, lat, r, "-"))
    if len(states) < 2:
        states.append(("E9", tick, 2 * tick, "timer_stop"))
    return states


def interesting_times(states, tick):
    """Boundaries at which some governor changes its mind."""
    t = [0, 1, 999, 1000, 7500, 10000, 15000, 100000, 1000000, 10000000,
         45000000, 50000000, 100000000, tick, tick // 2, tick // 16,
         2 * tick, 3 * tick, 10 * tick]
    for _, lat, res, _ in states:
        t += [lat, res, 2 * lat, lat // 2, res + lat // 2]
    return [x for x in t if 0 <= x < KTIME_MAX]


class StreamGen:
    """Draws one stream; each draw follows a per-stream 'flavour'."""

    def __init__(self, rng, spec, avoid=()):
        self.rng = rng
        self.spec = spec
        self.avoid = avoid
        r = rng.random()
        self.hz = rng.choice(HZS) if rng.random() < 0.9 else \
            log_uniform(rng, 1, 100000)         # any HZ decide accepts
        self.tick = tick_nsec(self.hz)
        if r < 0.5:
            name = rng.choice(sorted(TABLES))
            self.states = list(TABLES[name])
        elif r < 0.65:
            name = "edge"
            self.states = edge_table(rng, self.tick)
        else:
            name = "random"
            self.states = random_table(rng, self.tick)
        self.table = name
        self.times = interesting_times(self.states, self.tick)
        # flavour: how timers, intercepts and the tick behave
        self.p_ktime = rng.choice((0.0, 0.05, 0.3))
        self.p_hit = rng.choice((0.2, 0.5, 0.8))
        self.p_busy = rng.choice((0.0, 0.05, 0.15))
        self.p_stopped = rng.choice((0.0, 0.2, 0.6))
        self.p_gottick = rng.choice((0.05, 0.2, 0.5))
        self.p_ptl = rng.choice((0.05, 0.3, 0.7))
        self.p_other = rng.choice((0.0, 0.03, 0.15))
        self.p_lat = rng.choice((0.0, 0.01, 0.05))
        self.p_dis = rng.choice((0.0, 0.01, 0.04, 0.3))
        self.scale = log_uniform(rng, 1000, 100 * self.tick)
        # periodic flavour: one timer period, woken by it almost always
        self.period = log_uniform(rng, 1000, 20 * self.tick) \
            if rng.random() < 0.25 else 0
        # short flavour: mostly short idle periods (small typical interval)
        self.p_short = rng.choice((0.0, 0.0, 0.5, 0.9))

    def header(self):
        lines = ["hz %d" % self.hz]
        if self.rng.random() < 0.3:
            lines.append("latency_req %d" % self.latency())
        for i, (name, lat, res, flags) in enumerate(self.states):
            lines.append("state %d %s %d %d %s" % (i, name, lat, res, flags))
        if self.rng.random() < 0.1:
            lines.append("disable %d 1" % self.rng.randrange(len(self.states)))
        return lines

    def latency(self):
        rng = self.rng
        r = rng.random()
        if r < 0.02:            # s64 in the protocol; never in a kernel
            return -rng.choice((1, 1000, 1 << 63))
        if r < 0.15:
            return 0
        if r < 0.5:
            v = rng.choice([lat for _, lat, _, _ in self.states] +
                           [7500, 1000, 2000000000000, S32_MAX * 1000])
            return max(0, v + rng.choice((-1, 0, 0, 1)))
        if r < 0.8:
            return log_uniform(rng, 1, 10 ** 7)
        return 2000000000000

    def near(self):
        rng = self.rng
        return max(0, rng.choice(self.times) +
                   rng.choice((-1, 0, 0, 1, rng.randint(-500, 500))))

    def menu_wrap(self, core):
        """A sleep length that makes menu's u32 timer_us wrap to a small
        value: (4096000 + next * cf) / 8192000 just above k * 2^32."""
        gov = core.gov
        cf = gov.cf[5] if core.enabled else 0
        if not cf:
            return None
        k = self.rng.randint(1, 4)
        target = (k << 32) + self.rng.randint(0, 20000)     # us
        nxt = (target * gov.round_div - gov.round_add + cf - 1) // cf
        if nxt * cf >= 1 << 64 or nxt < 100000000:
            return None
        return nxt

    def sleep_length(self, core):
        rng = self.rng
        r = rng.random()
        if r < self.p_ktime:
            return KTIME_MAX
        if self.period and rng.random() < 0.9:
            return max(0, self.period + rng.randint(-100, 100))
        if isinstance(core.gov, govref.Menu) and rng.random() < 0.02:
            v = self.menu_wrap(core)
            if v is not None:
                return v
        r = rng.random()
        if r < 0.005:
            return rng.choice((-(1 << 63), -(1 << 62)))
        if r < 0.03:
            return -rng.choice((1, 1000, rng.randint(1, 2 * self.tick)))
        if r < 0.05:
            return 0
        if r < 0.10:
            return rng.randint(1, 2000)
        if r < 0.35:
            return self.near()
        if r < 0.37:
            return log_uniform(rng, 10 ** 12, KTIME_MAX - 1)
        if r < 0.40:
            return self.tick * rng.randint(1, 20) + rng.choice((-1, 0, 1))
        return log_uniform(rng, 100, 10 * self.scale)

    def delta_tick(self, sleep):
        rng = self.rng
        r = rng.random()
        nxt = rng.randint(1, self.tick)         # time to the next tick
        if r < 0.65:
            return min(sleep, nxt)
        if r < 0.75:
            return sleep
        if r < 0.79:
            return -rng.randint(0, self.tick)
        if r < 0.80:
            return rng.choice((-(1 << 63), KTIME_MAX))
        if r < 0.90:
            return self.near()
        return rng.randint(0, 4 * self.tick)

    def residency(self, sleep, entered):
        rng = self.rng
        if rng.random() < self.p_short:
            return log_uniform(rng, 1, 20000)
        r = rng.random()
        if self.period and 0 < sleep < KTIME_MAX and r < 0.97:
            return sleep + rng.randint(0, 3000)
        if 0 < sleep < KTIME_MAX and r < self.p_hit:
            return max(0, sleep + rng.randint(-2000, 5000))
        r = rng.random()
        if r < 0.04:
            return 0
        if r < 0.10:
            return rng.randint(1, 3000)
        if r < 0.20:
            # measured (residency minus some exit latency) on a threshold
            lat = self.states[entered][1]
            return max(0, rng.choice(self.times) +
                       rng.choice((lat, lat // 2, lat // 2 + lat % 2)) +
                       rng.choice((-1, 0, 0, 1)))
        if r < 0.35:
            return self.near()
        if r < 0.365:
            return log_uniform(rng, 10 ** 12, KTIME_MAX)
        if r < 0.37:            # u64 in the protocol: above S64_MAX too
            return rng.randint(KTIME_MAX, govref.U64)
        hi = sleep if 0 < sleep < KTIME_MAX else 10 * self.scale
        return log_uniform(rng, 1, max(hi, 2))

    def generate(self, core, nsel, lines):
        """Append nsel selects (with their steps) to lines."""
        rng = self.rng
        n = len(self.states)
        stopped = False
        for _ in range(nsel):
            if rng.random() < self.p_lat:
                v = self.latency()
                lines.append("latency_req %d" % v)
                core.set_latency_req(v)
            if rng.random() < self.p_dis:
                i, v = rng.randrange(n), rng.randint(0, 1)
                lines.append("disable %d %d" % (i, v))
                core.set_disable(i, v)
            sleep = self.sleep_length(core)
            dtick = self.delta_tick(sleep)
            if rng.random() < 0.3:
                stopped = rng.random() < self.p_stopped
            lines.append("select %d %d %d" % (sleep, dtick, stopped))
            idx, _ = core.select(sleep, dtick, stopped)
            if rng.random() < self.p_busy:
                lines.append("busy")
                core.busy()
                continue
            if rng.random() < self.p_dis / 2:
                # a sysfs write while the CPU is idle: after the select,
                # before the reflect (the core's poll limit sees it)
                i, v = rng.randrange(n), rng.randint(0, 1)
                lines.append("disable %d %d" % (i, v))
                core.set_disable(i, v)
            if rng.random() < self.p_lat / 2:
                v = self.latency()
                lines.append("latency_req %d" % v)
                core.set_latency_req(v)
            entered = idx
            if rng.random() < self.p_other:
                entered = rng.randrange(n)
            res = self.residency(sleep, entered)
            got = int(rng.random() < (self.p_gottick if res < self.tick
                                      else 0.7))
            ptl = int(rng.random() < (self.p_ptl if
                                      self.states[entered][3] == "polling"
                                      else 0.05))
            if ptl and got and "latch" in self.avoid:
                got = 0         # see divergences/README: unread latch
            lines.append("reflect %d %d %d %d" % (entered, res, got, ptl))
            core.reflect(entered, res, got, ptl)


def gen_stream(spec, seed, nsel, avoid=()):
    """One random stream for governor SPEC: a list of lines."""
    rng = random.Random("%s/%d" % (spec, seed))
    g = StreamGen(rng, spec, avoid)
    lines = ["# seed %d, table %s, governor %s" % (seed, g.table, spec)]
    lines += g.header()
    core = None
    states = [govref.State(nm, lat, res, fl == "polling", False)
              for nm, lat, res, fl in g.states]
    lat = 2000000000000
    dis = []
    for ln in lines:
        f = ln.split()
        if f[0] == "latency_req":
            lat = int(f[1])
        elif f[0] == "disable":
            dis.append((int(f[1]), int(f[2])))
    core = govref.Core(govref.make_governor(spec), states, g.hz, lat)
    for i, v in dis:
        core.set_disable(i, v)
    g.generate(core, nsel, lines)
    return lines


# --------------------------------------------------------------- diff ---

def run_idlelab(idlelab, spec, lines):
    p = subprocess.run([idlelab, "decide", "--governor", spec],
                       input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines(), p.stderr


def first_divergence(idlelab, spec, lines):
    """None, or (select number, ref answer, C answer, C status, stderr)."""
    ref = govref.run_stream(spec, lines)
    rc, out, err = run_idlelab(idlelab, spec, lines)
    for k in range(max(len(ref), len(out))):
        a = ref[k] if k < len(ref) else "(none)"
        b = out[k] if k < len(out) else "(none)"
        if a != b:
            return k + 1, a, b, rc, err
    if rc != 0:
        return len(ref), "(exit 0)", "(exit %d)" % rc, rc, err
    return None


def split_steps(lines):
    """Header lines and a list of step groups: the latency_req/disable
    lines before a select, the select and its reflect or busy.  Dropping
    whole groups keeps the stream valid."""
    i = 0
    while i < len(lines) and not lines[i].startswith("select"):
        i += 1
    head, groups, cur = lines[:i], [], []
    for ln in lines[i:]:
        cur.append(ln)
        if ln.startswith(("reflect", "busy")):
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return head, groups


def truncate_after(lines, nsel):
    """Keep the stream up to and including the nsel-th select."""
    out, k = [], 0
    for ln in lines:
        if k == nsel and not ln.startswith("#"):
            break
        out.append(ln)
        if ln.startswith("select"):
            k += 1
    return out


def shrink(idlelab, spec, lines, budget=400):
    """Delta-debug the stream: drop step groups while it still diverges."""
    div = first_divergence(idlelab, spec, lines)
    if div is None:
        return lines
    lines = truncate_after(lines, div[0])
    head, groups = split_steps(lines)
    chunk = max(1, len(groups) // 2)
    tries = 0
    while chunk >= 1 and tries < budget:
        i, changed = 0, False
        while i < len(groups) - 1 and tries < budget:  # keep the last
            cand = groups[:i] + groups[i + chunk:]
            if len(cand) == 0 or i + chunk > len(groups) - 1:
                i += chunk
                continue
            tries += 1
            flat = head + [x for g in cand for x in g]
            if first_divergence(idlelab, spec, flat) is not None:
                groups, changed = cand, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    # also drop header lines that do not matter (comments, disables)
    flat = head + [x for g in groups for x in g]
    for j in range(len(head) - 1, -1, -1):
        h = flat[j]
        if h.startswith(("#", "disable", "latency_req")):
            cand = flat[:j] + flat[j + 1:]
            if first_divergence(idlelab, spec, cand) is not None:
                flat = cand
    div = first_divergence(idlelab, spec, flat)
    return truncate_after(flat, div[0]) if div else flat


def report(spec, seed, lines, div, small, sdiv, out):
    k, a, b, rc, err = div
    w = out.write
    w("DIVERGENCE: governor %s, seed %d, select #%d\n" % (spec, seed, k))
    w("  reference (govref.py): %s\n  idlelab decide:        %s\n" % (a, b))
    if rc:
        w("  idlelab exit status %d: %s\n" % (rc, err.strip()))
    w("  minimal stream (%d lines; its last select diverges):\n" %
      len(small))
    for ln in small:
        w("    %s\n" % ln)
    if sdiv:
        w("  minimal stream, select #%d: reference %s, idlelab %s\n" %
          (sdiv[0], sdiv[1], sdiv[2]))
    tail = truncate_after(lines, k)
    w("  original stream: last %d of %d lines up to the divergence:\n" %
      (min(25, len(tail)), len(tail)))
    for ln in tail[-25:]:
        w("    %s\n" % ln)


def parse_seeds(s):
    out = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b) + 1) if b else [int(a)]
    return out


def cmd_diff(a):
    idlelab = a.idlelab or os.environ.get("IDLELAB") or \
        "/tmp/b-govref/idlelab"
    nsel_total = 0
    for seed in parse_seeds(a.seeds):
        rng = random.Random("len/%s/%d" % (a.governor, seed))
        nsel = rng.randint(a.steps // 4, a.steps) if a.steps > 4 \
            else a.steps
        lines = gen_stream(a.governor, seed, nsel, a.avoid.split(","))
        div = first_divergence(idlelab, a.governor, lines)
        nsel_total += nsel
        if div is None:
            continue
        small = shrink(idlelab, a.governor, lines)
        sd = first_divergence(idlelab, a.governor, small)
        report(a.governor, seed, lines, div, small, sd, sys.stdout)
        if a.save_dir:
            os.makedirs(a.save_dir, exist_ok=True)
            name = "%s-seed%d.in" % (a.governor.replace(":", "_")
                                     .replace(",", "_").replace("=", ""),
                                     seed)
            with open(os.path.join(a.save_dir, name), "w") as f:
                f.write("# governor: %s\n" % a.governor)
                if sd:
                    f.write("# reference %s, idlelab %s at select #%d\n" %
                            (sd[1], sd[2], sd[0]))
                f.write("\n".join(small) + "\n")
        print("%s: %d selects before the divergence" %
              (a.governor, nsel_total))
        return 1
    print("%s: %d selects, no divergence" % (a.governor, nsel_total))
    return 0


def cmd_gen(a):
    lines = gen_stream(a.governor, a.seed, a.steps)
    ans = iter(govref.run_stream(a.governor, lines))
    for ln in lines:
        print(ln)
        if a.answers and ln.startswith("select"):
            print("# -> %s" % next(ans))
    return 0


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--governor", "-g", required=True)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--steps", type=int, default=200)
    g.add_argument("--answers", action="store_true",
                   help="add the reference's answer after each select")
    d = sub.add_parser("diff")
    d.add_argument("--governor", "-g", required=True)
    d.add_argument("--seeds", default="1-20")
    d.add_argument("--steps", type=int, default=2000,
                   help="selects per stream (at most; at least 1/4)")
    d.add_argument("--idlelab")
    d.add_argument("--save-dir")
    d.add_argument("--avoid", default="",
                   help="comma list of known divergences not to provoke")
    a = ap.parse_args(argv)
    return cmd_gen(a) if a.cmd == "gen" else cmd_diff(a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
