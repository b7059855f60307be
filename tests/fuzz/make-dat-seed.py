#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a small trace.dat (version 6, uncompressed) for the seed corpus
of fuzz_dat.c: the event formats of the running kernel's tracefs (read
only, so run as root), just the events idlelab decodes, and one page of
synthetic records per CPU (idle periods ended by timers, IPIs and
wakeups).  The fixture tests/fixtures/import/small.dat carries 2305
formats, whose parsing makes one execution take seconds under ASan.

    make-dat-seed.py OUT [CPUS] [PERIODS] [SEED]
"""
import random
import re
import struct
import sys

TRACEFS = '/sys/kernel/tracing/events'
EVENTS = [('power', 'cpu_idle'), ('power', 'cpu_idle_miss'),
          ('timer', 'hrtimer_start'), ('timer', 'hrtimer_cancel'),
          ('timer', 'hrtimer_expire_entry'), ('timer', 'timer_start'),
          ('timer', 'timer_cancel'), ('timer', 'timer_expire_entry'),
          ('timer', 'tick_stop'), ('irq', 'irq_handler_entry'),
          ('ipi', 'ipi_send_cpu'), ('sched', 'sched_wakeup'),
          ('sched', 'sched_switch')]
PAGE = 4096


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def layout(fmt):
    """ID and {field: (offset, size)} of an event format."""
    text = fmt.decode()
    eid = int(re.search(r'^ID: (\d+)', text, re.M).group(1))
    fields = {}
    for m in re.finditer(r'field:[^;]*?(\w+)(?:\[\d*\])?;\s*offset:(\d+);'
                         r'\s*size:(\d+);', text):
        fields[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return eid, fields


def record(ev, values):
    eid, fields = ev
    size = max(o + s for o, s in fields.values())
    size = (size + 3) & ~3
    data = bytearray(size)
    values = dict(values, common_type=eid, common_pid=1)
    for name, v in values.items():
        if name in fields:
            o, s = fields[name]
            data[o:o + s] = (v & ((1 << (8 * s)) - 1)).to_bytes(s, 'little')
    return bytes(data)


def page(ts0, recs):
    """One ring-buffer page: timestamp, commit, then the records."""
    body = b''
    for delta, data in recs:
        n = len(data) // 4
        assert 1 <= n <= 28 and delta < (1 << 27)
        body += struct.pack('<I', n | (delta << 5)) + data
    assert len(body) <= PAGE - 16
    return (struct.pack('<QQ', ts0, len(body)) + body).ljust(PAGE, b'\0')


def cpu_records(ev, cpu, periods, rnd, t0):
    t, recs = t0, []
    for i in range(periods):
        sleep = rnd.choice([20000, 150000, 900000, 3000000])
        until = t + sleep + 500
        recs.append((500, record(ev['hrtimer_start'], {
            'hrtimer': 0xffff0000 + cpu * 64 + i % 4,
            'function': 0xffffffff81000000, 'expires': until,
            'softexpires': until})))
        if i % 3 == 0:
            recs.append((300, record(ev['tick_stop'], {'success': 1})))
        recs.append((200, record(ev['cpu_idle'], {'state': 1 + i % 2,
                                                  'cpu_id': cpu})))
        cause = i % 4
        if cause == 0:
            recs.append((sleep, record(ev['cpu_idle'], {
                'state': 0xffffffff, 'cpu_id': cpu})))
            recs.append((100, record(ev['hrtimer_expire_entry'], {
                'hrtimer': 0xffff0000 + cpu * 64 + i % 4,
                'function': 0xffffffff81000000, 'now': t + sleep})))
        elif cause == 1:
            recs.append((sleep // 2, record(ev['ipi_send_cpu'], {
                'cpu': cpu, 'callsite': 0xffffffff81000100,
                'callback': 0xffffffff81000200})))
            recs.append((400, record(ev['cpu_idle'], {
                'state': 0xffffffff, 'cpu_id': cpu})))
            recs.append((100, record(ev['sched_wakeup'], {
                'pid': 42, 'prio': 120, 'target_cpu': cpu})))
        elif cause == 2:
            recs.append((sleep // 3, record(ev['cpu_idle'], {
                'state': 0xffffffff, 'cpu_id': cpu})))
            recs.append((100, record(ev['irq_handler_entry'], {
                'irq': 24})))
        else:
            recs.append((sleep // 4, record(ev['cpu_idle'], {
                'state': 0xffffffff, 'cpu_id': cpu})))
            recs.append((50, record(ev['timer_start'], {
                'timer': 0xffff1000, 'function': 0xffffffff81000300,
                'expires': 4294937296 + i, 'bucket_expiry': 4294937300,
                'flags': 0})))
            recs.append((50, record(ev['timer_cancel'], {
                'timer': 0xffff1000})))
            recs.append((50, record(ev['hrtimer_cancel'], {
                'hrtimer': 0xffff0000 + cpu * 64 + i % 4})))
            recs.append((50, record(ev['sched_switch'], {
                'prev_pid': 0, 'next_pid': 42})))
        t += sleep + 1000
    return recs


def main():
    out = sys.argv[1]
    cpus = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    periods = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    rnd = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    fmts, ev = {}, {}
    for sys_, name in EVENTS:
        fmts.setdefault(sys_, []).append(
            read('%s/%s/%s/format' % (TRACEFS, sys_, name)))
        ev[name] = layout(fmts[sys_][-1])

    h = b'\x17\x08Dtracing' + b'6\0' + bytes([0, 8]) + \
        struct.pack('<I', PAGE)
    for name in ('header_page', 'header_event'):
        text = read('%s/%s' % (TRACEFS, name))
        h += name.encode() + b'\0' + struct.pack('<Q', len(text)) + text
    h += struct.pack('<I', 0)				# ftrace formats
    h += struct.pack('<I', len(fmts))
    for sys_, lst in fmts.items():
        h += sys_.encode() + b'\0' + struct.pack('<I', len(lst))
        for f in lst:
            h += struct.pack('<Q', len(f)) + f
    h += struct.pack('<I', 0)				# kallsyms
    h += struct.pack('<I', 0)				# trace_printk
    cmd = b'42 worker\n'
    h += struct.pack('<Q', len(cmd)) + cmd
    h += struct.pack('<I', cpus)
    h += b'options  \0' + struct.pack('<H', 0)
    h += b'flyrecord\0'
    first = (len(h) + 16 * cpus + PAGE - 1) // PAGE * PAGE
    pages = [page(1000000 + cpu * 77,
                  cpu_records(ev, cpu, periods, rnd, 1000000 + cpu * 77))
             for cpu in range(cpus)]
    for cpu in range(cpus):
        h += struct.pack('<QQ', first + cpu * PAGE, PAGE)
    with open(out, 'wb') as f:
        f.write(h.ljust(first, b'\0') + b''.join(pages))


main()
