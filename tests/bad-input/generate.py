#!/usr/bin/env python3
# Regenerate the binary trace files of tests/bad-input from a small good
# trace (tests/fuzz/corpus/trace/skx-periodic.trace): each one breaks one
# rule of doc/trace-format.md while keeping every CRC valid, so the
# reader's semantic checks are what is tested.  Run from the source top:
#   python3 tests/bad-input/generate.py
import os
import struct
import zlib

SRC = 'tests/fuzz/corpus/trace/skx-periodic.trace'
OUT = 'tests/bad-input'
data = open(SRC, 'rb').read()
magic, ver, hsize, mlen, mcrc, rsize, hcrc = struct.unpack_from(
    '<8sIIIIII', data, 0)
meta = data[32:32 + mlen]


def header(hsize=hsize, meta=meta, rsize=rsize, mlen=None, ver=ver):
    mlen = len(meta) if mlen is None else mlen
    h = struct.pack('<8sIIIII', magic, ver, hsize, mlen,
                    zlib.crc32(meta[:mlen]), rsize)
    h += struct.pack('<I', zlib.crc32(h))
    return (h + meta).ljust(hsize, b'\0')


def block(cpu, recs, magic=b'IBLK', count=None, length=None):
    payload = b''.join(recs)
    count = len(recs) if count is None else count
    length = len(payload) if length is None else length
    h = struct.pack('<4sIIII', magic, cpu, count, length, 0)
    return h + struct.pack('<I', zlib.crc32(h + payload)) + payload


def rec(entry, exit_, sleep=2**63 - 1, tick=1000, detail=0, state=1,
        cause=0, flags=0):
    return struct.pack('<QQqqIhBB', entry, exit_, sleep, tick, detail,
                       state, cause, flags)


def end(nblocks, nrecs):
    return block(0xFFFFFFFF, [struct.pack('<QQ', nblocks, nrecs)],
                 magic=b'IEND')


def meta_with(tag, value):
    """The metadata with one entry replaced (or appended)."""
    out, off, done = b'', 0, False
    while off < len(meta):
        t, n = struct.unpack_from('<HH', meta, off)
        if t == tag and not done:
            out += struct.pack('<HH', tag, len(value)) + value
            done = True
        else:
            out += meta[off:off + 4 + n]
        off += 4 + n
    if not done:
        out += struct.pack('<HH', tag, len(value)) + value
    return out


def meta_state(index, tag, value):
    """The metadata with @tag of C-state @index replaced."""
    out, off, state = b'', 0, -1
    while off < len(meta):
        t, n = struct.unpack_from('<HH', meta, off)
        if t == 48:
            state = struct.unpack_from('<I', meta, off + 4)[0]
        if t == tag and state == index:
            out += struct.pack('<HH', tag, len(value)) + value
        else:
            out += meta[off:off + 4 + n]
        off += 4 + n
    return out


def meta_dup_state(index, to):
    """The metadata with C-state @index's tags also given as C-state @to."""
    out, off, state, extra = b'', 0, -1, b''
    while off < len(meta):
        t, n = struct.unpack_from('<HH', meta, off)
        if t == 48:
            state = struct.unpack_from('<I', meta, off + 4)[0]
        out += meta[off:off + 4 + n]
        if t == 48 and state == index:
            extra += struct.pack('<HHI', 48, 4, to)
        elif 48 < t < 64 and state == index:
            extra += meta[off:off + 4 + n]
        off += 4 + n
    return out + extra


def write(name, body):
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(body)


good = [rec(1000 * i, 1000 * i + 500) for i in range(1, 5)]
H = header()
write('trace-backwards.trace', H + block(0, [rec(5000, 6000),
      rec(3000, 4000)]) + end(1, 2))
write('trace-exit-before-entry.trace', H + block(0, [rec(5000, 4000)]) +
      end(1, 1))
write('trace-cpu-huge.trace', H + block(5000, good) + end(1, 4))
write('trace-cpu-beyond-meta.trace', H + block(7, good) + end(1, 4))
write('trace-state-range.trace', H + block(0, [rec(10, 20, state=9)]) +
      end(1, 1))
write('trace-state-negative.trace', H + block(0, [rec(10, 20, state=-7)]) +
      end(1, 1))
write('trace-wake-cause.trace', H + block(0, [rec(10, 20, cause=200)]) +
      end(1, 1))
write('trace-huge-times.trace', H + block(0, [rec(2**64 - 2, 2**64 - 1,
      sleep=-5, tick=-2**63)]) + end(1, 1))
write('trace-count-zero.trace', H + block(0, [], count=0) + end(1, 0))
write('trace-count-huge.trace', H + block(0, good, count=70000) +
      end(1, 4))
write('trace-length-mismatch.trace', H + block(0, good, length=41) +
      end(1, 4))
write('trace-end-counts.trace', H + block(0, good) + end(3, 99))
write('trace-no-end.trace', H + block(0, good))
write('trace-dup-periods.trace', H + block(0, good + good) + end(1, 8))
write('trace-header-size-huge.trace', header(hsize=0x7fffffff)[:4096] +
      block(0, good) + end(1, 4))
write('trace-record-size-zero.trace', header(rsize=0) + block(0, good) +
      end(1, 4))
write('trace-meta-len-over.trace', header(meta=meta + b'\0' * 8,
      mlen=len(meta) + 4000) + block(0, good) + end(1, 4))
write('trace-meta-tlv-overrun.trace', header(meta=meta + struct.pack(
      '<HH', 1, 9000)) + block(0, good) + end(1, 4))
write('trace-meta-nstates-huge.trace', header(meta=meta_with(
      38, struct.pack('<I', 4000))) + block(0, good) + end(1, 4))
write('trace-meta-hz-zero-cpus-zero.trace', header(meta=meta_with(
      8, struct.pack('<I', 0))) + block(0, good) + end(1, 4))
write('trace-meta-str-nul.trace', header(meta=meta_with(
      1, b'6.18\0evil')) + block(0, good) + end(1, 4))
write('trace-meta-bad-length.trace', header(meta=meta_with(
      7, struct.pack('<Q', 250))) + block(0, good) + end(1, 4))
# the embedded table and metadata broken as a table file can be (issue 18)
write('trace-table-negative-latency.trace', header(meta=meta_state(
      2, 51, struct.pack('<q', -5000))) + block(0, good) + end(1, 4))
write('trace-table-negative-residency.trace', header(meta=meta_state(
      1, 52, struct.pack('<q', -1))) + block(0, good) + end(1, 4))
write('trace-table-poll-state1.trace', header(meta=meta_state(
      1, 53, struct.pack('<I', 1))) + block(0, good) + end(1, 4))
write('trace-table-dup-state.trace', header(meta=meta_dup_state(1, 1)) +
      block(0, good) + end(1, 4))
write('trace-meta-cpus-max.trace', header(meta=meta_with(
      8, struct.pack('<I', 0xFFFFFFFF))) + block(0, good) + end(1, 4))
write('trace-meta-start-after-end.trace', header(meta=meta_with(
      10, struct.pack('<Q', 20000000))) + block(0, good) + end(1, 4))
# forged periods and metadata that gave wrong numbers (issue 32, item 7)
write('trace-outside-span.trace', H + block(0, [rec(20000000, 20000500)]) +
      end(1, 1))
write('trace-overlap.trace', H + block(0, [rec(1000, 3000),
      rec(2000, 4000)]) + end(1, 2))
write('trace-sleep-min.trace', H + block(0, [rec(1000, 1500,
      sleep=-2**63)]) + end(1, 1))
write('trace-meta-hz-huge.trace', header(meta=meta_with(
      7, struct.pack('<I', 0xFFFFFFFF))) + block(0, good) + end(1, 4))
# names that are not UTF-8 or hold an escape sequence (issue 18, item 7)
write('trace-meta-not-utf8.trace', header(meta=meta_state(
      1, 49, b'C1\xff\x1b[31m')) + block(0, good) + end(1, 4))
write('trace-version-99.trace', header(ver=99) + block(0, good) +
      end(1, 4))
# truncations of the good file at awkward points
for n in (3, 8, 31, 32, 40, hsize - 1, hsize + 10, hsize + 24,
          len(data) - 17):
    write('trace-trunc-%d.trace' % n, data[:n])
