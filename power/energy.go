package power

import (
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/board"
)

// Defaults of Params (DESIGN.md, "Hardware"; UG440).
const (
	// DefaultClockHz is the ZedBoard PL clock (the 100 MHz oscillator on Y9).
	DefaultClockHz = board.ClockHz
	// DefaultToggle is the average fraction of clock cycles in which a signal
	// makes a transition: 12.5 %, the default of the Xilinx Power Estimator
	// (UG440, "Using the Logic Sheet": "based on an average extracted from a
	// suite of customer designs") and of Vivado's vectorless report_power.
	DefaultToggle = 0.125
	// DeviceStaticW is the static power of the whole xc7z020 in a routed Vivado
	// report (DESIGN.md): PS and PL rails, typical process, 25 °C ambient.
	DeviceStaticW = 0.114
	// PLStaticW is the part of DeviceStaticW on the PL rails (VCCINT, VCCAUX,
	// VCCBRAM of the programmable logic): the leakage that exists because the
	// FPGA fabric is powered, whatever it computes.
	PLStaticW = 0.037
)

// Coefficients are the per-resource dynamic power figures of the model, each at
// the reference point 100 MHz and 12.5 % toggle rate (for clock terms: 100 MHz,
// the clock toggles every cycle). Power scales linearly with the clock
// frequency; the data terms also linearly with the toggle rate. The values and
// their sources are in docs/energy-model.md and in DefaultCoefficients.
type Coefficients struct {
	LUTW     float64 `json:"lut_w"`      // one LUT6 site as logic, with its output net (fanout 3)
	FFW      float64 `json:"ff_w"`       // one flip-flop's data output net (fanout 3)
	CARRY4W  float64 `json:"carry4_w"`   // one CARRY4 (4 bits of carry chain)
	MUXFW    float64 `json:"muxf_w"`     // one MUXF7 or MUXF8
	DSPW     float64 `json:"dsp_w"`      // one DSP48E1, data path (multiplier, ALU, cascade)
	BRAM36W  float64 `json:"bram36_w"`   // one RAMB36 read every cycle (RAMB18: half)
	ClockFFW float64 `json:"clock_ff_w"` // clock power per flip-flop (leaf clock and pin)
	// ClockDSPW and ClockBRAMW are the clock power of a DSP48E1's and a RAMB36's
	// internal registers.
	ClockDSPW  float64 `json:"clock_dsp_w"`
	ClockBRAMW float64 `json:"clock_bram_w"`
	// ClockTreeW is the global clock buffer and spine of the one clock domain.
	ClockTreeW float64 `json:"clock_tree_w"`
}

// DefaultCoefficients are the model's calibrated assumptions for the
// xc7z020-1 at VCCINT = 1.0 V (each at 100 MHz, 12.5 % toggle). Xilinx
// publishes the method of its estimator (UG440: count × clock × toggle rate ×
// a per-resource capacitance, routing folded into logic by fanout/complexity)
// but no per-element numbers, and no published per-LUT/FF/DSP/BRAM table for
// 7-series devices was found (docs/energy-model.md lists what was searched).
// So each number is an engineering estimate from switched capacitance,
// P = ½·C·V²·(transitions per second) with an assumed effective C per element:
// a calibrated assumption, not a measurement. docs/energy-model.md states the
// derivation of each number, its plausible range and what would change it;
// replacing them with Vivado report_power figures is the intended refinement.
var DefaultCoefficients = Coefficients{
	// LUT + output net: C ≈ 0.25 pF (LUT internal ≈ 40 fF, a fanout-3 net of
	// ≈ 70 fF per load in 28 nm interconnect), 0.125·100 MHz·½·0.25 pF·1 V².
	LUTW: 1.6e-6,
	// FF output net (same fanout model, no LUT internals): C ≈ 0.2 pF.
	FFW: 1.25e-6,
	// CARRY4: four carry muxes and XORs, short dedicated wires, C ≈ 0.1 pF.
	CARRY4W: 0.6e-6,
	// MUXF7/F8: a mux inside the slice with a short output, C ≈ 50 fF.
	MUXFW: 0.3e-6,
	// DSP48E1 data path: ≈ 2.4 pJ per cycle at 12.5 % toggle for a 25×18
	// multiply-add with its pipeline (hard-block figures of 28 nm are ~10× below
	// the LUT equivalent), 0.24 mW at 100 MHz.
	DSPW: 0.24e-3,
	// RAMB36 read of up to 72 bits per cycle: ≈ 9 pJ per access (28 nm SRAM
	// macro with its bit lines, sense amplifiers and output latches), 0.9 mW at
	// 100 MHz with the enable always on.
	BRAM36W: 0.9e-3,
	// Clock per FF: ≈ 8 fF switched every cycle (clock pin + the FF's share of
	// the leaf clock wire of its slice), C·V²·f = 0.8 µW at 100 MHz.
	ClockFFW: 0.8e-6,
	// DSP48E1 and RAMB36 clock: the pipeline registers inside the hard block
	// (≈ 100 register bits of a DSP, the BRAM's input and output latches).
	ClockDSPW:  40e-6,
	ClockBRAMW: 60e-6,
	// BUFG + vertical spine + horizontal row of one clock region at 100 MHz.
	ClockTreeW: 1.5e-3,
}

// Params are the operating point of an estimate.
type Params struct {
	ClockHz float64      // PL clock (0 means DefaultClockHz)
	Toggle  float64      // average toggle rate of data signals in (0, 1] (0 means DefaultToggle)
	Coeff   Coefficients // zero value means DefaultCoefficients
	// BudgetOn selects the energy a budget constrains ("" means BudgetDynamic).
	BudgetOn Budgeted
}

// Budgeted names the energy that a budget constrains.
type Budgeted string

const (
	// BudgetDynamic budgets the dynamic energy per classification (default):
	// the energy the network's switching costs, the quantity that the paper's
	// 11×-at-2.5× ratio implies its figure measures (docs/energy-model.md).
	BudgetDynamic Budgeted = "dynamic"
	// BudgetTotal budgets dynamic + PL static energy per classification.
	BudgetTotal Budgeted = "total"
)

// ParseBudgeted parses "dynamic" or "total".
func ParseBudgeted(s string) (Budgeted, error) {
	switch Budgeted(s) {
	case "", BudgetDynamic:
		return BudgetDynamic, nil
	case BudgetTotal:
		return BudgetTotal, nil
	}
	return "", fmt.Errorf("power: budget on %q, want %s or %s", s, BudgetDynamic, BudgetTotal)
}

// Normalized returns p with its defaults filled in, or an error for a value
// out of range.
func (p Params) Normalized() (Params, error) { return p.norm() }

func (p Params) norm() (Params, error) {
	if p.ClockHz == 0 {
		p.ClockHz = DefaultClockHz
	}
	if p.Toggle == 0 {
		p.Toggle = DefaultToggle
	}
	if p.Coeff == (Coefficients{}) {
		p.Coeff = DefaultCoefficients
	}
	if p.BudgetOn == "" {
		p.BudgetOn = BudgetDynamic
	}
	if !(p.ClockHz > 0) || math.IsInf(p.ClockHz, 0) {
		return p, fmt.Errorf("power: clock %v Hz, want > 0", p.ClockHz)
	}
	if !(p.Toggle > 0 && p.Toggle <= 1) {
		return p, fmt.Errorf("power: toggle rate %v outside (0, 1]", p.Toggle)
	}
	if _, err := ParseBudgeted(string(p.BudgetOn)); err != nil {
		return p, err
	}
	return p, nil
}

// Resources are the FPGA resources the power model charges.
type Resources struct {
	LUTs    int     `json:"luts"` // LUT6 sites (Yosys estimated_num_lc)
	FFs     int     `json:"ffs"`
	CARRY4  int     `json:"carry4"`
	MUXF    int     `json:"muxf"` // MUXF7 + MUXF8
	DSP48E1 int     `json:"dsp48e1"`
	BRAM36  float64 `json:"bram36"` // RAMB36 + ½·RAMB18
	// LUTRAM counts LUTs used as shift registers or distributed RAM (charged as LUTs).
	LUTRAM int `json:"lutram"`
	// Source says where the counts come from: "yosys" or "analytic".
	Source string `json:"source"`
}

// Estimate is the power and energy of one design at one operating point.
type Estimate struct {
	Design    Design    `json:"design"`
	Resources Resources `json:"resources"`
	ClockHz   float64   `json:"clock_hz"`
	Toggle    float64   `json:"toggle"`

	Cycles   int     `json:"cycles"`    // latency of one classification (empty pipeline)
	II       int     `json:"ii"`        // cycles between classifications at full throughput
	LatencyS float64 `json:"latency_s"` // Cycles / f

	// Power in watts. DynamicW = LogicW + ClockW.
	LogicW        float64 `json:"logic_w"` // data toggling: LUT, FF, carry, mux, DSP, BRAM
	ClockW        float64 `json:"clock_w"` // clock tree and clock pins
	DynamicW      float64 `json:"dynamic_w"`
	PLStaticW     float64 `json:"pl_static_w"`
	DeviceStaticW float64 `json:"device_static_w"`

	// Energy per classification in joules: power × Cycles / f.
	DynamicJ  float64 `json:"dynamic_j"`
	PLStaticJ float64 `json:"pl_static_j"`
	TotalJ    float64 `json:"total_j"` // DynamicJ + PLStaticJ

	// BudgetOn names the energy a budget constrains; BudgetedJ is its value.
	BudgetOn  Budgeted `json:"budget_on"`
	BudgetedJ float64  `json:"budgeted_j"`
}

// Power returns the dynamic power split (logic, clock) of resources r.
func (p Params) power(r Resources) (logicW, clockW float64) {
	c := p.Coeff
	fs := p.ClockHz / DefaultClockHz // frequency scale
	ts := p.Toggle / DefaultToggle   // toggle scale
	logicW = fs * ts * (c.LUTW*float64(r.LUTs+r.LUTRAM) + c.FFW*float64(r.FFs) + c.CARRY4W*float64(r.CARRY4) +
		c.MUXFW*float64(r.MUXF) + c.DSPW*float64(r.DSP48E1))
	// Block RAM: the read energy is paid on every enabled cycle, whatever the
	// data toggle rate; the ROMs are read every cycle while a vector is in flight.
	logicW += fs * c.BRAM36W * r.BRAM36
	clockW = fs * (c.ClockTreeW + c.ClockFFW*float64(r.FFs) + c.ClockDSPW*float64(r.DSP48E1) + c.ClockBRAMW*r.BRAM36)
	return logicW, clockW
}

// Evaluate estimates power and energy per classification of design d with
// resources r (from Yosys or the analytic model).
func Evaluate(d Design, r Resources, p Params) (Estimate, error) {
	p, err := p.norm()
	if err != nil {
		return Estimate{}, err
	}
	lat, ii, err := Latency(d)
	if err != nil {
		return Estimate{}, err
	}
	return evaluate(d, r, lat, ii, p), nil
}

func evaluate(d Design, r Resources, lat, ii int, p Params) Estimate {
	e := Estimate{Design: d, Resources: r, ClockHz: p.ClockHz, Toggle: p.Toggle, Cycles: lat, II: ii,
		PLStaticW: PLStaticW, DeviceStaticW: DeviceStaticW, BudgetOn: p.BudgetOn}
	e.LatencyS = float64(lat) / p.ClockHz
	e.LogicW, e.ClockW = p.power(r)
	e.DynamicW = e.LogicW + e.ClockW
	e.DynamicJ = e.DynamicW * e.LatencyS
	e.PLStaticJ = e.PLStaticW * e.LatencyS
	e.TotalJ = e.DynamicJ + e.PLStaticJ
	e.BudgetedJ = e.DynamicJ
	if p.BudgetOn == BudgetTotal {
		e.BudgetedJ = e.TotalJ
	}
	return e
}

// EvaluatePlan is Evaluate with the latency and II given (e.g. the exact
// values of an emitted design's plan) instead of derived from the shape.
func EvaluatePlan(d Design, r Resources, latency, ii int, p Params) (Estimate, error) {
	p, err := p.norm()
	if err != nil {
		return Estimate{}, err
	}
	if latency < 1 || ii < 1 {
		return Estimate{}, fmt.Errorf("power: latency %d, II %d cycles, want ≥ 1", latency, ii)
	}
	return evaluate(d, r, latency, ii, p), nil
}

// EstimateAnalytic evaluates design d with the analytic resource model.
func EstimateAnalytic(d Design, p Params) (Estimate, error) {
	r, err := Analytic(d)
	if err != nil {
		return Estimate{}, err
	}
	return Evaluate(d, r, p)
}
