package synth

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Netlist is what the mapped netlist (Yosys write_json) tells beyond stat.
type Netlist struct {
	// Depth is the longest register-to-register path in logic levels: LUT1…6,
	// MUXF7/F8, CARRY4, asynchronous LUTRAM reads and unregistered DSP48E1s count
	// one level each; INV none (Vivado folds them into the next LUT).
	Depth int
	Note  string
	// BRAMCells counts RAMB18E1/RAMB36E1 cells per ROM role.
	BRAMCells map[string]int
}

type jsonNetlist struct {
	Modules map[string]struct {
		Cells map[string]jsonCell `json:"cells"`
	} `json:"modules"`
}

type jsonCell struct {
	Type        string                       `json:"type"`
	Parameters  map[string]json.RawMessage   `json:"parameters"`
	PortDirs    map[string]string            `json:"port_directions"`
	Connections map[string][]json.RawMessage `json:"connections"`
}

// ParseNetlist reads a Yosys write_json netlist and analyses module top.
func ParseNetlist(r io.Reader, top string) (*Netlist, error) {
	var nl jsonNetlist
	if err := json.NewDecoder(r).Decode(&nl); err != nil {
		return nil, fmt.Errorf("synth: parse netlist JSON: %w", err)
	}
	mod, ok := nl.Modules[top]
	if !ok {
		return nil, fmt.Errorf("synth: netlist has no module %s", top)
	}
	out := &Netlist{BRAMCells: map[string]int{}}
	type node struct {
		weight int
		inputs []int // net bits
	}
	nodes := make([]node, 0, len(mod.Cells))
	driver := map[int]int{} // net bit → combinational node index
	for name, c := range mod.Cells {
		if c.Type == "RAMB18E1" || c.Type == "RAMB36E1" {
			out.BRAMCells[memoryRole(name)]++
		}
		w, comb := cellTiming(c)
		if !comb {
			continue
		}
		if c.PortDirs == nil {
			return nil, fmt.Errorf("synth: cell %s (%s) has no port directions", name, c.Type)
		}
		idx := len(nodes)
		n := node{weight: w}
		for port, bits := range c.Connections {
			dir := c.PortDirs[port]
			for _, raw := range bits {
				b, isNet := netBit(raw)
				if !isNet {
					continue
				}
				switch dir {
				case "output":
					driver[b] = idx
				case "input":
					n.inputs = append(n.inputs, b)
				}
			}
		}
		nodes = append(nodes, n)
	}
	// Longest path by memoised depth-first search; state 0 new, -1 on the stack.
	depth := make([]int, len(nodes))
	state := make([]int8, len(nodes))
	loop := false
	var visit func(i int) int
	visit = func(i int) int {
		switch state[i] {
		case 1:
			return depth[i]
		case -1:
			loop = true
			return 0
		}
		state[i] = -1
		best := 0
		for _, b := range nodes[i].inputs {
			if j, ok := driver[b]; ok {
				best = max(best, visit(j))
			}
		}
		depth[i] = best + nodes[i].weight
		state[i] = 1
		return depth[i]
	}
	for i := range nodes {
		out.Depth = max(out.Depth, visit(i))
	}
	if loop {
		out.Note = "combinational loop in the netlist; depth is a lower bound"
	}
	return out, nil
}

// cellTiming classifies a mapped cell: its logic-level weight and whether it is
// combinational (a path runs through it) rather than a path end point.
func cellTiming(c jsonCell) (weight int, comb bool) {
	t := c.Type
	switch {
	case strings.HasPrefix(t, "LUT"), t == "MUXF7", t == "MUXF8", t == "CARRY4":
		return 1, true
	case t == "INV", t == "GND", t == "VCC":
		return 0, true
	case strings.HasPrefix(t, "FD"), strings.HasPrefix(t, "SRL"), strings.HasPrefix(t, "RAMB"):
		return 0, false
	case strings.HasPrefix(t, "RAM"): // LUTRAM: asynchronous read
		return 1, true
	case t == "DSP48E1":
		for _, p := range []string{"AREG", "BREG", "MREG", "PREG"} {
			if paramInt(c.Parameters[p]) != 0 {
				return 0, false
			}
		}
		return 1, true
	}
	return 0, false
}

// netBit decodes one bit of a connection: a net number, or a constant "0"/"1"/"x"/"z".
func netBit(raw json.RawMessage) (int, bool) {
	n, err := strconv.Atoi(string(raw))
	return n, err == nil
}

// paramInt decodes a Yosys parameter value: a number or a binary string.
func paramInt(raw json.RawMessage) int64 {
	if len(raw) == 0 {
		return 0
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 2, 64)
	if err != nil {
		return 0
	}
	return v
}
