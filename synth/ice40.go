package synth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/internal/proc"
)

// This file is the iCEBreaker target's side of `hdlgen synth` and `hdlgen
// power` (docs/ice40.md, docs/timing.md): for a design emitted with --board
// icebreaker, hdlgen's own estimate of the netlist that Yosys's synth_ice40
// made for nextpnr (DIR/build/ice40/synth.json, written by `make bitstream`)
// beside nextpnr-ice40's routed figures of the same netlist
// (DIR/build/ice40/report.json).

// Paths of the iCE40 flow inside DIR (rtl's ice40/ice40.mk writes them).
const (
	ICE40Make    = "ice40/ice40.mk"
	ICE40Netlist = "build/ice40/synth.json"
	ICE40Report  = "build/ice40/report.json"
)

// ErrNoRoute says a design has the iCE40 flow but no routed result yet.
var ErrNoRoute = errors.New("no routed result: run make bitstream in the design (or hdlgen synth --route)")

// HasICE40 reports whether DIR was emitted with --board icebreaker.
func HasICE40(dir string) bool { return exists(filepath.Join(dir, ICE40Make)) }

// ICE40Delays is hdlgen's delay model of the iCE40 UltraPlus (UP5K), in ns:
// the cell delays of Yosys 0.23's techlibs/ice40/cells_sim.v under ICE40_U
// (which cites Project IceStorm's icefuzz/timings_up5k.txt, the Lattice
// iCEcube2 figures; the larger of rise and fall), and a net rule of its own
// from the same timing file's interconnect (docs/timing.md).
type ICE40Delays struct {
	LUT         [4]float64 // SB_LUT4 I0…I3 → O
	CarryCI     float64    // SB_CARRY CI → CO
	CarryI0     float64    // SB_CARRY I0 → CO
	CarryI1     float64    // SB_CARRY I1 → CO
	FFClockToQ  float64    // SB_DFF* C → Q
	FFSetupSR   float64    // a synchronous set or reset (R, S of SB_DFF*SR/SS)
	FFRecovery  float64    // an asynchronous one (SB_DFFR, SB_DFFS)
	RAMClockToQ float64    // SB_RAM40_4K RCLK → RDATA
	RAMSetup    map[string]float64
	// A net from a cell output to its farthest load costs LocalMux + InMux +
	// Span4·⌈log2 f⌉ for f loads; a carry output into the next carry's CI
	// is the dedicated chain (0), into a LUT's I3 one InMux.
	LocalMux, InMux, Span4 float64
}

// UP5K is the delay model of the iCE40UP5K.
var UP5K = ICE40Delays{
	LUT:     [4]float64{1.285, 1.232, 1.205, 0.874},
	CarryCI: 0.278, CarryI0: 0.675, CarryI1: 0.609,
	FFClockToQ: 1.391, FFSetupSR: 0.530, FFRecovery: 0.424,
	RAMClockToQ: 1.179,
	RAMSetup: map[string]float64{"MASK": 0.517, "RADDR": 0.384, "RCLKE": 0.503, "RE": 0.185,
		"WADDR": 0.424, "WCLKE": 0.503, "WDATA": 0.305, "WE": 0.252},
	// timings_up5k.txt (icestorm 2219530), the worst-case IOPATH lines:
	// LocalMux 830/580, InMux 500/380, Span4Mux_v4 450/490 ps.
	LocalMux: 0.830, InMux: 0.500, Span4: 0.490,
}

// NetDelay is the model's delay of a general net with f loads.
func (d *ICE40Delays) NetDelay(f int) float64 {
	n := d.LocalMux + d.InMux
	if f > 1 {
		n += d.Span4 * math.Ceil(math.Log2(float64(f)))
	}
	return n
}

// ICE40Estimate is hdlgen's estimate of an iCE40 netlist.
type ICE40Estimate struct {
	LUT4, Carry, FFs, RAM, DSP int
	// LogicCells estimates nextpnr's packing: one per LUT4, plus each
	// flip-flop whose D is not the output of a LUT4 that drives it alone,
	// plus each SB_CARRY whose two operands are not the I1, I2 of a LUT4.
	LogicCells int
	// PathNS is the longest register-to-register path, FmaxMHz its
	// inverse; Path its cells, launch first.
	PathNS  float64  `json:"path_ns"`
	FmaxMHz float64  `json:"fmax_mhz"`
	Path    []string `json:"path"`
}

// ICE40Routed is nextpnr-ice40's report of the routed design.
type ICE40Routed struct {
	LogicCells, LogicCellsAvail int
	RAM, RAMAvail               int
	DSP, DSPAvail               int
	FmaxMHz, ConstraintMHz      float64
}

// ICE40 is the comparison for one design.
type ICE40 struct {
	Top      string        `json:"top"`
	Estimate ICE40Estimate `json:"estimate"`
	Routed   ICE40Routed   `json:"routed"`
}

// ReadICE40 compares hdlgen's estimate of DIR's iCE40 netlist with
// nextpnr's routed report of it; ErrNoRoute when there is none.
func ReadICE40(dir string) (*ICE40, error) {
	if !exists(filepath.Join(dir, ICE40Report)) || !exists(filepath.Join(dir, ICE40Netlist)) {
		return nil, ErrNoRoute
	}
	b, err := os.ReadFile(filepath.Join(dir, ICE40Report))
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	routed, err := parseNextpnrReport(b)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", filepath.Join(dir, ICE40Report), err)
	}
	f, err := os.Open(filepath.Join(dir, ICE40Netlist))
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer f.Close()
	top, nl, err := parseTopNetlist(f)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", filepath.Join(dir, ICE40Netlist), err)
	}
	est, err := EstimateICE40(nl, &UP5K)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", filepath.Join(dir, ICE40Netlist), err)
	}
	return &ICE40{Top: top, Estimate: est, Routed: routed}, nil
}

// RouteICE40 runs the design's iCE40 flow (make bitstream) in dir, its
// output to log on failure.
func RouteICE40(ctx context.Context, dir string, log io.Writer) error {
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", "bitstream")
	cmd.Dir = dir
	cmd.Env = proc.MakeEnv()
	proc.Setup(cmd) // make, Yosys and nextpnr end with hdlgen
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if log != nil {
			log.Write(out.Bytes())
		}
		return fmt.Errorf("synth: make bitstream in %s: %w", dir, err)
	}
	return nil
}

// parseTopNetlist parses a Yosys JSON netlist of one top module (the
// module with the attribute top, else the only one).
func parseTopNetlist(r io.Reader) (string, *Netlist, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", nil, err
	}
	var nl struct {
		Modules map[string]struct {
			Attributes map[string]json.RawMessage `json:"attributes"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(b, &nl); err != nil {
		return "", nil, fmt.Errorf("parse netlist JSON: %w", err)
	}
	var tops []string
	for name, m := range nl.Modules {
		if _, ok := m.Attributes["top"]; ok {
			tops = append(tops, name)
		}
	}
	if len(tops) != 1 {
		return "", nil, fmt.Errorf("want one top module, found %d", len(tops))
	}
	n, err := ParseNetlist(strings.NewReader(string(b)), tops[0])
	return tops[0], n, err
}

func parseNextpnrReport(b []byte) (ICE40Routed, error) {
	var rep struct {
		Fmax map[string]struct {
			Achieved   float64 `json:"achieved"`
			Constraint float64 `json:"constraint"`
		} `json:"fmax"`
		Utilization map[string]struct {
			Available int `json:"available"`
			Used      int `json:"used"`
		} `json:"utilization"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return ICE40Routed{}, fmt.Errorf("parse: %w", err)
	}
	var r ICE40Routed
	lc, ok := rep.Utilization["ICESTORM_LC"]
	if !ok || len(rep.Fmax) == 0 {
		return r, fmt.Errorf("no ICESTORM_LC utilisation or no clock's fmax: not nextpnr-ice40's report")
	}
	r.LogicCells, r.LogicCellsAvail = lc.Used, lc.Available
	r.RAM, r.RAMAvail = rep.Utilization["ICESTORM_RAM"].Used, rep.Utilization["ICESTORM_RAM"].Available
	r.DSP, r.DSPAvail = rep.Utilization["ICESTORM_DSP"].Used, rep.Utilization["ICESTORM_DSP"].Available
	r.FmaxMHz = math.Inf(1)
	for _, f := range rep.Fmax { // the slowest clock (the UART top has one)
		if f.Achieved < r.FmaxMHz {
			r.FmaxMHz, r.ConstraintMHz = f.Achieved, f.Constraint
		}
	}
	return r, nil
}

// ice40FF reports whether t is one of the iCE40 flip-flops, and whether its
// R or S is asynchronous.
func ice40FF(t string) (ff, async bool) {
	if !strings.HasPrefix(t, "SB_DFF") {
		return false, false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(t, "SB_DFFN"), "SB_DFF")
	rest = strings.TrimPrefix(rest, "E")
	return true, rest == "R" || rest == "S"
}

// EstimateICE40 is hdlgen's estimate of an iCE40 netlist with the delay
// model d: its cells, a logic-cell count and a static timing analysis.
// Register-to-register paths only: ports are neither launch nor capture
// points (the UART top's input is synchronised by flip-flops, its output a
// flip-flop).
func EstimateICE40(nl *Netlist, d *ICE40Delays) (ICE40Estimate, error) {
	var e ICE40Estimate
	type load struct {
		cell int
		pin  string
	}
	driver := map[Bit]struct {
		cell int
		pin  string
	}{}
	loads := map[Bit][]load{}
	for i := range nl.Cells {
		c := &nl.Cells[i]
		for _, p := range c.Pins {
			for _, b := range p.Bits {
				if !b.IsNet() {
					continue
				}
				if p.Dir == "output" {
					driver[b] = struct {
						cell int
						pin  string
					}{i, p.Port}
				} else {
					loads[b] = append(loads[b], load{i, p.Port})
				}
			}
		}
	}
	bit := func(c *Cell, port string) Bit {
		if p := c.Pin(port); p != nil && len(p.Bits) == 1 {
			return p.Bits[0]
		}
		return BitX
	}
	// Cells and the packing estimate.
	lutIn := map[[2]Bit]bool{} // the (I1, I2) of every LUT4
	for i := range nl.Cells {
		c := &nl.Cells[i]
		switch ff, _ := ice40FF(c.Type); {
		case c.Type == "SB_LUT4":
			e.LUT4++
			lutIn[[2]Bit{bit(c, "I1"), bit(c, "I2")}] = true
		case c.Type == "SB_CARRY":
			e.Carry++
		case ff:
			e.FFs++
		case strings.HasPrefix(c.Type, "SB_RAM40_4K"):
			e.RAM++
		case c.Type == "SB_MAC16":
			e.DSP++
		case c.Type == "SB_IO", c.Type == "SB_GB", c.Type == "SB_GB_IO":
		default:
			return e, fmt.Errorf("cell %s of type %s: not in hdlgen's iCE40 model", c.Name, c.Type)
		}
	}
	e.LogicCells = e.LUT4
	for i := range nl.Cells {
		c := &nl.Cells[i]
		if ff, _ := ice40FF(c.Type); ff {
			dbit := bit(c, "D")
			drv, ok := driver[dbit]
			if !ok || nl.Cells[drv.cell].Type != "SB_LUT4" || len(loads[dbit]) != 1 {
				e.LogicCells++
			}
		} else if c.Type == "SB_CARRY" && !lutIn[[2]Bit{bit(c, "I0"), bit(c, "I1")}] {
			e.LogicCells++
		}
	}
	if e.DSP > 0 {
		return e, fmt.Errorf("%d SB_MAC16: not in hdlgen's iCE40 timing model", e.DSP)
	}
	// Static timing: arrival times at cell outputs, by memoised search.
	type arrival struct {
		t    float64
		from Bit // the input bit the worst arrival came through
	}
	arr := map[Bit]arrival{}
	state := map[Bit]int8{}
	var at func(b Bit) float64
	netTo := func(b Bit, l load) float64 {
		drv, ok := driver[b]
		if !ok {
			return 0
		}
		src, dst := &nl.Cells[drv.cell], &nl.Cells[l.cell]
		if src.Type == "SB_CARRY" {
			switch {
			case dst.Type == "SB_CARRY" && l.pin == "CI":
				return 0
			case dst.Type == "SB_LUT4" && l.pin == "I3":
				return d.InMux
			}
		}
		return d.NetDelay(len(loads[b]))
	}
	at = func(b Bit) float64 {
		if !b.IsNet() {
			return 0
		}
		switch state[b] {
		case 1:
			return arr[b].t
		case -1:
			return 0 // a combinational loop: cut
		}
		state[b] = -1
		a := arrival{from: BitX}
		if drv, ok := driver[b]; ok {
			c := &nl.Cells[drv.cell]
			through := func(in string, delay float64) {
				ib := bit(c, in)
				if !ib.IsNet() {
					return
				}
				t := at(ib) + netTo(ib, load{drv.cell, in}) + delay
				if t > a.t {
					a = arrival{t, ib}
				}
			}
			switch ff, _ := ice40FF(c.Type); {
			case ff:
				a.t = d.FFClockToQ
			case strings.HasPrefix(c.Type, "SB_RAM40_4K"):
				a.t = d.RAMClockToQ
			case c.Type == "SB_LUT4":
				for i, in := range []string{"I0", "I1", "I2", "I3"} {
					through(in, d.LUT[i])
				}
			case c.Type == "SB_CARRY":
				through("CI", d.CarryCI)
				through("I0", d.CarryI0)
				through("I1", d.CarryI1)
			}
		}
		arr[b] = a
		state[b] = 1
		return a.t
	}
	worst, worstBit, worstEnd := 0.0, BitX, ""
	for i := range nl.Cells {
		c := &nl.Cells[i]
		ff, async := ice40FF(c.Type)
		ram := strings.HasPrefix(c.Type, "SB_RAM40_4K")
		if !ff && !ram {
			continue
		}
		for _, p := range c.Pins {
			if p.Dir != "input" {
				continue
			}
			setup, ok := 0.0, true
			switch {
			case ff && (p.Port == "D" || p.Port == "E"):
			case ff && (p.Port == "R" || p.Port == "S"):
				setup = d.FFSetupSR
				if async {
					setup = d.FFRecovery
				}
			case ram:
				setup, ok = d.RAMSetup[p.Port]
			default:
				ok = false // clocks
			}
			if !ok {
				continue
			}
			for _, b := range p.Bits {
				if !b.IsNet() {
					continue
				}
				if t := at(b) + netTo(b, load{i, p.Port}) + setup; t > worst {
					worst, worstBit, worstEnd = t, b, c.Name+"."+p.Port
				}
			}
		}
	}
	e.PathNS = worst
	if worst > 0 {
		e.FmaxMHz = 1e3 / worst
		e.Path = append(e.Path, worstEnd)
		for b := worstBit; b.IsNet(); b = arr[b].from {
			if drv, ok := driver[b]; ok {
				e.Path = append(e.Path, nl.Cells[drv.cell].Name+" ("+nl.Cells[drv.cell].Type+")")
			}
		}
		slices.Reverse(e.Path)
	}
	return e, nil
}

// WriteText prints the comparison.
func (r *ICE40) WriteText(w io.Writer) error {
	e, ro := r.Estimate, r.Routed
	ratio := func(est, routed float64) string {
		if routed == 0 {
			return "—"
		}
		return fmt.Sprintf("%+.1f %%", 100*(est-routed)/routed)
	}
	_, err := fmt.Fprintf(w, `
iCE40 UP5K, %s (the iCEBreaker's UART top; hdlgen's estimate of build/ice40/synth.json,
the netlist Yosys synth_ice40 made, beside nextpnr-ice40's routed build/ice40/report.json):
                 estimate (hdlgen)   routed (nextpnr)      estimate vs routed
  logic cells    %-19d %d of %-13d %s   (%d SB_LUT4, %d SB_DFF*, %d SB_CARRY)
  EBR            %-19d %d of %d
  DSP (SB_MAC16) %-19d %d of %d
  Fmax           %-19s %-18s %s   (clock %g MHz: %s)
Worst path of the estimate (%.2f ns): %s
The estimate: Yosys 0.23's iCE40 UltraPlus cell delays and a net rule of hdlgen's (docs/timing.md);
no placement.
`, r.Top, e.LogicCells, ro.LogicCells, ro.LogicCellsAvail, ratio(float64(e.LogicCells), float64(ro.LogicCells)),
		e.LUT4, e.FFs, e.Carry, e.RAM, ro.RAM, ro.RAMAvail, e.DSP, ro.DSP, ro.DSPAvail,
		fmt.Sprintf("%.2f MHz", e.FmaxMHz), fmt.Sprintf("%.2f MHz", ro.FmaxMHz), ratio(e.FmaxMHz, ro.FmaxMHz),
		ro.ConstraintMHz, map[bool]string{true: "met", false: "missed"}[ro.FmaxMHz >= ro.ConstraintMHz],
		e.PathNS, pathSummary(e.Path))
	return err
}

// pathSummary names a path's launch and capture and counts the cells between.
func pathSummary(path []string) string {
	if len(path) < 2 {
		return strings.Join(path, " → ")
	}
	n := map[string]int{}
	var kinds []string
	for _, c := range path[1 : len(path)-1] {
		k := c
		if i := strings.LastIndex(c, " ("); i >= 0 {
			k = strings.TrimSuffix(c[i+2:], ")")
		}
		if n[k] == 0 {
			kinds = append(kinds, k)
		}
		n[k]++
	}
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
	}
	return fmt.Sprintf("%s → %s → %s", path[0], strings.Join(parts, ", "), path[len(path)-1])
}
