package activity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/synth"
)

// Activity-based energy (docs/energy-model.md, "Activity-based energy"): the
// toggles of every net of the synthesised netlist, counted in a gate-level
// simulation of the design's test vectors (package activity), replace
// the flat toggle rate of the vectorless model. Each net belongs to the
// resource class of the cell that drives it; within a class the class's
// vectorless power is spread over its nets in proportion to a net
// capacitance by fanout, so that at a uniform toggle rate of 12.5 % the
// activity-based power equals the vectorless one exactly.

// Net classes (by driver).
const (
	ClassLUT    = "LUT"     // LUT1…LUT6, INV, LUTRAM and SRL cells (charged like LUTs by the vectorless model)
	ClassMUXF   = "MUXF"    // MUXF7, MUXF8
	ClassFF     = "FF"      // FDRE, FDSE, FDCE, FDPE
	ClassCARRY4 = "CARRY4"  // CARRY4 outputs O and CO
	ClassDSP    = "DSP48E1" // every DSP48E1 output (P, PCOUT, …)
	ClassBRAM   = "RAMB"    // RAMB18E1/RAMB36E1 outputs: charged per read, not per toggle
	ClassIO     = "IO"      // top-level inputs: no power (no I/O buffers, -noiopad)
	ClassClock  = "clock"   // nets into a clock pin: the clock terms, not data
	ClassOther  = "other"   // constants (GND/VCC) and undriven nets: no power
)

// ChargedClasses are the classes whose toggles the model charges, in report order.
var ChargedClasses = []string{ClassLUT, ClassMUXF, ClassFF, ClassCARRY4, ClassDSP}

// ReportClasses are all classes in report order.
var ReportClasses = []string{ClassLUT, ClassMUXF, ClassFF, ClassCARRY4, ClassDSP, ClassBRAM, ClassIO, ClassClock, ClassOther}

// Net capacitance by fanout, C(net) = DriverF[class] + LoadF · fanout, in
// farads. LoadF is the "≈ 70 fF per load" of the LUT coefficient's fanout-3
// net (DefaultCoefficients); the driver terms are the coefficients' internal
// capacitances per output bit: a LUT's ≈ 40 fF, none for a flip-flop, a
// CARRY4's 0.1 pF over its 4 bits, a MUXF's ≈ 50 fF, and a DSP48E1's
// 2·DSPW/(0.125·100 MHz·V²) = 38.4 pF over its 48 P bits (its internal
// multiplier and ALU, which dominate, follow the toggles of its outputs).
// Only ratios within a class matter: the class's total is fixed by its
// vectorless coefficient (ClassActivity).
var (
	LoadF   = 70e-15
	DriverF = map[string]float64{
		ClassLUT:    40e-15,
		ClassMUXF:   50e-15,
		ClassFF:     0,
		ClassCARRY4: 25e-15,
		ClassDSP:    0.8e-12,
	}
)

// NetClass is one net bit of the netlist with its class and loads.
type NetClass struct {
	Bit    synth.Bit
	Class  string
	Driver string // driving cell type ("" for a port or an undriven net)
	Fanout int    // cell input pins and top-level output bits it drives
}

// CapF is the net's capacitance by the fanout model (0 for uncharged classes).
func (n NetClass) CapF() float64 {
	d, ok := DriverF[n.Class]
	if !ok {
		return 0
	}
	return d + LoadF*float64(n.Fanout)
}

// clockPins are the clock inputs of the cells Yosys maps to.
var clockPins = map[string]bool{"C": true, "CLK": true, "CLKARDCLK": true, "CLKBWRCLK": true, "WCLK": true}

// CellClass returns the class of a net driven by a cell of type t.
func CellClass(t string) string {
	switch {
	case strings.HasPrefix(t, "LUT"), t == "INV", strings.HasPrefix(t, "SRL"),
		strings.HasPrefix(t, "RAM") && !strings.HasPrefix(t, "RAMB"):
		return ClassLUT
	case t == "MUXF7", t == "MUXF8":
		return ClassMUXF
	case strings.HasPrefix(t, "FD"):
		return ClassFF
	case t == "CARRY4":
		return ClassCARRY4
	case t == "DSP48E1":
		return ClassDSP
	case strings.HasPrefix(t, "RAMB"):
		return ClassBRAM
	}
	return ClassOther
}

// ClassifyNets returns every net bit of nl, sorted by bit, with the class of
// its driver and its fanout. A net into any clock pin is ClassClock.
func ClassifyNets(nl *synth.Netlist) []NetClass {
	m := map[synth.Bit]*NetClass{}
	get := func(b synth.Bit) *NetClass {
		n := m[b]
		if n == nil {
			n = &NetClass{Bit: b, Class: ClassOther}
			m[b] = n
		}
		return n
	}
	clock := map[synth.Bit]bool{}
	for _, p := range nl.Ports {
		for _, b := range p.Bits {
			if !b.IsNet() {
				continue
			}
			n := get(b)
			if p.Dir == "input" {
				n.Class = ClassIO
			} else {
				n.Fanout++
			}
		}
	}
	for _, c := range nl.Cells {
		for _, p := range c.Pins {
			for _, b := range p.Bits {
				if !b.IsNet() {
					continue
				}
				n := get(b)
				switch p.Dir {
				case "output":
					n.Class, n.Driver = CellClass(c.Type), c.Type
				default:
					n.Fanout++
					if clockPins[p.Port] {
						clock[b] = true
					}
				}
			}
		}
	}
	out := make([]NetClass, 0, len(m))
	for b, n := range m {
		if clock[b] {
			n.Class = ClassClock
		}
		out = append(out, *n)
	}
	slices.SortFunc(out, func(a, b NetClass) int { return int(a.Bit) - int(b.Bit) })
	return out
}

// NetActivity gives a net bit's toggles per cycle and the fraction of time
// it is 1.
type NetActivity interface {
	Rate(b synth.Bit) float64
	HighFrac(b synth.Bit) float64
}

// UniformActivity is the same toggle rate on every net and every net at 1 a
// fraction High of the time: the vectorless model's assumption as an activity
// (with High = 1, every block RAM is enabled in every cycle).
type UniformActivity struct{ Toggle, High float64 }

// Rate implements NetActivity.
func (u UniformActivity) Rate(synth.Bit) float64 { return u.Toggle }

// HighFrac implements NetActivity.
func (u UniformActivity) HighFrac(synth.Bit) float64 { return u.High }

// ClassActivity is the measured activity and the power of one net class.
type ClassActivity struct {
	Class   string  `json:"class"`
	Nets    int     `json:"nets"`
	Loads   int     `json:"loads"`
	Toggles float64 `json:"toggles_per_cycle"` // Σ over the class's nets
	// Rate is the mean toggle rate of the class's nets (toggles per net per
	// cycle); WeightedRate weights each net by its capacitance (what the
	// power scales with).
	Rate         float64 `json:"rate"`
	WeightedRate float64 `json:"weighted_rate"`
	// Count is the class's resource count in the vectorless model (LUT: LC +
	// LUTRAM; FF; CARRY4; MUXF; DSP48E1), 0 for uncharged classes.
	Count int `json:"count"`
	// CapF is Σ C(net) of the class by the fanout model; JPerToggleF the
	// energy one toggle costs per farad of it (so that a toggle of net n costs
	// JPerToggleF·C(n)).
	CapF        float64 `json:"cap_f"`
	JPerToggleF float64 `json:"j_per_toggle_per_f"`
	VectorlessW float64 `json:"vectorless_w"` // the class's data power at the vectorless toggle rate
	W           float64 `json:"w"`            // activity-based data power
}

// ActivityPower is the activity-based power of one simulation run.
type ActivityPower struct {
	Mode    string          `json:"mode"`
	Vectors int             `json:"vectors"`
	Cycles  int             `json:"cycles"` // simulated cycles measured
	Classes []ClassActivity `json:"classes"`
	// BRAMDuty is the block-RAM read activity: Σ BRAM36 × fraction of cycles
	// enabled, over Σ BRAM36 (1 when there is no block RAM).
	BRAMDuty float64 `json:"bram_duty"`
	LogicW   float64 `json:"logic_w"` // data: Σ classes + block-RAM reads
	BRAMW    float64 `json:"bram_w"`
	ClockW   float64 `json:"clock_w"`
	DynamicW float64 `json:"dynamic_w"`
	// ChargedCycles is the cycles per classification the energy charges:
	// the latency (single) or II (stream); EnergyJ = DynamicW·ChargedCycles/f.
	ChargedCycles int     `json:"charged_cycles"`
	EnergyJ       float64 `json:"energy_j"`
}

// classCount is the vectorless resource count of a charged class and its coefficient.
func classCount(class string, r power.Resources, c power.Coefficients) (int, float64) {
	switch class {
	case ClassLUT:
		return r.LUTs + r.LUTRAM, c.LUTW
	case ClassMUXF:
		return r.MUXF, c.MUXFW
	case ClassFF:
		return r.FFs, c.FFW
	case ClassCARRY4:
		return r.CARRY4, c.CARRY4W
	case ClassDSP:
		return r.DSP48E1, c.DSPW
	}
	return 0, 0
}

// ActivityFromNets computes the activity-based dynamic power of a netlist
// whose nets are classified as nets, with the vectorless resources r, from
// act. Per class k with resource count n_k and coefficient c_k (at 100 MHz,
// 12.5 %):
//
//	P_k = fs · c_k · n_k · ᾱ_k / 0.125,  ᾱ_k = Σ_{n∈k} α_n·C(n) / Σ_{n∈k} C(n)
//
// i.e. a toggle of net n costs E = c_k·n_k / (0.125·100 MHz·Σ_k C) · C(n).
// Block RAM: fs · BRAM36W · Σ_cells size · duty, duty = the fraction of time
// its read enable (ENARDEN or ENBWREN, the larger) is 1. Clock power is the
// vectorless one (the clock toggles every cycle whatever the data). A class
// with resources but no net of its own keeps the vectorless rate p.Toggle.
func ActivityFromNets(nl *synth.Netlist, nets []NetClass, r power.Resources, act NetActivity, p power.Params) (ActivityPower, error) {
	p, err := p.Normalized()
	if err != nil {
		return ActivityPower{}, err
	}
	fs := p.ClockHz / power.DefaultClockHz
	byClass := map[string]*ClassActivity{}
	for _, k := range ReportClasses {
		byClass[k] = &ClassActivity{Class: k}
	}
	wsum := map[string]float64{}
	for _, n := range nets {
		ca := byClass[n.Class]
		a := act.Rate(n.Bit)
		ca.Nets++
		ca.Loads += n.Fanout
		ca.Toggles += a
		c := n.CapF()
		ca.CapF += c
		wsum[n.Class] += a * c
	}
	var out ActivityPower
	for _, k := range ReportClasses {
		ca := byClass[k]
		if ca.Nets > 0 {
			ca.Rate = ca.Toggles / float64(ca.Nets)
		}
		if ca.CapF > 0 {
			ca.WeightedRate = wsum[k] / ca.CapF
		}
		n, coef := classCount(k, r, p.Coeff)
		ca.Count = n
		if n > 0 {
			rate := ca.WeightedRate
			if ca.CapF == 0 {
				rate = p.Toggle
			}
			ca.VectorlessW = fs * coef * float64(n) * p.Toggle / power.DefaultToggle
			ca.W = fs * coef * float64(n) * rate / power.DefaultToggle
			if ca.CapF > 0 {
				// c_k·n_k at 100 MHz and 12.5 % is ½·Σ_k C_eff·V²·0.125·100 MHz.
				ca.JPerToggleF = coef * float64(n) / (power.DefaultToggle * power.DefaultClockHz * ca.CapF)
			}
			out.LogicW += ca.W
		}
		out.Classes = append(out.Classes, *ca)
	}
	// Block RAM reads.
	var size, enabled float64
	for _, c := range nl.Cells {
		var s float64
		switch c.Type {
		case "RAMB36E1":
			s = 1
		case "RAMB18E1":
			s = 0.5
		default:
			continue
		}
		duty := 0.0
		for _, pin := range []string{"ENARDEN", "ENBWREN"} {
			pp := c.Pin(pin)
			if pp == nil || len(pp.Bits) != 1 {
				continue
			}
			switch b := pp.Bits[0]; {
			case b == synth.Bit1:
				duty = 1
			case b.IsNet():
				duty = max(duty, act.HighFrac(b))
			}
		}
		size += s
		enabled += s * duty
	}
	out.BRAMDuty = 1
	if size > 0 {
		out.BRAMDuty = enabled / size
	}
	// The vectorless BRAM36 count (RAMB36 + ½·RAMB18) scaled by the duty.
	out.BRAMW = fs * p.Coeff.BRAM36W * r.BRAM36 * out.BRAMDuty
	out.LogicW += out.BRAMW
	c := p.Coeff
	out.ClockW = fs * (c.ClockTreeW + c.ClockFFW*float64(r.FFs) + c.ClockDSPW*float64(r.DSP48E1) + c.ClockBRAMW*r.BRAM36)
	out.DynamicW = out.LogicW + out.ClockW
	return out, nil
}

// Charge sets the energy per classification of a run: DynamicW × cycles / f.
func (a *ActivityPower) Charge(cycles int, clockHz float64) {
	a.ChargedCycles = cycles
	a.EnergyJ = a.DynamicW * float64(cycles) / clockHz
}

// Class returns the class row named k.
func (a *ActivityPower) Class(k string) ClassActivity {
	for _, c := range a.Classes {
		if c.Class == k {
			return c
		}
	}
	return ClassActivity{Class: k}
}

func (a *ActivityPower) String() string {
	return fmt.Sprintf("%s: %d vectors, %d cycles, dynamic %s", a.Mode, a.Vectors, a.Cycles, power.FormatPower(a.DynamicW))
}
