#!/usr/bin/env python3
"""ff-blocks.py NETLIST.json — a synthesised design's flip-flops attributed to
the analytic resource model's blocks (power/analytic.go; TestBlocksMatchYosys
in power/arith_test.go holds the measured counts): rom, front, lanes, preact,
mac, lanetree, acc, argmax.

A flip-flop goes by the RTL line in its src attribute when Yosys kept one
(hdlgen_issue → front; the pre-activation tree's hdlgen_addtree → preact, the
lane-sum tree's → lanetree, the popcount tree's → lanes; hdlgen_mac's product
register → mac, its accumulators and done flag → acc, its tag delay →
lanetree; hdlgen_outreg and hdlgen_argmax → argmax; the stage-A tag delay →
front, the other tag delays → lanes; the rest of a hidden layer → lanes), and
otherwise (ROM read registers and other inferred registers keep only
ff_map.v) by the name of the net its Q output drives: the ROM read registers
(the W_in word w_i/signs_i and bias bits feeding prod_d, the readout word
q/q_i) → rom, u_core.hidden (the sigmoid table's read register) → lanes,
issue_*/a_tag/a_valid/level offsets → front, res_scores/res_valid (the
accumulators seen through their load) → acc, out_* → argmax. A register that
fits no rule is printed as unattributed. The netlist is
DIR/build/synth/yosys/netlist.json of an emitted design after `hdlgen synth DIR`.
"""
import collections
import json
import re
import sys

BLOCKS = ["rom", "front", "lanes", "preact", "mac", "lanetree", "acc", "argmax"]


def by_src(src):
    files = [re.sub(r":.*", "", s).split("/")[-1] for s in src.split("|")]
    lines = {re.sub(r":.*", "", s).split("/")[-1]: s for s in src.split("|")}
    names = set(files)
    if "hdlgen_issue.v" in names:
        return "front"
    if "hdlgen_outreg.v" in names or "hdlgen_argmax.v" in names:
        return "argmax"
    if "hdlgen_level_offset.v" in names:
        return "front"
    if "hdlgen_mac.v" in names:
        if "hdlgen_addtree.v" in names or "hdlgen_delay.v" in names:
            return "lanetree"
        line = int(re.sub(r"\..*", "", lines["hdlgen_mac.v"].split(":")[1]))
        return "mac" if line < 100 else "acc"
    if "hdlgen_rvfl8_hidden.v" in names:
        return "preact" if "hdlgen_addtree.v" in names else "lanes"
    if "hdlgen_intrvfl_hidden.v" in names:
        return "lanes"
    if "hdlgen_win_lfsr.v" in names:
        return "front"
    if "hdlgen_delay.v" in names:
        # u_tag_a (intRVFL) and the stage-A delay of the codes are front.
        return None
    return None


def by_name(name):
    n = re.sub(r"\[\d+\]$", "", name)
    if n.startswith(("issue_", "u_core.a_", "u_core.below", "u_core.u_offsets", "u_issue")):
        return "front"
    if n.startswith(("out_", "u_out")):
        return "argmax"
    if n.startswith("res_"):
        return "acc"
    if n in ("u_core.hidden",) or n.startswith(("u_core.b_", "u_core.h_", "u_core.u_tag_pre", "u_core.u_tag_pop")):
        return "lanes"
    if n.endswith((".w_i", ".signs_i", ".prod_d", "u_mac.q", "u_mac.q_i")):
        return "rom"
    return None


def main(path):
    with open(path) as f:
        net = json.load(f)
    counts = collections.Counter()
    unknown = collections.Counter()
    for mod in net["modules"].values():
        name_of = {}
        for name, info in mod["netnames"].items():
            for bit in info["bits"]:
                if isinstance(bit, int) and (bit not in name_of or name_of[bit].startswith("$")):
                    name_of[bit] = name
        for cell in mod["cells"].values():
            if not cell["type"].startswith("FD"):
                continue
            src = cell.get("attributes", {}).get("src", "")
            q = cell["connections"].get("Q", [None])[0]
            name = name_of.get(q, "(unnamed)")
            block = by_src(src) or by_name(name)
            if block is None:
                unknown[re.sub(r"\[\d+\]$", "", name) + " @ " + src.split("|")[-1]] += 1
            else:
                counts[block] += 1
    print(" ".join("%s=%d" % (b, counts[b]) for b in BLOCKS), "total=%d" % (sum(counts.values()) + sum(unknown.values())))
    for k, v in unknown.most_common():
        print("unattributed: %s %d" % (k, v))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ff-blocks.py NETLIST.json")
    main(sys.argv[1])
