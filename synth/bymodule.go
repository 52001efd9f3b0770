package synth

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// TopScope names the top module's own cells in a by-module breakdown.
const TopScope = "(top)"

// ModuleShare is the part of a flattened netlist's cells attributed to one
// instance path of the design ("u_core.u_mac"; generate blocks are folded into
// the instance that contains them, so the lanes of a loop add up in one row).
// Counts are fractional where a cell is shared between instances.
type ModuleShare struct {
	Scope    string  `json:"scope"`
	LUTCells float64 `json:"lut_cells"` // LUT1…LUT6
	FF       float64 `json:"ff"`        // FD*
	CARRY4   float64 `json:"carry4"`
	MUXF     float64 `json:"muxf"`    // MUXF7 and MUXF8
	LUTRAM   float64 `json:"lutram"`  // RAM* and SRL* cells
	DSP48E1  float64 `json:"dsp48e1"` // DSP48E1
	BRAM36   float64 `json:"bram36"`  // RAMB36E1 = 1, RAMB18E1 = 0.5
}

// ByModule attributes every mapped cell of the flattened netlist to the
// instance that made it. Yosys's flatten keeps each named wire's hierarchical
// name, but abc renames the logic it maps, so the attribution goes by nets: a
// cell belongs to the instance of the deepest named net it drives; a cell
// whose outputs have no name belongs to the instances its outputs reach
// through unnamed nets (the named nets, registers or ports it feeds), split
// evenly between them. Rows are sorted by scope; the sums over the rows equal
// the netlist's cell counts.
func (n *Netlist) ByModule() []ModuleShare {
	loads := map[Bit][]int{} // net bit → cells that read it
	for i := range n.Cells {
		for _, p := range n.Cells[i].Pins {
			if p.Dir != "input" {
				continue
			}
			for _, b := range p.Bits {
				if b.IsNet() {
					loads[b] = append(loads[b], i)
				}
			}
		}
	}
	memo := map[Bit][]string{}
	onStack := map[Bit]bool{}
	var scopesOf func(b Bit) []string
	scopesOf = func(b Bit) []string {
		if s, ok := memo[b]; ok {
			return s
		}
		if name, ok := n.deepNames[b]; ok {
			s := []string{scopeOf(name)}
			memo[b] = s
			return s
		}
		if onStack[b] {
			return nil
		}
		onStack[b] = true
		var s []string
		for _, c := range loads[b] {
			s = mergeScopes(s, n.cellScopes(c, scopesOf))
		}
		delete(onStack, b)
		memo[b] = s
		return s
	}
	rows := map[string]*ModuleShare{}
	for i := range n.Cells {
		c := &n.Cells[i]
		add := cellCounter(c.Type)
		if add == nil {
			continue
		}
		scopes := n.cellScopes(i, scopesOf)
		if len(scopes) == 0 {
			scopes = []string{"(unattributed)"}
		}
		w := 1 / float64(len(scopes))
		for _, s := range scopes {
			r := rows[s]
			if r == nil {
				r = &ModuleShare{Scope: s}
				rows[s] = r
			}
			add(r, w)
		}
	}
	out := make([]ModuleShare, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b ModuleShare) int { return strings.Compare(a.Scope, b.Scope) })
	return out
}

// cellScopes is the union of the scopes of cell i's output nets.
func (n *Netlist) cellScopes(i int, scopesOf func(Bit) []string) []string {
	var s []string
	for _, p := range n.Cells[i].Pins {
		if p.Dir != "output" {
			continue
		}
		for _, b := range p.Bits {
			if b.IsNet() {
				s = mergeScopes(s, scopesOf(b))
			}
		}
	}
	return s
}

// cellCounter returns how a cell of type t adds to a row, or nil for cells
// that are not counted (INV, GND, VCC: Vivado folds inverters into LUTs).
func cellCounter(t string) func(r *ModuleShare, w float64) {
	switch {
	case strings.HasPrefix(t, "LUT"):
		return func(r *ModuleShare, w float64) { r.LUTCells += w }
	case strings.HasPrefix(t, "FD"):
		return func(r *ModuleShare, w float64) { r.FF += w }
	case t == "CARRY4":
		return func(r *ModuleShare, w float64) { r.CARRY4 += w }
	case t == "MUXF7", t == "MUXF8":
		return func(r *ModuleShare, w float64) { r.MUXF += w }
	case t == "RAMB36E1":
		return func(r *ModuleShare, w float64) { r.BRAM36 += w }
	case t == "RAMB18E1":
		return func(r *ModuleShare, w float64) { r.BRAM36 += w / 2 }
	case strings.HasPrefix(t, "RAM"), strings.HasPrefix(t, "SRL"):
		return func(r *ModuleShare, w float64) { r.LUTRAM += w }
	case t == "DSP48E1":
		return func(r *ModuleShare, w float64) { r.DSP48E1 += w }
	}
	return nil
}

// scopeOf is the instance path of a hierarchical wire name: its components
// that name instances (hdlgen's "u_" prefix), without index and without
// generate blocks or the wire itself; TopScope for the top's own wires.
func scopeOf(name string) string {
	parts := strings.Split(name, ".")
	var inst []string
	for _, p := range parts[:len(parts)-1] {
		p, _, _ = strings.Cut(p, "[")
		if strings.HasPrefix(p, "u_") {
			inst = append(inst, p)
		}
	}
	if len(inst) == 0 {
		return TopScope
	}
	return strings.Join(inst, ".")
}

// nameRank ranks the names of one net for ByModule, higher first: by hdlgen's
// naming convention a register's own name ends in "_q" and an output port's
// in "_o" (both in the driver's instance); an input port ("_i", "_ni") names
// a net driven elsewhere; among names of one kind the deeper instance wins
// (the register's name rather than the top-level wire it also drives).
func nameRank(name string) int {
	wire := name[strings.LastIndex(name, ".")+1:]
	wire, _, _ = strings.Cut(wire, "[")
	kind := 1
	switch {
	case strings.HasSuffix(wire, "_q"):
		kind = 3
	case strings.HasSuffix(wire, "_o"):
		kind = 2
	case strings.HasSuffix(wire, "_i"), strings.HasSuffix(wire, "_ni"):
		kind = 0
	}
	depth := 0
	if s := scopeOf(name); s != TopScope {
		depth = strings.Count(s, ".") + 1
	}
	return kind*64 + depth
}

// mergeScopes returns the sorted union of a and b (both sorted, no repeats).
func mergeScopes(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// WriteByModule prints rows as a Markdown table with a total row.
func WriteByModule(w io.Writer, rows []ModuleShare) error {
	var b strings.Builder
	b.WriteString("| instance | LUT cells | FF | CARRY4 | MUXF7/8 | LUTRAM/SRL | DSP48E1 | BRAM36 |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	var t ModuleShare
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Scope,
			count(r.LUTCells), count(r.FF), count(r.CARRY4), count(r.MUXF), count(r.LUTRAM), count(r.DSP48E1), count(r.BRAM36))
		t.LUTCells += r.LUTCells
		t.FF += r.FF
		t.CARRY4 += r.CARRY4
		t.MUXF += r.MUXF
		t.LUTRAM += r.LUTRAM
		t.DSP48E1 += r.DSP48E1
		t.BRAM36 += r.BRAM36
	}
	fmt.Fprintf(&b, "| total | %s | %s | %s | %s | %s | %s | %s |\n",
		count(t.LUTCells), count(t.FF), count(t.CARRY4), count(t.MUXF), count(t.LUTRAM), count(t.DSP48E1), count(t.BRAM36))
	_, err := io.WriteString(w, b.String())
	return err
}

// count prints a cell count: an integer when it is one, else one decimal.
func count(v float64) string {
	if r := float64(int64(v + 0.5)); v-r < 1e-9 && r-v < 1e-9 {
		return fmt.Sprintf("%d", int64(r))
	}
	return fmt.Sprintf("%.1f", v)
}

// LoadNetlist parses the netlist that synthesis report rep left in DIR
// (synth.Run or synth.Cached put it in DIR/build/synth/yosys).
func LoadNetlist(dir string, rep *Report) (*Netlist, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(NetlistFile)))
	if err != nil {
		return nil, fmt.Errorf("synth: no netlist of %s (run hdlgen synth %s): %w", rep.Top, dir, err)
	}
	defer f.Close()
	nl, err := ParseNetlist(f, rep.Top)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", dir, err)
	}
	return nl, nil
}
