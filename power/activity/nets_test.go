package activity

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

// tinyNetlist is a hand-written Yosys write_json netlist: two inputs a[1:0]
// and a clock, a LUT2 (net 10) feeding a flip-flop (net 11) and a MUXF7
// (net 12), a CARRY4 (O = nets 20…23, CO = 24…27), a DSP48E1 (P = net 30,
// 31 unused), a RAMB18E1 whose read enable is the flip-flop's output
// (DOADO = net 40), and the output y = {net 12, net 11}.
const tinyNetlist = `{"creator": "hand", "modules": {"t": {
 "ports": {"clk_i": {"direction": "input", "bits": [2]},
           "a": {"direction": "input", "bits": [3, 4]},
           "y": {"direction": "output", "bits": [11, 12]}},
 "cells": {
  "lut": {"type": "LUT2", "parameters": {"INIT": "0110"}, "port_directions": {"I0": "input", "I1": "input", "O": "output"},
          "connections": {"I0": [3], "I1": [4], "O": [10]}},
  "ff": {"type": "FDRE", "parameters": {"INIT": "x"}, "port_directions": {"C": "input", "CE": "input", "D": "input", "R": "input", "Q": "output"},
          "connections": {"C": [2], "CE": ["1"], "D": [10], "R": ["0"], "Q": [11]}},
  "mux": {"type": "MUXF7", "parameters": {}, "port_directions": {"I0": "input", "I1": "input", "S": "input", "O": "output"},
          "connections": {"I0": [10], "I1": [11], "S": [3], "O": [12]}},
  "carry": {"type": "CARRY4", "parameters": {}, "port_directions": {"CI": "input", "CYINIT": "input", "DI": "input", "S": "input", "O": "output", "CO": "output"},
          "connections": {"CI": ["0"], "CYINIT": ["0"], "DI": [10, 11, "0", "0"], "S": [10, 12, "0", "0"], "O": [20, 21, 22, 23], "CO": [24, 25, 26, 27]}},
  "dsp": {"type": "DSP48E1", "parameters": {"AREG": "00000000000000000000000000000001"}, "port_directions": {"A": "input", "B": "input", "CLK": "input", "P": "output"},
          "connections": {"A": [20, 21], "B": [10, 24], "CLK": [2], "P": [30, 31]}},
  "ram": {"type": "RAMB18E1", "parameters": {"RAM_MODE": "SDP"}, "port_directions": {"ADDRARDADDR": "input", "CLKARDCLK": "input", "ENARDEN": "input", "DOADO": "output"},
          "connections": {"ADDRARDADDR": [30], "CLKARDCLK": [2], "ENARDEN": [11], "DOADO": [40]}}
 },
 "netnames": {}
}}}`

func parseTiny(t *testing.T) *synth.Netlist {
	t.Helper()
	nl, err := synth.ParseNetlist(strings.NewReader(tinyNetlist), "t")
	if err != nil {
		t.Fatal(err)
	}
	return nl
}

func TestClassifyNets(t *testing.T) {
	got := ClassifyNets(parseTiny(t))
	want := []NetClass{
		{Bit: 2, Class: ClassClock, Fanout: 3},
		{Bit: 3, Class: ClassIO, Fanout: 2},
		{Bit: 4, Class: ClassIO, Fanout: 1},
		{Bit: 10, Class: ClassLUT, Driver: "LUT2", Fanout: 5},   // FF D, MUXF I0, CARRY4 DI and S, DSP B
		{Bit: 11, Class: ClassFF, Driver: "FDRE", Fanout: 4},    // MUXF I1, CARRY4 DI, RAMB ENARDEN, port y
		{Bit: 12, Class: ClassMUXF, Driver: "MUXF7", Fanout: 2}, // CARRY4 S, port y
		{Bit: 20, Class: ClassCARRY4, Driver: "CARRY4", Fanout: 1},
		{Bit: 21, Class: ClassCARRY4, Driver: "CARRY4", Fanout: 1},
		{Bit: 22, Class: ClassCARRY4, Driver: "CARRY4"},
		{Bit: 23, Class: ClassCARRY4, Driver: "CARRY4"},
		{Bit: 24, Class: ClassCARRY4, Driver: "CARRY4", Fanout: 1},
		{Bit: 25, Class: ClassCARRY4, Driver: "CARRY4"},
		{Bit: 26, Class: ClassCARRY4, Driver: "CARRY4"},
		{Bit: 27, Class: ClassCARRY4, Driver: "CARRY4"},
		{Bit: 30, Class: ClassDSP, Driver: "DSP48E1", Fanout: 1},
		{Bit: 31, Class: ClassDSP, Driver: "DSP48E1"},
		{Bit: 40, Class: ClassBRAM, Driver: "RAMB18E1"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ClassifyNets (-want +got):\n%s", d)
	}
	for _, c := range []struct{ typ, class string }{
		{"LUT6", ClassLUT}, {"INV", ClassLUT}, {"SRL16E", ClassLUT}, {"RAM64X1D", ClassLUT}, {"FDSE", ClassFF},
		{"MUXF8", ClassMUXF}, {"RAMB36E1", ClassBRAM}, {"GND", ClassOther}, {"VCC", ClassOther},
	} {
		if got := CellClass(c.typ); got != c.class {
			t.Errorf("CellClass(%s) = %s, want %s", c.typ, got, c.class)
		}
	}
}

// mapActivity is a per-net activity for tests.
type mapActivity struct {
	rate, high map[synth.Bit]float64
}

func (m mapActivity) Rate(b synth.Bit) float64     { return m.rate[b] }
func (m mapActivity) HighFrac(b synth.Bit) float64 { return m.high[b] }

// TestUniformActivityIdentity: with every net toggling at the vectorless
// rate and every block RAM enabled, the activity-based power is the
// vectorless power, at any clock and rate; other activities move it exactly
// as the per-net model says.
func TestUniformActivityIdentity(t *testing.T) {
	nl := parseTiny(t)
	nets := ClassifyNets(nl)
	// Resource counts unlike the netlist's cells on purpose (LC ≠ LUT cells):
	// the identity is per class, whatever the counts.
	r := power.Resources{LUTs: 7, LUTRAM: 2, FFs: 5, CARRY4: 3, MUXF: 2, DSP48E1: 2, BRAM36: 0.5, Source: "yosys"}
	d := power.Design{Shape: power.Shape{Arch: model.IntRVFL, K: 4, L: 2, Kappa: 1, Bits: 3}, N: 8, Options: plan.Options{Parallel: 1}}
	for _, c := range []struct {
		clockHz, toggle float64
	}{{100e6, 0.125}, {150e6, 0.125}, {100e6, 0.3}, {50e6, 0.05}} {
		p := power.Params{ClockHz: c.clockHz, Toggle: c.toggle}
		e, err := power.EvaluatePlan(d, r, 10, 8, p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ActivityFromNets(nl, nets, r, UniformActivity{Toggle: c.toggle, High: 1}, p)
		if err != nil {
			t.Fatal(err)
		}
		got := []float64{a.LogicW, a.ClockW, a.DynamicW}
		want := []float64{e.LogicW, e.ClockW, e.DynamicW}
		if d := cmp.Diff(want, got, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Abs(y) })); d != "" {
			t.Errorf("f=%g α=%g: logic, clock, dynamic (-vectorless +activity):\n%s", c.clockHz, c.toggle, d)
		}
	}

	// One LUT net at rate 1, nothing else: the LUT class's power is its
	// vectorless power × (1 · C(net 10) / Σ C(LUT nets)) / 0.125, and the
	// block RAM is read while its enable (net 11) is 1: a quarter of the time.
	act := mapActivity{rate: map[synth.Bit]float64{10: 1}, high: map[synth.Bit]float64{11: 0.25}}
	a, err := ActivityFromNets(nl, nets, r, act, power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	c := power.DefaultCoefficients
	lut := a.Class(ClassLUT)
	wantLUT := c.LUTW * 9 * 1 / power.DefaultToggle // the only LUT net: its share is 1
	if math.Abs(lut.W-wantLUT) > 1e-15 || lut.Nets != 1 || lut.WeightedRate != 1 {
		t.Errorf("LUT class %+v, want W %g", lut, wantLUT)
	}
	if ff := a.Class(ClassFF); ff.W != 0 || ff.VectorlessW == 0 {
		t.Errorf("FF class %+v, want W 0 (no toggles) and a vectorless power", ff)
	}
	if want := c.BRAM36W * 0.5 * 0.25; math.Abs(a.BRAMW-want) > 1e-15 || a.BRAMDuty != 0.25 {
		t.Errorf("block RAM %g W at duty %g, want %g at 0.25", a.BRAMW, a.BRAMDuty, want)
	}
	// CARRY4: one output of eight toggling; its share is its capacitance's.
	act = mapActivity{rate: map[synth.Bit]float64{20: 0.5}}
	a, err = ActivityFromNets(nl, nets, r, act, power.Params{})
	if err != nil {
		t.Fatal(err)
	}
	capAll := 8*DriverF[ClassCARRY4] + 3*LoadF
	want := c.CARRY4W * 3 * 0.5 * (DriverF[ClassCARRY4] + LoadF) / capAll / power.DefaultToggle
	if got := a.Class(ClassCARRY4).W; math.Abs(got-want) > 1e-18 {
		t.Errorf("CARRY4 class %g W, want %g", got, want)
	}
}
