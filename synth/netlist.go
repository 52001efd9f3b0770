package synth

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Netlist is the flattened, mapped top module of a Yosys write_json netlist:
// its cells with their pins and nets (what the timing estimate, the activity
// model and the gate-level checks read), and what the report takes from it.
type Netlist struct {
	Top string
	// Ports are the top module's ports by name.
	Ports map[string]Port
	// Cells are the mapped cells (LUT1…6, FDRE, CARRY4, DSP48E1, …), sorted by name.
	Cells []Cell
	// Names maps a net bit to a readable name, "u_core.acc_q[3]", taken from
	// the netlist's named wires (Yosys's own $-names are left out).
	Names map[Bit]string
	// deepNames maps a net bit to the name that best tells which instance
	// drives it (nameRank): what ByModule attributes cells by.
	deepNames map[Bit]string

	// Depth is the longest register-to-register path in logic levels: LUT1…6,
	// MUXF7/F8, CARRY4, asynchronous LUTRAM reads and unregistered DSP48E1s count
	// one level each; INV none (Vivado folds them into the next LUT).
	Depth int
	Note  string
	// BRAMCells counts RAMB18E1/RAMB36E1 cells per ROM role.
	BRAMCells map[string]int
}

// Bit is one net bit of the netlist: a net number ≥ 0 (Yosys numbers them
// from 2), or one of the constants Bit0, Bit1, BitX, BitZ.
type Bit int

// Constant bits.
const (
	Bit0 Bit = -1 - iota
	Bit1
	BitX
	BitZ
)

// IsNet reports whether b is a net rather than a constant.
func (b Bit) IsNet() bool { return b >= 0 }

// Port is a top-level port.
type Port struct {
	Dir  string // "input", "output" or "inout"
	Bits []Bit
}

// Cell is one mapped cell.
type Cell struct {
	Name   string
	Type   string
	Params map[string]json.RawMessage
	// Pins are the cell's ports sorted by name, each with its direction and bits.
	Pins []Pin
}

// Pin is one port of a cell.
type Pin struct {
	Port string
	Dir  string // "input" or "output"
	Bits []Bit
}

// Param returns the integer value of parameter name (a JSON number or a
// Yosys binary string; undefined bits count as 0), or 0 when absent.
func (c *Cell) Param(name string) int64 { return paramInt(c.Params[name]) }

// ParamString returns parameter name as a string (Yosys writes string
// parameters as JSON strings), or "" when absent or not a string.
func (c *Cell) ParamString(name string) string {
	var s string
	if json.Unmarshal(c.Params[name], &s) != nil {
		return ""
	}
	return strings.TrimRight(s, " ")
}

// Pin returns the pin named port, or nil.
func (c *Cell) Pin(port string) *Pin {
	for i := range c.Pins {
		if c.Pins[i].Port == port {
			return &c.Pins[i]
		}
	}
	return nil
}

type jsonNetlist struct {
	Creator string                     `json:"creator"`
	Modules map[string]json.RawMessage `json:"modules"`
}

type jsonModule struct {
	Ports map[string]struct {
		Direction string            `json:"direction"`
		Bits      []json.RawMessage `json:"bits"`
	} `json:"ports"`
	Cells    map[string]jsonCell `json:"cells"`
	Netnames map[string]struct {
		HideName int               `json:"hide_name"`
		Bits     []json.RawMessage `json:"bits"`
	} `json:"netnames"`
}

type jsonCell struct {
	Type        string                       `json:"type"`
	Parameters  map[string]json.RawMessage   `json:"parameters"`
	PortDirs    map[string]string            `json:"port_directions"`
	Connections map[string][]json.RawMessage `json:"connections"`
}

// CompactNetlist keeps only module top of a Yosys write_json netlist (which
// also lists every cell type of the library as a blackbox module, about 90 %
// of its size) and returns it as JSON in the same format.
func CompactNetlist(b []byte, top string) ([]byte, error) {
	var nl jsonNetlist
	if err := json.Unmarshal(b, &nl); err != nil {
		return nil, fmt.Errorf("synth: parse netlist JSON: %w", err)
	}
	mod, ok := nl.Modules[top]
	if !ok {
		return nil, fmt.Errorf("synth: netlist has no module %s", top)
	}
	out, err := json.Marshal(jsonNetlist{Creator: nl.Creator, Modules: map[string]json.RawMessage{top: mod}})
	if err != nil {
		return nil, fmt.Errorf("synth: encode netlist JSON: %w", err)
	}
	return out, nil
}

// ParseNetlist reads a Yosys write_json netlist and analyses module top.
func ParseNetlist(r io.Reader, top string) (*Netlist, error) {
	var nl jsonNetlist
	if err := json.NewDecoder(r).Decode(&nl); err != nil {
		return nil, fmt.Errorf("synth: parse netlist JSON: %w", err)
	}
	raw, ok := nl.Modules[top]
	if !ok {
		return nil, fmt.Errorf("synth: netlist has no module %s", top)
	}
	var mod jsonModule
	if err := json.Unmarshal(raw, &mod); err != nil {
		return nil, fmt.Errorf("synth: netlist module %s: %w", top, err)
	}
	out := &Netlist{Top: top, Ports: map[string]Port{}, Names: map[Bit]string{}, deepNames: map[Bit]string{}, BRAMCells: map[string]int{}}
	for name, p := range mod.Ports {
		bits, err := decodeBits(p.Bits)
		if err != nil {
			return nil, fmt.Errorf("synth: port %s: %w", name, err)
		}
		out.Ports[name] = Port{Dir: p.Direction, Bits: bits}
	}
	for name, c := range mod.Cells {
		if c.PortDirs == nil {
			return nil, fmt.Errorf("synth: cell %s (%s) has no port directions", name, c.Type)
		}
		cell := Cell{Name: name, Type: c.Type, Params: c.Parameters}
		for port, raw := range c.Connections {
			bits, err := decodeBits(raw)
			if err != nil {
				return nil, fmt.Errorf("synth: cell %s port %s: %w", name, port, err)
			}
			cell.Pins = append(cell.Pins, Pin{Port: port, Dir: c.PortDirs[port], Bits: bits})
		}
		slices.SortFunc(cell.Pins, func(a, b Pin) int { return strings.Compare(a.Port, b.Port) })
		out.Cells = append(out.Cells, cell)
		if c.Type == "RAMB18E1" || c.Type == "RAMB36E1" {
			out.BRAMCells[memoryRole(name)]++
		}
	}
	slices.SortFunc(out.Cells, func(a, b Cell) int { return strings.Compare(a.Name, b.Name) })
	out.nameNets(mod)
	out.Depth, out.Note = logicDepth(out.Cells)
	return out, nil
}

// nameNets fills Names: for each net bit the shortest wire name the design
// gave it (ties broken alphabetically); bits that only have Yosys's own
// $-names stay unnamed.
func (n *Netlist) nameNets(mod jsonModule) {
	for name, w := range mod.Netnames {
		if w.HideName != 0 {
			continue
		}
		bits, err := decodeBits(w.Bits)
		if err != nil {
			continue
		}
		for i, b := range bits {
			if !b.IsNet() {
				continue
			}
			c := name
			if len(bits) > 1 {
				c = fmt.Sprintf("%s[%d]", name, i)
			}
			if old, ok := n.Names[b]; !ok || len(c) < len(old) || (len(c) == len(old) && c < old) {
				n.Names[b] = c
			}
			if old, ok := n.deepNames[b]; !ok || nameRank(c) > nameRank(old) ||
				(nameRank(c) == nameRank(old) && (len(c) < len(old) || (len(c) == len(old) && c < old))) {
				n.deepNames[b] = c
			}
		}
	}
}

// NetName returns a readable name for bit b: its wire name, or "net<b>".
func (n *Netlist) NetName(b Bit) string {
	if s, ok := n.Names[b]; ok {
		return s
	}
	switch b {
	case Bit0:
		return "1'b0"
	case Bit1:
		return "1'b1"
	case BitX:
		return "1'bx"
	case BitZ:
		return "1'bz"
	}
	return fmt.Sprintf("net%d", int(b))
}

func decodeBits(raw []json.RawMessage) ([]Bit, error) {
	bits := make([]Bit, len(raw))
	for i, r := range raw {
		if n, err := strconv.Atoi(string(r)); err == nil {
			if n < 0 {
				return nil, fmt.Errorf("negative net number %d", n)
			}
			bits[i] = Bit(n)
			continue
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf("bit %s is neither a net nor a constant", r)
		}
		switch s {
		case "0":
			bits[i] = Bit0
		case "1":
			bits[i] = Bit1
		case "x":
			bits[i] = BitX
		case "z":
			bits[i] = BitZ
		default:
			return nil, fmt.Errorf("unknown constant bit %q", s)
		}
	}
	return bits, nil
}

// logicDepth is the longest register-to-register path in logic levels.
func logicDepth(cells []Cell) (int, string) {
	type node struct {
		weight int
		inputs []Bit
	}
	var nodes []node
	driver := map[Bit]int{} // net bit → combinational node index
	for i := range cells {
		w, comb := cellLevels(&cells[i])
		if !comb {
			continue
		}
		idx := len(nodes)
		n := node{weight: w}
		for _, p := range cells[i].Pins {
			for _, b := range p.Bits {
				if !b.IsNet() {
					continue
				}
				switch p.Dir {
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
	out := 0
	for i := range nodes {
		out = max(out, visit(i))
	}
	if loop {
		return out, "combinational loop in the netlist; depth is a lower bound"
	}
	return out, ""
}

// cellLevels classifies a mapped cell: its logic-level weight and whether it is
// combinational (a path runs through it) rather than a path end point.
func cellLevels(c *Cell) (weight int, comb bool) {
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
			if c.Param(p) != 0 {
				return 0, false
			}
		}
		return 1, true
	}
	return 0, false
}

// paramInt decodes a Yosys parameter value: a number or a binary string
// (undefined bits x/z count as 0).
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
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "01xz") != "" {
		return 0
	}
	s = strings.Map(func(r rune) rune {
		if r == 'x' || r == 'z' {
			return '0'
		}
		return r
	}, s)
	if len(s) > 63 {
		s = s[len(s)-63:]
	}
	v, err := strconv.ParseInt(s, 2, 64)
	if err != nil {
		return 0
	}
	return v
}
