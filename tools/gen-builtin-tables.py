#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate lib/builtin-tables.c and doc/tables.md from the real-data corpus.

Run by hand at development time only; both outputs are checked in, so the
build never needs the corpus.  CORPUS_DIR is the corpus directory (the
tests find it as $IDLELAB_CORPUS):

    tools/gen-builtin-tables.py CORPUS_DIR lib/builtin-tables.c doc/tables.md

Every table records where its numbers come from (source) and the kernel
rule used to derive the cpuidle view from them (rule).
"""

import csv
import os
import sys
from collections import OrderedDict

PEPC_COMMIT = "5be60112f7954df552ea25916f694c9286468694"
INTEL_ORIGIN = {
    "A": "torvalds/linux @00433eae1771d355f20c152ddc5976baedb427e2",
    "B": "Kingxukai/linux @9b44fff655e2c6f4cc53cb499dd2c038e99cb013 "
         "(checked vs Aarav90-cpu/linux-kotlin @a663adb6)",
    "C": "Panther Lake patch on LKML (A. Bityutskiy), may be unmerged",
}

# Built-in name -> (intel_idle.c table, description)
INTEL = [
    ("nehalem", "nehalem_cstates", "Intel Nehalem / Westmere"),
    ("snb", "snb_cstates", "Intel Sandy Bridge"),
    ("byt", "byt_cstates", "Intel Bay Trail (Atom)"),
    ("cht", "cht_cstates", "Intel Cherry Trail (Atom)"),
    ("ivb", "ivb_cstates", "Intel Ivy Bridge"),
    ("ivt", "ivt_cstates", "Intel Ivy Town (Xeon E5 v2), 1-2 sockets"),
    ("ivt-4s", "ivt_cstates_4s", "Intel Ivy Town, 3-4 sockets"),
    ("ivt-8s", "ivt_cstates_8s", "Intel Ivy Town, 5-8 sockets"),
    ("hsw", "hsw_cstates", "Intel Haswell client"),
    ("bdw", "bdw_cstates", "Intel Broadwell client"),
    ("skl", "skl_cstates", "Intel Skylake client (also KBL/CFL)"),
    ("skx", "skx_cstates", "Intel Skylake-SP / Cascade Lake Xeon"),
    ("icx", "icx_cstates", "Intel Ice Lake-SP Xeon"),
    ("adl", "adl_cstates", "Intel Alder Lake desktop"),
    ("adl-l", "adl_l_cstates", "Intel Alder Lake mobile (L/P)"),
    ("gmt", "gmt_cstates", "Intel Gracemont (ADL-N)"),
    ("mtl", "mtl_l_cstates", "Intel Meteor Lake-L"),
    ("spr", "spr_cstates", "Intel Sapphire Rapids Xeon"),
    ("gnr", "gnr_cstates", "Intel Granite Rapids Xeon"),
    ("gnrd", "gnrd_cstates", "Intel Granite Rapids-D Xeon"),
    ("atom", "atom_cstates", "Intel Atom (Diamondville/Pineview)"),
    ("tangier", "tangier_cstates", "Intel Tangier (Merrifield)"),
    ("avn", "avn_cstates", "Intel Avoton (Atom C2000)"),
    ("knl", "knl_cstates", "Intel Xeon Phi Knights Landing"),
    ("bxt", "bxt_cstates", "Intel Broxton / Apollo Lake"),
    ("dnv", "dnv_cstates", "Intel Denverton (Atom C3000)"),
    ("snr", "snr_cstates", "Intel Snow Ridge (Atom P5000)"),
    ("grr", "grr_cstates", "Intel Grand Ridge"),
    ("srf", "srf_cstates", "Intel Sierra Forest Xeon 6 E-core"),
    ("ptl", "ptl_cstates", "Intel Panther Lake (posted patch)"),
]

# intel_idle.c flags -> CSTATE_* bits; the rest are intel_idle-private.
INTEL_FLAGS = {
    "TLB_FLUSHED": "CSTATE_TLB_FLUSHED",
    "UNUSABLE": "CSTATE_UNUSABLE",
    "OFF": "CSTATE_OFF",
    "RCU_IDLE": "CSTATE_RCU_IDLE",
    "TIMER_STOP": "CSTATE_TIMER_STOP",
}
INTEL_PRIVATE = {"ALWAYS_ENABLE", "IBRS", "IRQ_ENABLE", "INIT_XSTATE",
                 "PARTIAL_HINT_MATCH"}

AMD = [
    ("rome", "rome0", "AMD EPYC 7742 (Zen 2, Rome)"),
    ("milan", "milan0", "AMD EPYC 7543 (Zen 3, Milan)"),
    ("genoa", "genoa0", "AMD EPYC 9354 (Zen 4, Genoa)"),
    ("turin", "turin0", "AMD EPYC 9555 (Zen 5, Turin)"),
    ("threadripper-zen2", "threadripper-zen2 (LKML 2021-10-24)",
     "AMD Threadripper (Zen 2), LKML 2021-10-24 report"),
    ("bc250", "bc250 (AMD BC-250 Zen 2 APU board)", "AMD BC-250 (Zen 2 APU)"),
]

# name -> (dt soc, list of DT state labels, description, power model)
# power model: (platform, cpu-level cluster_or_cpu label) or None
ARM = [
    ("juno", "juno-r0", ["CPU_SLEEP_0", "CLUSTER_SLEEP_0"],
     "ARM Juno r0, Cortex-A57 CPUs", ("juno-r0", "A57 (CPU_COST_A57)",
                                      "A57 (CLUSTER_COST_A57)")),
    ("juno-a53", "juno-r0", ["CPU_SLEEP_0", "CLUSTER_SLEEP_0"],
     "ARM Juno r0, Cortex-A53 CPUs", ("juno-r0", "A53 (CPU_COST_A53)",
                                      "A53 (CLUSTER_COST_A53)")),
    ("hikey", "hi6220", ["CPU_SLEEP", "CLUSTER_SLEEP"],
     "HiKey (HiSilicon Hi6220, 8x Cortex-A53)",
     ("hikey-hi6220", "A53 (CPU_COST)", "A53 (CLUSTER_COST)")),
    ("hikey960-little", "hi3660", ["CPU_SLEEP_0", "CLUSTER_SLEEP_0"],
     "HiKey960 (Hi3660) Cortex-A53 cpu0-3", None),
    ("hikey960-big", "hi3660", ["CPU_SLEEP_1", "CLUSTER_SLEEP_1"],
     "HiKey960 (Hi3660) Cortex-A73 cpu4-7", None),
    ("sdm845-silver", "sdm845", ["little_cpu_sleep_0"],
     "Snapdragon 845 Kryo385 silver cpu0-3", None),
    ("sdm845-gold", "sdm845", ["big_cpu_sleep_0"],
     "Snapdragon 845 Kryo385 gold cpu4-7", None),
    ("sm8250-silver", "sm8250", ["little_cpu_sleep_0"],
     "Snapdragon 865 Kryo585 silver cpu0-3", None),
    ("sm8250-gold", "sm8250", ["big_cpu_sleep_0"],
     "Snapdragon 865 Kryo585 gold+prime cpu4-7", None),
]

POLL = dict(name="POLL", desc="CPUIDLE CORE POLL IDLE", lat=0, res=0,
            flags=["CSTATE_POLLING"], disabled=False)


def state(name, desc, lat_us, res_us, flags=(), disabled=False, power=None):
    return dict(name=name, desc=desc, lat=int(lat_us), res=int(res_us),
                flags=list(flags), disabled=disabled, power=power)


def table(name, desc, driver, source, rule, states, power_unit="NONE"):
    for s in states:
        assert len(s["name"]) < 16 and len(s["desc"]) < 32, s
    assert 1 <= len(states) <= 10, name
    assert len(source) < 256 and len(rule) < 256, (name, len(source),
                                                    len(rule))
    return dict(name=name, description=desc, driver=driver, source=source,
                rule=rule, states=states, power_unit=power_unit)


def read_csv(corpus, rel):
    with open(os.path.join(corpus, rel), newline="") as f:
        return list(csv.DictReader(f))


def intel_tables(corpus):
    rows = read_csv(corpus, "tables/intel_idle_tables.csv")
    out = []
    for name, tname, desc in INTEL:
        trows = [r for r in rows if r["table"] == tname]
        states = [dict(POLL)]
        skipped = []
        letters = sorted({r["source"] for r in trows})
        for r in trows:
            words = [w for w in r["flags"].split("|") if w]
            for w in words:
                assert w in INTEL_FLAGS or w in INTEL_PRIVATE, w
            if "UNUSABLE" in words:
                skipped.append(r["name"])
                continue
            flags = [INTEL_FLAGS[w] for w in words if w in INTEL_FLAGS]
            states.append(state(r["name"], r["desc"], r["exit_latency_us"],
                                r["target_residency_us"], flags,
                                disabled="OFF" in words))
        origin = "; ".join(INTEL_ORIGIN[x] for x in letters)
        source = ("tables/intel_idle_tables.csv %s (drivers/idle/"
                  "intel_idle.c, %s)" % (tname, origin))
        rule = ("intel_idle: POLL 0/0 added as state 0; OFF -> disabled")
        if skipped:
            rule += ("; UNUSABLE %s skipped as intel_idle does" %
                     ",".join(skipped))
        rule += "; no TIMER_STOP (ARAT); driver-private flags dropped"
        out.append(table(name, desc + " (" + tname + ")", "intel_idle",
                         source, rule, states))
    return out


def amd_tables(corpus):
    rows = read_csv(corpus, "tables/amd_acpi_idle_sysfs.csv")
    out = []
    for name, machine, desc in AMD:
        mrows = [r for r in rows if r["machine"] == machine]
        src = mrows[0]["source"]
        if name in ("rome", "milan", "genoa", "turin"):
            src = "tables/amd_acpi_idle_sysfs.csv %s (%s)" % (machine, src)
        else:
            src = "tables/amd_acpi_idle_sysfs.csv (%s)" % src
        states = []
        for r in mrows:
            flags = ["CSTATE_POLLING"] if r["name"] == "POLL" else []
            states.append(state(r["name"], r["desc"], r["latency_us"],
                                r["residency_us"], flags))
        rule = ("acpi_idle sysfs dump: POLL 0/0 is state 0; target "
                "residency = 2 x _CST latency (already applied); kernel "
                "%s" % mrows[0]["kernel"])
        out.append(table(name, desc, "acpi_idle", src[:255], rule, states))
    return out


def arm_power(corpus):
    rows = read_csv(corpus, "tables/idle_power_models.csv")
    model = {}
    for r in rows:
        if not r["idle_state_index"].isdigit():
            continue
        key = (r["platform"], r["cluster_or_cpu"])
        model.setdefault(key, {})[int(r["idle_state_index"])] = \
            float(r["power_cost"])
    return model, rows


def arm_tables(corpus):
    rows = read_csv(corpus, "tables/arm_dt_idle_states.csv")
    model, prow = arm_power(corpus)
    out = []
    for name, soc, labels, desc, pm in ARM:
        states = [state("WFI", "ARM WFI", 1, 1)]
        srcs = []
        for label in labels:
            r = [x for x in rows if x["soc"] == soc and x["label"] == label]
            assert len(r) == 1, (soc, label)
            r = r[0]
            entry, exitl = int(r["entry_latency_us"]), int(r["exit_latency_us"])
            lat = int(r["wakeup_latency_us"]) if r["wakeup_latency_us"] \
                else entry + exitl
            assert lat == int(r["linux_exit_latency_us"]), r
            res = int(r["min_residency_us"])
            assert res == int(r["linux_target_residency_us"]), r
            flags = ["CSTATE_TIMER_STOP"] if r["local_timer_stop"] == "1" \
                else []
            sdesc = r["idle_state_name"] or r["node_name"]
            states.append(state(r["node_name"][:15], sdesc[:31], lat, res,
                                flags))
            srcs.append(r["source"])
        src = "tables/arm_dt_idle_states.csv " + soc + " (" + srcs[0] + ")"
        rule = ("DT idle-states: state 0 = WFI 1/1 (psci_idle); exit "
                "latency = entry+exit unless wakeup-latency-us; residency "
                "= min-residency; local-timer-stop -> TIMER_STOP")
        unit = "NONE"
        if pm:
            cpu = model[(pm[0], pm[1])]
            clu = model[(pm[0], pm[2])]
            # EAS index 0 is arch_cpu_idle; cpuidle state i is EAS i+1.
            for i, s in enumerate(states):
                s["power"] = cpu[i + 1]
            unit = "RELATIVE"
            rule += ("; power = EAS cpu idle-cost (cluster costs %s "
                     "not included)" % "/".join("%g" % clu[i + 1]
                                                for i in range(len(states))))
            src += "; power: tables/idle_power_models.csv " + pm[0]
        if soc in ("sdm845", "sm8250"):
            rule += "; cluster domain-idle-state is genpd's, not listed"
        out.append(table(name, desc, "psci_idle", src[:255], rule[:255],
                         states, unit))
    return out


# TC2 latencies are not in the corpus; they are the static state 1 of
# drivers/cpuidle/cpuidle-big_little.c (checked in a v6.6.14 copy).
TC2 = [
    ("tc2-a7", "little_idle", "A7 (idle_states_cluster_a7)", 700, 2500,
     "ARM little-cluster power down", "Versatile Express TC2, Cortex-A7"),
    ("tc2-a15", "big_idle", "A15 (idle_states_cluster_a15)", 500, 2000,
     "ARM big-cluster power down", "Versatile Express TC2, Cortex-A15"),
]


def tc2_tables(corpus):
    model, _ = arm_power(corpus)
    out = []
    for name, drv, cluster, lat, res, desc, what in TC2:
        cost = model[("tc2", cluster)]
        states = [state("WFI", "ARM WFI", 1, 1, power=cost[1]),
                  state("C1", desc, lat, res,
                        ["CSTATE_TIMER_STOP", "CSTATE_RCU_IDLE"],
                        power=cost[2])]
        src = ("drivers/cpuidle/cpuidle-big_little.c %s (torvalds/linux, "
               "static defaults); power: tables/idle_power_models.csv tc2"
               % drv)
        rule = ("big.LITTLE driver: WFI 1/1 + cluster power down; DT "
                "idle-states would override state 1; power = EAS cluster "
                "idle cost (cpu-level costs are 0)")
        out.append(table(name, what, drv, src, rule, states, "RELATIVE"))
    return out


def haltpoll_table():
    states = [dict(POLL), state("haltpoll idle", "default architecture idle",
                                1, 1)]
    return table("vm-haltpoll", "KVM guest with cpuidle-haltpoll",
                 "haltpoll",
                 "drivers/cpuidle/cpuidle-haltpoll.c as seen in sysfs of a "
                 "KVM guest (kernel 6.18, development VM)",
                 "haltpoll: POLL 0/0 as state 0 plus one halt state 1/1 us",
                 states)


def pepc_tables(corpus):
    rows = read_csv(corpus, "pepc_cpuidle_sysfs.csv")
    machines = OrderedDict()
    for r in rows:
        if r["cpu"] == "0":
            machines.setdefault(r["platform"], []).append(r)
    out = []
    for plat, mrows in machines.items():
        mrows.sort(key=lambda r: int(r["state"]))
        assert [int(r["state"]) for r in mrows] == list(range(len(mrows)))
        states = []
        for r in mrows:
            flags = ["CSTATE_POLLING"] if r["name"] == "POLL" else []
            if r["default_status"] == "disabled":
                flags.append("CSTATE_OFF")
            states.append(state(r["name"], r["desc"], r["latency_us"],
                                r["residency_us"], flags,
                                disabled=r["disable"] == "1"))
        m = mrows[0]
        desc = " ".join(m["model_name"].split())[:100]
        src = ("pepc_cpuidle_sysfs.csv cpu0 (intel/pepc tests/emul-data/%s "
               "@%s), kernel %s" % (plat, PEPC_COMMIT[:12], m["kernel"]))
        rule = ("sysfs dump as registered by %s; default_status disabled "
                "-> OFF flag; disabled = sysfs disable; %s governor"
                % (m["cpuidle_driver"], m["cpuidle_governor"]))
        out.append(table("pepc-" + plat, desc, m["cpuidle_driver"],
                         src[:255], rule, states))
    return out


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cident(name):
    return "tbl_" + "".join(c if c.isalnum() else "_" for c in name)


def emit_c(tables, path):
    lines = [
        "// SPDX-License-Identifier: GPL-2.0-or-later",
        "/*",
        " * Built-in real C-state tables.  GENERATED by",
        " * tools/gen-builtin-tables.py from the data corpus (the directory",
        " * given as its argument); do not edit by hand.  Every table names",
        " * its source and the kernel rule used.",
        " * Times are in ns; power is NAN when unknown.",
        " */",
        '#include "config.h"',
        "",
        "#include <math.h>",
        "#include <stddef.h>",
        "",
        '#include "cstate.h"',
        "",
    ]
    for t in tables:
        lines.append("static const struct cstate_table %s = {" %
                     cident(t["name"]))
        for k in ("name", "description", "driver", "source", "rule"):
            lines.append("\t.%s = %s," % (k, cstr(t[k])))
        lines.append("\t.power_unit = CSTATE_POWER_%s," % t["power_unit"])
        lines.append("\t.count = %d," % len(t["states"]))
        lines.append("\t.states = {")
        for s in t["states"]:
            flags = " | ".join(s["flags"]) or "0"
            power = "NAN" if s.get("power") is None else "%g" % s["power"]
            lines.append("\t\t{ %s, %s, %d, %d, %s, %s, %s, NAN }," % (
                cstr(s["name"]), cstr(s["desc"]), s["lat"] * 1000,
                s["res"] * 1000, flags,
                "true" if s["disabled"] else "false", power))
        lines.append("\t},")
        lines.append("};")
        lines.append("")
    lines.append("static const struct cstate_table *const builtin[] = {")
    for t in tables:
        lines.append("\t&%s," % cident(t["name"]))
    lines.append("\tNULL")
    lines.append("};")
    lines.append("")
    lines.append("const struct cstate_table *const *cstate_builtin_list(void)")
    lines.append("{")
    lines.append("\treturn builtin;")
    lines.append("}")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.rename(path + ".tmp", path)


def emit_md(tables, path):
    out = ["# Built-in C-state tables", "",
           "Generated by `tools/gen-builtin-tables.py` from the project's "
           "real-data corpus (see its README for licences). "
           "`idlelab states --list` prints the same list; "
           "`idlelab states --machine NAME` shows one table. "
           "Latency / residency are in microseconds.", "",
           "| name | driver | states (latency/residency us) | description | "
           "source | rule |",
           "|---|---|---|---|---|---|"]
    for t in tables:
        st = ", ".join("%s %d/%d%s" % (s["name"], s["lat"], s["res"],
                                       " (disabled)" if s["disabled"] else "")
                       for s in t["states"])
        out.append("| `%s` | %s | %s | %s | %s | %s |" % (
            t["name"], t["driver"], st, t["description"],
            t["source"].replace("|", "/"), t["rule"].replace("|", "/")))
    out.append("")
    out.append("%d tables." % len(tables))
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.rename(path + ".tmp", path)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen-builtin-tables.py CORPUS_DIR OUT.c OUT.md")
    corpus = sys.argv[1]
    tables = (intel_tables(corpus) + amd_tables(corpus) +
              arm_tables(corpus) + tc2_tables(corpus) + [haltpoll_table()] +
              pepc_tables(corpus))
    names = [t["name"] for t in tables]
    assert len(names) == len(set(names)), "duplicate table names"
    emit_c(tables, sys.argv[2])
    emit_md(tables, sys.argv[3])
    print("%d tables" % len(tables))


if __name__ == "__main__":
    main()
