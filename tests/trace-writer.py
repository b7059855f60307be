#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a small native idlelab trace from the layout of
doc/trace-format.md, independently of the C writer, for tests.

    trace-writer.py OUT.idl SPEC.json

SPEC holds "meta" (string and integer fields by name), "states" (name,
exit_latency_ns, target_residency_ns, flags), "periods" (cpu, entry,
exit, sleep, dtick, state, cause, flags) and "counters" (cpu, state,
start[5], end[5]).
"""
import json
import struct
import sys
import zlib

STR_TAGS = {"kernel": 1, "driver": 2, "governor": 3, "clock": 4,
            "source": 5, "tool": 6, "governor_params": 16,
            "module_params": 17}
U32_TAGS = {"hz": 7, "nr_cpus": 8, "events_seen": 18}
U64_TAGS = {"latency_req_ns": 9, "start_ns": 10, "end_ns": 11,
            "nr_events": 13, "lost_events": 14}


def tlv(tag, value):
    return struct.pack("<HH", tag, len(value)) + value


def metadata(spec, nr_periods, nr_blocks):
    m = spec.get("meta", {})
    out = b""
    for k, t in STR_TAGS.items():
        out += tlv(t, m.get(k, "").encode())
    for k, t in U32_TAGS.items():
        out += tlv(t, struct.pack("<I", m.get(k, 0)))
    for k, t in U64_TAGS.items():
        out += tlv(t, struct.pack("<q", m.get(k, -1 if k == "latency_req_ns"
                                             else 0)))
    out += tlv(12, struct.pack("<Q", nr_periods))
    out += tlv(15, struct.pack("<Q", nr_blocks))
    out += tlv(32, m.get("table", "test").encode())
    out += tlv(37, struct.pack("<I", 0))
    out += tlv(38, struct.pack("<I", len(spec["states"])))
    for i, s in enumerate(spec["states"]):
        out += tlv(48, struct.pack("<I", i))
        out += tlv(49, s["name"].encode())
        out += tlv(51, struct.pack("<q", s["exit_latency_ns"]))
        out += tlv(52, struct.pack("<q", s["target_residency_ns"]))
        out += tlv(53, struct.pack("<I", s.get("flags", 0)))
    for c in spec.get("counters", []):
        out += tlv(64, struct.pack("<II5Q5Q", c["cpu"], c["state"],
                                   *c["start"], *c["end"]))
    return out


def block(magic, cpu, count, payload):
    head = struct.pack("<5I", magic, cpu, count, len(payload), 0)
    crc = zlib.crc32(head + payload) & 0xFFFFFFFF
    return head + struct.pack("<I", crc) + payload


def main():
    out, spec = sys.argv[1], json.load(open(sys.argv[2]))
    by_cpu = {}
    for p in spec["periods"]:
        rec = struct.pack("<QQqqIhBB", p["entry"], p["exit"], p["sleep"],
                          p["dtick"], 0, p["state"], p["cause"],
                          p.get("flags", 0))
        by_cpu.setdefault(p["cpu"], b"")
        by_cpu[p["cpu"]] += rec
    blocks = b"".join(block(0x4B4C4249, c, len(r) // 40, r)
                      for c, r in sorted(by_cpu.items()))
    n = len(spec["periods"])
    blocks += block(0x444E4549, 0xFFFFFFFF, 0,
                    struct.pack("<QQ", len(by_cpu), n))
    meta = metadata(spec, n, len(by_cpu))
    hsize = (32 + len(meta) + 4095) // 4096 * 4096
    head = b"IDLTRACE" + struct.pack("<IIIII", 1, hsize, len(meta),
                                     zlib.crc32(meta) & 0xFFFFFFFF, 40)
    head += struct.pack("<I", zlib.crc32(head) & 0xFFFFFFFF)
    with open(out, "wb") as f:
        f.write(head + meta + b"\0" * (hsize - 32 - len(meta)) + blocks)


if __name__ == "__main__":
    main()
