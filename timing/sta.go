package timing

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/synth"
)

// Report is the static timing estimate of one netlist.
type Report struct {
	Model string `json:"model"`
	// PeriodNS is the worst register-to-register path: clock-to-output of its
	// start, cell and net delays, setup of its end; FmaxMHz = 1000 / PeriodNS.
	PeriodNS float64 `json:"period_ns"`
	FmaxMHz  float64 `json:"fmax_mhz"`
	// Path is the worst path, start first.
	Path []Step `json:"path"`
	// SetupNS is the setup time at the path's end; End names it.
	SetupNS float64 `json:"setup_ns"`
	End     string  `json:"end"`
	// Levels counts the path's logic cells (LUT, MUXF, CARRY4, DSP48E1
	// passes; not the start register).
	Levels int `json:"levels"`
	// Endpoints is the number of register inputs checked.
	Endpoints int `json:"endpoints"`
	// MaxFanout is the net with the most loads (as wired, before the
	// per-slice control-pin reduction), for the record.
	MaxFanout    int    `json:"max_fanout"`
	MaxFanoutNet string `json:"max_fanout_net"`
}

// Step is one cell of a path and the net it drives to the next cell.
type Step struct {
	Cell string `json:"cell"`
	Type string `json:"type"`
	// Arc is "C>Q" for the launching register, "I3>O" for a LUT input, …
	Arc    string  `json:"arc"`
	CellNS float64 `json:"cell_ns"`
	// Net is the driven net's readable name, Fanout its loads, NetNS the
	// wire delay to the next cell's input; ArrivalNS the time at that input.
	Net       string  `json:"net"`
	Fanout    int     `json:"fanout"`
	NetNS     float64 `json:"net_ns"`
	ArrivalNS float64 `json:"arrival_ns"`
}

// load is one input pin bit a net feeds.
type load struct {
	cell    int
	pin     string // pin bit name
	port    string
	control bool
}

type driver struct {
	cell int
	pin  string // output pin bit
	port string
}

// graph is the netlist as the analysis sees it.
type graph struct {
	nl      *synth.Netlist
	m       *Model
	timing  []*cellTiming
	drivers map[synth.Bit]driver
	loads   map[synth.Bit][]load
	inputs  [][]inputBit // per cell: its input pin bits with nets
}

type inputBit struct {
	pin  string
	port string
	bit  synth.Bit
}

// Analyze estimates the worst register-to-register path of netlist nl under
// model m. Paths from the top-level inputs and to the top-level outputs are
// not register-to-register and are left out (the design's neighbours decide
// them). A netlist without register-to-register paths gives PeriodNS 0.
func Analyze(nl *synth.Netlist, m *Model) (*Report, error) {
	g := &graph{nl: nl, m: m, drivers: map[synth.Bit]driver{}, loads: map[synth.Bit][]load{}}
	g.timing = make([]*cellTiming, len(nl.Cells))
	g.inputs = make([][]inputBit, len(nl.Cells))
	for i := range nl.Cells {
		c := &nl.Cells[i]
		t, err := m.timingOf(c)
		if err != nil {
			return nil, fmt.Errorf("%w (cell %s)", err, c.Name)
		}
		g.timing[i] = t
		for _, p := range c.Pins {
			for j, b := range p.Bits {
				if !b.IsNet() {
					continue
				}
				pb := pinBit(p.Port, j, len(p.Bits))
				switch p.Dir {
				case "output":
					if d, dup := g.drivers[b]; dup {
						return nil, fmt.Errorf("timing: net %s driven by %s and %s", nl.NetName(b), nl.Cells[d.cell].Name, c.Name)
					}
					g.drivers[b] = driver{cell: i, pin: pb, port: p.Port}
				case "input":
					if t.clocks[p.Port] {
						continue
					}
					g.loads[b] = append(g.loads[b], load{cell: i, pin: pb, port: p.Port, control: isControlPin(c.Type, p.Port)})
					g.inputs[i] = append(g.inputs[i], inputBit{pin: pb, port: p.Port, bit: b})
				}
			}
		}
	}
	return g.analyze()
}

// netDelay is the wire delay from the driver of net b to load l.
func (g *graph) netDelay(b synth.Bit, l load) float64 {
	d, ok := g.drivers[b]
	if ok {
		from := g.nl.Cells[d.cell].Type
		to := g.nl.Cells[l.cell].Type
		switch {
		case from == "CARRY4" && d.pin == "CO3" && to == "CARRY4" && l.port == "CI":
			return 0 // the dedicated carry chain
		case strings.HasPrefix(from, "LUT") && (to == "MUXF7") && l.port != "S",
			from == "MUXF7" && to == "MUXF8" && l.port != "S":
			return 0 // inside the slice
		case from == "DSP48E1" && to == "DSP48E1" && strings.HasSuffix(d.port, "COUT") && strings.HasSuffix(l.port, "CIN"):
			return 0 // the DSP cascade
		}
		if len(g.loads[b]) == 1 {
			switch {
			case strings.HasPrefix(from, "LUT") && to == "CARRY4" && (l.port == "S" || l.port == "DI"):
				return 0 // the LUT of the carry's own slice
			case (strings.HasPrefix(from, "LUT") || from == "CARRY4" || strings.HasPrefix(from, "MUXF")) &&
				strings.HasPrefix(to, "FD") && l.port == "D":
				return g.m.NetPackedFF
			}
		}
	}
	return g.m.NetDelay(g.effectiveLoads(b))
}

// effectiveLoads counts the loads of net b, control pins per slice.
func (g *graph) effectiveLoads(b synth.Bit) float64 {
	data, control := 0, 0
	for _, l := range g.loads[b] {
		if l.control {
			control++
		} else {
			data++
		}
	}
	per := max(1, g.m.ControlPerSlice)
	return float64(data) + math.Ceil(float64(control)/float64(per))
}

const unreached = -1e18

// analyze computes arrival times by a memoised depth-first search over the
// drivers and returns the worst endpoint's path.
func (g *graph) analyze() (*Report, error) {
	type state struct {
		arrival float64
		from    synth.Bit // the input net that set the arrival (-999 for a launch)
		fromPin string
		done    int8 // 0 new, -1 on the stack, 1 done
	}
	const launched = synth.Bit(-999)
	st := map[synth.Bit]*state{}
	loop := ""
	var arrive func(b synth.Bit) float64
	arrive = func(b synth.Bit) float64 {
		d, ok := g.drivers[b]
		if !ok {
			return unreached // top-level input or undriven
		}
		s := st[b]
		if s == nil {
			s = &state{arrival: unreached, from: launched}
			st[b] = s
		}
		switch s.done {
		case 1:
			return s.arrival
		case -1:
			if loop == "" {
				loop = g.nl.NetName(b)
			}
			return unreached
		}
		s.done = -1
		t := g.timing[d.cell]
		if l, ok := t.launch[d.pin]; ok {
			s.arrival, s.from = l, launched
		}
		for _, in := range g.inputs[d.cell] {
			a, ok := t.arcs[in.pin][d.pin]
			if !ok {
				continue
			}
			at := arrive(in.bit)
			if at <= unreached/2 {
				continue
			}
			at += g.netDelay(in.bit, g.loadOf(in.bit, d.cell, in.pin)) + a
			if at > s.arrival {
				s.arrival, s.from, s.fromPin = at, in.bit, in.pin
			}
		}
		s.done = 1
		return s.arrival
	}

	rep := &Report{Model: g.m.Name}
	bestAt, bestCell, bestPin, bestBit := unreached, -1, "", synth.Bit(0)
	for i := range g.nl.Cells {
		for _, in := range g.inputs[i] {
			setup, ok := g.timing[i].setup[in.pin]
			if !ok {
				continue
			}
			rep.Endpoints++
			at := arrive(in.bit)
			if at <= unreached/2 {
				continue
			}
			at += g.netDelay(in.bit, load{cell: i, pin: in.pin, port: in.port, control: isControlPin(g.nl.Cells[i].Type, in.port)}) + setup
			if at > bestAt {
				bestAt, bestCell, bestPin, bestBit = at, i, in.pin, in.bit
			}
		}
	}
	for b, ls := range g.loads {
		if len(ls) > rep.MaxFanout || (len(ls) == rep.MaxFanout && g.nl.NetName(b) < rep.MaxFanoutNet) {
			rep.MaxFanout, rep.MaxFanoutNet = len(ls), g.nl.NetName(b)
		}
	}
	if loop != "" {
		return nil, fmt.Errorf("timing: combinational loop through net %s", loop)
	}
	if bestCell < 0 {
		return rep, nil
	}
	end := &g.nl.Cells[bestCell]
	rep.PeriodNS = bestAt
	rep.FmaxMHz = 1000 / bestAt
	rep.SetupNS = g.timing[bestCell].setup[bestPin]
	rep.End = fmt.Sprintf("%s %s.%s", end.Type, cellLabel(g.nl, bestCell), bestPin)

	// Walk back from the endpoint to the launching register.
	var path []Step
	b, toCell, toPin := bestBit, bestCell, bestPin
	for {
		d := g.drivers[b]
		s := st[b]
		c := &g.nl.Cells[d.cell]
		l := g.loadOf(b, toCell, toPin)
		net := g.netDelay(b, l)
		step := Step{Cell: c.Name, Type: c.Type, Net: g.nl.Names[b], Fanout: len(g.loads[b]), NetNS: net, ArrivalNS: s.arrival + net}
		if s.from == launched {
			step.Arc = "clk>" + d.pin
			step.CellNS = g.timing[d.cell].launch[d.pin]
			path = append(path, step)
			break
		}
		step.Arc = s.fromPin + ">" + d.pin
		step.CellNS = g.timing[d.cell].arcs[s.fromPin][d.pin]
		path = append(path, step)
		b, toCell, toPin = s.from, d.cell, s.fromPin
	}
	slices.Reverse(path)
	rep.Path = path
	for _, s := range path[1:] {
		if s.Type != "INV" && s.Type != "BUF" {
			rep.Levels++
		}
	}
	return rep, nil
}

// loadOf finds the load record of net b at (cell, pin).
func (g *graph) loadOf(b synth.Bit, cell int, pin string) load {
	for _, l := range g.loads[b] {
		if l.cell == cell && l.pin == pin {
			return l
		}
	}
	panic(fmt.Sprintf("timing: net %d has no load %d.%s", int(b), cell, pin))
}

// cellLabel names a cell by the net its first output drives (Yosys's own
// cell names are numbers), falling back to the cell name.
func cellLabel(nl *synth.Netlist, i int) string {
	c := &nl.Cells[i]
	for _, p := range c.Pins {
		if p.Dir == "output" {
			for _, b := range p.Bits {
				if b.IsNet() {
					return nl.NetName(b)
				}
			}
		}
	}
	return c.Name
}
