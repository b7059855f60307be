#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent reference model of the Linux 6.18.y cpuidle governors.

menu, teo, ladder and haltpoll, plus the part of the cpuidle core that the
decide protocol plays (doc/governors.md sections 3-6, doc/governor-menu.md
and doc/governor-teo.md describe the rules; section 4 of doc/governors.md
the protocol).  Written from a description of those rules and the kernel's
own sources (for facts only), without looking at idlelab's C governors, so
that a disagreement between the two points at a bug in one of them.

C integer semantics are modelled explicitly: every value that is unsigned
in the kernel is masked to its width after arithmetic, s64 values are
wrapped with s64(), and every comparison is written with the operand
conversions C applies (the helper u() turns an s64 into the u64 that C
compares when the other side is u64).

Usable as a library (see Core) or standalone:
    govref.py --governor SPEC [FILE]   -> one "IDX STOP_TICK" per select
"""

import sys

U32 = 0xFFFFFFFF
U64 = 0xFFFFFFFFFFFFFFFF
S64_MAX = (1 << 63) - 1
KTIME_MAX = S64_MAX
UINT_MAX = U32

RESIDENCY_THRESHOLD_NS = 15000          # governors/gov.h
LATENCY_THRESHOLD_NS = 7500             # teo.c: RESIDENCY_THRESHOLD_NS / 2
CPUIDLE_POLL_MIN = 10000                # cpuidle.c
CPUIDLE_STATE_MAX = 10


def s64(x):
    """Wrap an integer to the C s64 range."""
    x &= U64
    return x - (1 << 64) if x >> 63 else x


def u(x):
    """The u64 that C uses when an s64 meets a u64 in an expression."""
    return x & U64


def sdiv(a, b):
    """C signed division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class State:
    __slots__ = ("name", "lat", "res", "polling", "timer_stop")

    def __init__(self, name, lat, res, polling, timer_stop):
        self.name = name
        self.lat = lat          # exit_latency_ns, s64
        self.res = res          # target_residency_ns, s64
        self.polling = polling
        self.timer_stop = timer_stop


class Driver:
    def __init__(self, states, hz):
        self.states = states
        self.count = len(states)
        self.hz = hz
        # TICK_NSEC is a (signed) long constant in the kernel
        self.tick = (1000000000 + hz // 2) // hz


class Device:
    """The zero-initialised per-CPU struct cpuidle_device."""

    def __init__(self, count):
        self.last_state_idx = 0
        self.last_residency_ns = 0      # u64
        self.poll_time_limit = False
        self.poll_limit_ns = 0          # u64
        self.disable = [0] * count


class Env:
    """What the governor reads from outside the cpuidle device."""

    def __init__(self):
        self.latency_req = 2000000000000
        self.sleep_length = 0           # tick_nohz_get_sleep_length()
        self.delta_tick = 0             # ... and its out-parameter
        self.tick_stopped = False
        self.got_idle_tick = False      # ts->got_idle_tick latch

    def got_tick(self):
        """tick_nohz_idle_got_tick(): read and clear the latch."""
        r = self.got_idle_tick
        self.got_idle_tick = False
        return r


# ---------------------------------------------------------------- menu ---

MENU_BUCKETS = 6
MENU_INTERVALS = 8
MENU_RESOLUTION = 1024
MENU_DECAY = 8
MENU_MAX_INTERESTING = 50000000


def menu_which_bucket(d):
    # d is u64, bounds are 10ULL*NSEC_PER_USEC and so on
    if d < 10000:
        return 0
    if d < 100000:
        return 1
    if d < 1000000:
        return 2
    if d < 10000000:
        return 3
    if d < 100000000:
        return 4
    return 5


class Menu:
    """menu; the tunables are idlelab's generalisation of three kernel
    constants (INTERVALS, DECAY, RESOLUTION); defaults are the kernel's."""
    name = "menu"
    params = {"intervals": MENU_INTERVALS, "decay": MENU_DECAY,
              "resolution": MENU_RESOLUTION}

    def __init__(self, **kw):
        p = dict(self.params)
        p.update(kw)
        self.n = p["intervals"]
        self.decay = p["decay"]
        self.resol = p["resolution"]
        unit = self.resol * self.decay * 1000
        self.round_add, self.round_div = unit // 2, unit

    def enable(self, drv, dev, env):
        self.needs_update = 0
        self.tick_wakeup = False
        self.next_timer_ns = 0                  # u64
        self.bucket = 0
        self.cf = [(self.resol * self.decay) & U32] * MENU_BUCKETS
        self.intervals = [0] * self.n           # unsigned int, us
        self.ptr = 0

    def push_interval(self, v):
        self.intervals[self.ptr] = v & U32
        self.ptr = (self.ptr + 1) % self.n

    def typical_interval(self):
        """get_typical_interval(), 6.15 two-sided version, 6.18 revert."""
        lo, hi = -1, UINT_MAX           # s64 thresholds, exclusive
        while True:
            mx, mn, n, total, sq = 0, UINT_MAX, 0, 0, 0
            for v in self.intervals:
                if v <= lo or v >= hi:
                    continue
                n += 1
                total += v
                sq += v * v             # s64 product, summed into u64
                if v > mx:
                    mx = v
                if v < mn:
                    mn = v
            if mx == 0:
                return UINT_MAX
            total &= U64
            sq &= U64
            # ">> INTERVAL_SHIFT" when all 8 are used: the same quotient
            avg, var = total // n, sq // n
            avg_sq = (avg * avg) & U64
            var = (var - avg_sq) & U64
            if var <= U64 // 36:
                if (avg_sq > var * 36 and n * 4 >= self.n * 3) \
                   or var <= 400:
                    return avg & U32
            if n * 4 <= self.n * 3:
                return UINT_MAX
            if ((avg - mn) & U64) > ((mx - avg) & U64):
                lo = mn
            else:
                hi = mx

    def update(self, drv, dev, env):
        st = drv.states[dev.last_state_idx]
        if self.tick_wakeup and self.next_timer_ns > drv.tick:
            m = 9 * MENU_MAX_INTERESTING // 10
        elif st.polling and dev.poll_time_limit:
            m = self.next_timer_ns
        else:
            m = dev.last_residency_ns
            if m > u(s64(2 * st.lat)):
                m = (m - st.lat) & U64
            else:
                m //= 2
        if m > self.next_timer_ns:
            m = self.next_timer_ns
        cf = self.cf[self.bucket]
        cf -= cf // self.decay
        if self.next_timer_ns > 0 and m < MENU_MAX_INTERESTING:
            cf += ((self.resol * m) & U64) // self.next_timer_ns
        else:
            cf += self.resol
        cf &= U32
        if self.decay == 1 and cf == 0:         # the "never 0" guard
            cf = 1
        self.cf[self.bucket] = cf
        # ktime_to_us(): s64 division, then stored as unsigned int
        self.push_interval(sdiv(s64(m), 1000))

    def select(self, drv, dev, env):
        states, tick = drv.states, drv.tick
        lat_req = env.latency_req
        dis = dev.disable

        if self.needs_update:
            self.update(drv, dev, env)
            self.needs_update = 0
        elif dev.last_residency_ns == 0:
            self.push_interval(UINT_MAX)

        predicted = self.typical_interval() * 1000          # u64
        if predicted > RESIDENCY_THRESHOLD_NS or env.tick_stopped:
            delta, delta_tick = env.sleep_length, env.delta_tick
            if delta < 0:
                delta, delta_tick = 0, 0
            self.next_timer_ns = delta
            self.bucket = menu_which_bucket(delta)
            t = (self.round_add + delta * self.cf[self.bucket]) & U64
            timer_us = (t // self.round_div) & U32
            predicted = min(timer_us * 1000, predicted)
            if env.tick_stopped and predicted < tick:
                predicted = self.next_timer_ns
        else:
            self.next_timer_ns = KTIME_MAX
            delta_tick = tick // 2
            self.bucket = MENU_BUCKETS - 1

        if drv.count <= 1 or lat_req == 0 or \
           ((self.next_timer_ns < u(states[1].res) or
             lat_req < states[1].lat) and not dis[0]):
            return 0, not states[0].polling

        idx = -1
        for i in range(drv.count):
            if dis[i]:
                continue
            s = states[i]
            if idx == -1:
                idx = i
            if s.lat > lat_req:
                break
            if u(s.res) <= predicted:
                idx = i
                continue
            if states[idx].polling and s.res < RESIDENCY_THRESHOLD_NS and \
               u(s.res) <= self.next_timer_ns and u(s.lat) <= predicted:
                predicted = u(s.res)
                idx = i
                break
            if predicted < tick:
                break
            if not env.tick_stopped:
                predicted = u(states[idx].res)
                break
            if states[idx].res < tick and s.res <= delta_tick:
                idx = i
            return idx, True
        if idx == -1:
            idx = 0

        stop = True
        if (states[idx].polling or predicted < tick) and \
           not env.tick_stopped:
            stop = False
            if idx > 0 and states[idx].res > delta_tick:
                for i in range(idx - 1, -1, -1):
                    if dis[i]:
                        continue
                    idx = i
                    if states[i].res <= delta_tick:
                        break
        return idx, stop

    def reflect(self, drv, dev, env, index):
        dev.last_state_idx = index
        self.needs_update = 1
        self.tick_wakeup = env.got_tick()


# ----------------------------------------------------------------- teo ---

TEO_PULSE = 1024
TEO_DECAY_SHIFT = 3


class Teo:
    """teo; the tunables are idlelab's (kernel constants by default)."""
    name = "teo"
    params = {"pulse": TEO_PULSE, "decay_shift": TEO_DECAY_SHIFT,
              "residency_threshold_ns": RESIDENCY_THRESHOLD_NS,
              "latency_threshold_ns": LATENCY_THRESHOLD_NS,
              "tick_intercepts_fix": 0}

    def __init__(self, **kw):
        p = dict(self.params)
        p.update(kw)
        self.pulse = p["pulse"]
        self.shift = p["decay_shift"]
        self.res_thr = p["residency_threshold_ns"]
        self.lat_thr = p["latency_threshold_ns"]
        self.fix = p["tick_intercepts_fix"]

    def enable(self, drv, dev, env):
        self.sleep_length_ns = 0                        # s64
        self.intercepts = [0] * CPUIDLE_STATE_MAX       # u32
        self.hits = [0] * CPUIDLE_STATE_MAX             # u32
        self.total = 0
        self.tick_intercepts = 0
        self.short_idles = 0
        self.artificial_wakeup = False

    def update(self, drv, dev, env):
        self.short_idles -= self.short_idles >> self.shift
        if self.artificial_wakeup:
            m = U64
        else:
            lat = u(drv.states[dev.last_state_idx].lat)
            m = dev.last_residency_ns
            if m >= lat:
                m -= lat // 2
                if m < self.res_thr:
                    self.short_idles = (self.short_idles + self.pulse) & U32
            else:
                m //= 2
                self.short_idles = (self.short_idles + self.pulse) & U32

        idx_timer = idx_duration = 0
        hits, icpt = self.hits, self.intercepts
        for i in range(drv.count):
            hits[i] -= hits[i] >> self.shift
            icpt[i] -= icpt[i] >> self.shift
            res = drv.states[i].res
            if res <= self.sleep_length_ns:             # s64 vs s64
                idx_timer = i
                if u(res) <= m:                         # s64 vs u64
                    idx_duration = i

        self.tick_intercepts -= self.tick_intercepts >> self.shift
        if idx_timer == idx_duration:
            hits[idx_timer] = (hits[idx_timer] + self.pulse) & U32
        else:
            icpt[idx_duration] = (icpt[idx_duration] + self.pulse) & U32
            # 6.14-6.18 mainline: the (reversed) TICK_NSEC <= measured;
            # 6.19 (tick_intercepts_fix=1): measured <= TICK_NSEC
            if (m <= drv.tick) if self.fix else (drv.tick <= m):
                self.tick_intercepts = \
                    (self.tick_intercepts + self.pulse) & U32
        self.total -= self.total >> self.shift
        self.total = (self.total + self.pulse) & U32

    @staticmethod
    def state_ok(drv, env, i):
        return not env.tick_stopped or drv.states[i].res >= drv.tick

    @staticmethod
    def shallower(drv, dev, idx, duration):
        for i in range(idx - 1, -1, -1):
            if dev.disable[i]:
                continue
            idx = i
            if drv.states[i].res <= duration:
                break
        return idx

    def select(self, drv, dev, env):
        states, tick, dis = drv.states, drv.tick, dev.disable
        lat_req = env.latency_req
        delta_tick = tick // 2

        if dev.last_state_idx >= 0:
            self.update(drv, dev, env)
            dev.last_state_idx = -1
        self.sleep_length_ns = KTIME_MAX

        if drv.count < 2:
            return 0, False

        idx = -1 if dis[0] else 0
        idx0 = constraint_idx = 0
        isum = hsum = idx_isum = idx_hsum = 0
        for i in range(1, drv.count):
            isum = (isum + self.intercepts[i - 1]) & U32
            hsum = (hsum + self.hits[i - 1]) & U32
            if dis[i]:
                continue
            if idx < 0:
                idx0 = i
            idx = i
            if states[i].lat <= lat_req:
                constraint_idx = i
            idx_isum, idx_hsum = isum, hsum

        if idx < 0:
            return 0, False

        if idx == idx0:
            duration = states[idx].res
            return self.finish(drv, dev, env, idx, idx0, duration,
                               delta_tick)

        if (2 * idx_isum) & U32 > (self.total - idx_hsum) & U32:
            first_ok = idx
            s = 0
            for i in range(idx - 1, -1, -1):
                s = (s + self.intercepts[i]) & U32
                if (2 * s) & U32 > idx_isum:
                    if self.state_ok(drv, env, i) and not dis[i]:
                        idx = i
                    else:
                        idx = first_ok
                    break
                if dis[i]:
                    continue
                if self.state_ok(drv, env, i):
                    first_ok = i
                    continue
                if first_ok == idx:
                    break

        if idx > constraint_idx:
            idx = constraint_idx

        if (idx == 0 or states[idx].res < self.res_thr) and \
           ((2 * self.short_idles) & U32 >= self.total or
                lat_req < self.lat_thr):
            return idx, False

        duration = env.sleep_length
        delta_tick = env.delta_tick
        self.sleep_length_ns = duration
        if idx == 0:
            return idx, False

        # 6.18.3 "Drop misguided target residency check": unconditional
        if states[idx].res > duration:
            idx = self.shallower(drv, dev, idx, duration)

        if states[idx].res < tick and self.tick_intercepts > \
           ((self.total // 2 + self.total // 8) & U32):
            duration = tick // 2
        return self.finish(drv, dev, env, idx, idx0, duration, delta_tick)

    def finish(self, drv, dev, env, idx, idx0, duration, delta_tick):
        """The 'end:' label of teo_select()."""
        states = drv.states
        if (not states[idx].polling and duration >= drv.tick) or \
           env.tick_stopped:
            return idx, True
        if idx > idx0 and states[idx].res > delta_tick:
            idx = self.shallower(drv, dev, idx, delta_tick)
        return idx, False

    def reflect(self, drv, dev, env, index):
        dev.last_state_idx = index
        # short-circuit: got_tick() is not asked when the poll timed out
        if dev.poll_time_limit or \
           (env.got_tick() and self.sleep_length_ns > drv.tick):
            dev.poll_time_limit = False
            self.artificial_wakeup = True
        else:
            self.artificial_wakeup = False


# -------------------------------------------------------------- ladder ---

class Ladder:
    name = "ladder"
    params = {"promotion_count": 4, "demotion_count": 1}

    def __init__(self, **kw):
        self.p = dict(self.params)
        self.p.update(kw)

    def enable(self, drv, dev, env):
        n = drv.count
        self.first = 1 if drv.states[0].polling else 0
        dev.last_state_idx = self.first
        # per-CPU static data: zero unless enable() sets it
        self.th_promo = [0] * n         # u32
        self.th_demo = [0] * n          # u32
        self.t_promo = [0] * n          # u64
        self.t_demo = [0] * n           # u64
        self.promo = [0] * n            # int
        self.demo = [0] * n             # int
        for i in range(self.first, n):
            self.th_promo[i] = self.p["promotion_count"] & U32
            self.th_demo[i] = self.p["demotion_count"] & U32
            if i < n - 1:
                self.t_promo[i] = u(drv.states[i].lat)
            if i > self.first:
                self.t_demo[i] = u(drv.states[i].lat)

    def goto(self, dev, old, new):
        self.promo[old] = 0
        self.demo[old] = 0
        dev.last_state_idx = new
        return new

    def select(self, drv, dev, env):
        states, dis, lat_req = drv.states, dev.disable, env.latency_req
        last = dev.last_state_idx
        first = self.first
        if lat_req == 0:
            return self.goto(dev, last, 0), True

        # s64 = u64 - s64; compared with the u64 thresholds as u64
        r = (dev.last_residency_ns - states[last].lat) & U64

        if last < drv.count - 1 and not dis[last + 1] and \
           r > self.t_promo[last] and states[last + 1].lat <= lat_req:
            self.promo[last] += 1
            self.demo[last] = 0
            if self.promo[last] >= self.th_promo[last]:
                return self.goto(dev, last, last + 1), True

        if last > first and (dis[last] or states[last].lat > lat_req):
            i = last - 1
            while i > first and states[i].lat > lat_req:
                i -= 1
            return self.goto(dev, last, i), True

        if last > first and r < self.t_demo[last]:
            self.demo[last] += 1
            self.promo[last] = 0
            if self.demo[last] >= self.th_demo[last]:
                return self.goto(dev, last, last - 1), True
        return last, True

    def reflect(self, drv, dev, env, index):
        if index > 0:
            dev.last_state_idx = index


# ------------------------------------------------------------ haltpoll ---

class Haltpoll:
    name = "haltpoll"
    params = {"guest_halt_poll_ns": 200000, "guest_halt_poll_shrink": 2,
              "guest_halt_poll_grow": 2, "guest_halt_poll_grow_start": 50000,
              "guest_halt_poll_allow_shrink": 1}

    def __init__(self, **kw):
        self.p = dict(self.params)
        self.p.update(kw)

    def enable(self, drv, dev, env):
        dev.poll_limit_ns = 0

    def select(self, drv, dev, env):
        if drv.count == 0 or env.latency_req == 0:
            return 0, False
        if dev.poll_limit_ns == 0:
            return 1, True
        if dev.last_state_idx == 0:
            if dev.poll_time_limit:
                return 1, True
            return 0, False
        return 0, False

    def adjust(self, dev, block_ns):
        p = self.p
        limit_ns = p["guest_halt_poll_ns"] & U32
        grow_start = p["guest_halt_poll_grow_start"] & U32
        if block_ns > dev.poll_limit_ns and block_ns <= limit_ns:
            val = (dev.poll_limit_ns * (p["guest_halt_poll_grow"] & U32)) \
                & U32
            if val < grow_start:
                val = grow_start
            if val > limit_ns:
                val = limit_ns
            dev.poll_limit_ns = val
        elif block_ns > limit_ns and p["guest_halt_poll_allow_shrink"]:
            shrink = p["guest_halt_poll_shrink"] & U32
            val = dev.poll_limit_ns & U32
            if shrink == 0:
                val = 0
            else:
                val //= shrink
                if val < grow_start:    # since 6.9
                    val = 0
            dev.poll_limit_ns = val

    def reflect(self, drv, dev, env, index):
        dev.last_state_idx = index
        if index != 0:
            self.adjust(dev, dev.last_residency_ns)


GOVERNORS = {"menu": Menu, "teo": Teo, "ladder": Ladder,
             "haltpoll": Haltpoll}


def make_governor(spec):
    """NAME[:param=value,...] -> governor object."""
    name, _, rest = spec.partition(":")
    cls = GOVERNORS.get(name)
    if cls is None:
        raise ValueError("unknown governor '%s'" % name)
    kw = {}
    for item in filter(None, rest.split(",")):
        key, eq, val = item.partition("=")
        if not eq or key not in cls.params:
            raise ValueError("%s: bad parameter '%s'" % (name, item))
        kw[key] = int(val)
    return cls(**kw) if kw else cls()


# ---------------------------------------------------------------- core ---

class Core:
    """The cpuidle core's part of the decide protocol."""

    def __init__(self, gov, states, hz=250, latency_req=2000000000000):
        self.gov = gov
        self.drv = Driver(states, hz)
        self.dev = Device(len(states))
        self.env = Env()
        self.env.latency_req = latency_req
        self.enabled = False

    def poll_limit(self):
        """cpuidle_poll_time(): cache the default poll limit."""
        dev, drv = self.dev, self.drv
        if dev.poll_limit_ns:
            return dev.poll_limit_ns
        poll_max = drv.tick // 16
        limit = poll_max
        for i in range(1, drv.count):
            if dev.disable[i]:
                continue
            t = u(drv.states[i].res)
            if t < CPUIDLE_POLL_MIN:
                continue
            limit = min(t, poll_max)
            break
        dev.poll_limit_ns = limit
        return limit

    def set_latency_req(self, v):
        self.env.latency_req = v

    def set_disable(self, idx, v):
        self.dev.disable[idx] = 1 if v else 0
        self.dev.poll_limit_ns = 0      # sysfs state store resets it

    def select(self, sleep_length, delta_tick, tick_stopped):
        if not self.enabled:
            self.gov.enable(self.drv, self.dev, self.env)
            self.enabled = True
        env = self.env
        env.sleep_length = sleep_length
        env.delta_tick = delta_tick
        env.tick_stopped = bool(tick_stopped)
        idx, stop = self.gov.select(self.drv, self.dev, env)
        return idx, 1 if stop else 0

    def reflect(self, entered, residency, got_tick, poll_time_limit):
        if self.drv.states[entered].polling and self.dev.poll_limit_ns == 0:
            self.poll_limit()
        self.dev.last_residency_ns = residency & U64
        self.dev.poll_time_limit = bool(poll_time_limit)
        # doc/governors.md section 4: GOT_TICK *is* what
        # tick_nohz_idle_got_tick() returns the first time it is asked
        # after this step, so the step's value replaces one that teo's
        # short-circuit left unread (a stream that wants the kernel's
        # latch says 1 again).
        self.env.got_idle_tick = bool(got_tick)
        self.gov.reflect(self.drv, self.dev, self.env, entered)

    def busy(self):
        self.dev.last_residency_ns = 0


# ------------------------------------------------------- stream runner ---

def parse_state(f):
    flags = f[5].split(",") if f[5] != "-" else []
    return State(f[2], int(f[3]), int(f[4]), "polling" in flags,
                 "timer_stop" in flags)


def run_stream(spec, lines):
    """Run the lines of a decide stream; return the list of output lines."""
    gov = make_governor(spec)
    hz, lat, states, pending_dis = 250, 2000000000000, [], []
    core = None
    out = []
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        d = f[0]
        if core is None and d in ("hz", "state", "latency_req", "disable"):
            if d == "hz":
                hz = int(f[1])
            elif d == "state":
                states.append(parse_state(f))
            elif d == "latency_req":
                lat = int(f[1])
            else:
                pending_dis.append((int(f[1]), int(f[2])))
            continue
        if core is None:
            core = Core(gov, states, hz, lat)
            for i, v in pending_dis:
                core.set_disable(i, v)
        if d == "latency_req":
            core.set_latency_req(int(f[1]))
        elif d == "disable":
            core.set_disable(int(f[1]), int(f[2]))
        elif d == "select":
            idx, stop = core.select(int(f[1]), int(f[2]), int(f[3]))
            out.append("%d %d" % (idx, stop))
        elif d == "reflect":
            core.reflect(int(f[1]), int(f[2]), int(f[3]), int(f[4]))
        elif d == "busy":
            core.busy()
        else:
            raise ValueError("unknown directive '%s'" % d)
    return out


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--governor", "-g", required=True)
    ap.add_argument("file", nargs="?")
    a = ap.parse_args(argv)
    src = open(a.file) if a.file else sys.stdin
    with src:
        for line in run_stream(a.governor, src):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
