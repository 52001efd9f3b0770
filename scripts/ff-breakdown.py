#!/usr/bin/env python3
"""ff-breakdown.py NETLIST.json — where a synthesised design's flip-flops are:
the FD* cells of the flattened Yosys netlist grouped by the register their Q
output drives (the net name's first two hierarchy levels, without the bit
index). LUTs cannot be attributed this way (abc renames them). The netlist is
DIR/build/synth/yosys/netlist.json of an emitted design after `hdlgen synth DIR`.
Prints a Markdown table, largest group first.
"""
import collections
import json
import sys


def main(path):
    with open(path) as f:
        net = json.load(f)
    groups = collections.Counter()
    for mod in net["modules"].values():
        name_of = {}
        for name, info in mod["netnames"].items():
            for bit in info["bits"]:
                if isinstance(bit, int) and (bit not in name_of or name_of[bit].startswith("$")):
                    name_of[bit] = name
        for cell in mod["cells"].values():
            if not cell["type"].startswith("FD"):
                continue
            q = cell["connections"].get("Q", [None])[0]
            name = name_of.get(q, "(unnamed)")
            if name.startswith("$"):
                name = "(internal to a mapped cell)"
            groups[".".join(name.split(".")[:2]).split("[")[0]] += 1
    print("| register | FF |")
    print("|---|---:|")
    for name, n in groups.most_common():
        print("| %s | %d |" % (name, n))
    print("| total | %d |" % sum(groups.values()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ff-breakdown.py NETLIST.json")
    main(sys.argv[1])
