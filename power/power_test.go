package power

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
)

func TestParseEnergy(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  string
	}{
		{"3.2uJ", 3.2e-6, ""},
		{"3.2µJ", 3.2e-6, ""},
		{"3.2μJ", 3.2e-6, ""},
		{"3.2 uJ", 3.2e-6, ""},
		{" 3200nJ ", 3.2e-6, ""},
		{"0.0032mJ", 3.2e-6, ""},
		{"3.2e-6J", 3.2e-6, ""},
		{"3.2E-6J", 3.2e-6, ""},
		{"1J", 1, ""},
		{"250pJ", 250e-12, ""},
		{"", 0, "empty energy"},
		{"3.2", 0, "no unit"},
		{"3.2u", 0, "no unit"},
		{"3.2uj", 0, "no unit"},
		{"uJ", 0, "want a number"},
		{"3.2MJ", 0, "is not a number"},
		{"3.2kJ", 0, "is not a number"},
		{"3.2 u J", 0, "want a number"},
		{"-1uJ", 0, "finite value > 0"},
		{"0J", 0, "finite value > 0"},
		{"NaNJ", 0, "finite value > 0"},
		{"infuJ", 0, "finite value > 0"},
		{"1e400J", 0, "is not a number"},
		{"x3uJ", 0, "is not a number"},
	}
	for _, tc := range tests {
		got, err := ParseEnergy(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseEnergy(%q) = %v, %v; want error mentioning %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("ParseEnergy(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatEnergy(t *testing.T) {
	for in, want := range map[float64]string{3.2e-6: "3.2 µJ", 25.9e-9: "25.9 nJ", 1.5: "1.5 J", 0.037: "37 mJ", 4e-13: "400 fJ"} {
		if got := FormatEnergy(in); got != want {
			t.Errorf("FormatEnergy(%v) = %q, want %q", in, got, want)
		}
	}
}

// randomModel is a valid model of the shape (weights from seed, zero readout
// codes), for plan.New.
func randomModel(d Design, seed uint64) *model.Model {
	return randmodel.New(randmodel.Shape{Arch: d.Arch, K: d.K, N: d.N, L: d.L, Kappa: d.Kappa, Bits: d.Bits},
		"t", seed, func(int) int32 { return 0 })
}

func randomDesign(rng *rand.Rand) Design {
	d := Design{Shape: Shape{Arch: model.IntRVFL, K: 1 + rng.IntN(70), L: 2 + rng.IntN(20)}, N: 1 + rng.IntN(3000)}
	if rng.IntN(2) == 0 {
		d.Arch = model.RVFL8
	} else {
		d.Kappa, d.Bits = 1+rng.IntN(20), quant.MinBits+rng.IntN(quant.MaxBits-quant.MinBits+1)
	}
	d.Parallel = 1 + rng.IntN(d.N)
	if rng.IntN(2) == 0 {
		d.Parallel = 1 + rng.IntN(min(d.N, 70))
	}
	return d
}

// TestStructureMatchesPlan pins the model-free structure (its hidden widths
// from plan.HiddenWidths, the rest by rtl/plan's rules) on 300 random designs
// in the full tier, the first 100 in the standard tier and the first 60 in
// the quick tier (each builds and validates a model of up to 3,000 neurons).
func TestStructureMatchesPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	designs := 100
	switch {
	case hwtest.Quick():
		designs = 60
	case hwtest.FullTier():
		designs = 300
	}
	for i := 0; i < designs; i++ {
		d := randomDesign(rng)
		d.HoldInput = i%3 == 0
		d.RegisterSums = i%4 == 1
		if i%5 == 2 {
			d.AdderLevelsPerStage, d.ArgmaxLevelsPerStage = 1+i%4, 1+i%3
		}
		if i%7 == 3 {
			d.ROMStyle = plan.ROMStyleBlock
		}
		pl, err := plan.New(randomModel(d, uint64(i)), d.Options)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if diff := cmp.Diff(d.Options.Canonical(), DesignOf(pl).Options); diff != "" {
			t.Fatalf("%s: DesignOf(plan) options (-design +plan):\n%s", d, diff)
		}
		st := newStructure(d)
		got := []int{st.Latency, st.II, st.G, st.GroupW, st.LW, st.IW, st.AW, st.CW, st.OW, st.HW, st.QW, st.PW, st.TW, st.ZW, st.DW,
			st.PcW, st.HiddenCut, st.LaneCut, st.ArgCut, st.Flight, st.WinW, st.WoutW}
		want := []int{pl.Latency, pl.II, pl.Groups, pl.GroupW, pl.LW, pl.IW, pl.AW, pl.CW, pl.OW, pl.HW, pl.QW, pl.PW, pl.TW, pl.ZW, pl.DW,
			pl.PcW, pl.HiddenTree.Stages, pl.LaneTree.Stages, pl.ArgmaxTree.Stages, pl.FlightStages, pl.ROM(plan.ROMWin).Width, pl.ROM(plan.ROMWout).Width}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("%s: field %d = %d, plan says %d\nstructure %+v", d, j, got[j], want[j], st)
			}
		}
		if lat, ii, err := Latency(d); err != nil || lat != pl.Latency || ii != pl.II {
			t.Fatalf("%s: Latency() = %d, %d, %v; plan %d, %d", d, lat, ii, err, pl.Latency, pl.II)
		}
	}
}

// TestMapROM pins the block-RAM/LUT decision and cell counts to what Yosys 0.23's
// memory_libmap chose for xc7 on single-port ROMs (measured with
// `debug memory_libmap`, see docs/energy-model.md).
func TestMapROM(t *testing.T) {
	tests := []struct {
		depth, width   int
		bram           bool
		ramb18, ramb36 int
	}{
		{32, 1088, false, 0, 0},
		{64, 128, false, 0, 0},
		{128, 36, false, 0, 0},
		{256, 36, true, 1, 0},
		{256, 40, false, 0, 0},
		{256, 64, false, 0, 0},
		{256, 72, true, 0, 1},
		{256, 128, false, 0, 0},
		{256, 1088, true, 31, 0},
		{300, 40, false, 0, 0},
		{300, 64, true, 0, 1},
		{512, 8, false, 0, 0},
		{512, 16, false, 0, 0},
		{512, 20, true, 1, 0},
		{512, 136, true, 0, 2},
		{640, 16, true, 1, 0},
		{640, 40, true, 3, 0},
		{640, 64, true, 0, 2},
		{1024, 8, false, 0, 0},
		{1024, 256, true, 15, 0},
		{2048, 8, true, 1, 0},
		{2048, 40, true, 5, 0},
		{4096, 1, false, 0, 0},
		{4096, 4, true, 1, 0},
		{4096, 64, true, 15, 0},
		{4096, 256, true, 0, 29},
	}
	for _, tc := range tests {
		m := mapROM(tc.depth, tc.width, false)
		if m.BRAM != tc.bram || m.RAMB18 != tc.ramb18 || m.RAMB36 != tc.ramb36 {
			t.Errorf("%d×%d: %+v; Yosys: bram %v, RAMB18 %d, RAMB36 %d", tc.depth, tc.width, m, tc.bram, tc.ramb18, tc.ramb36)
		}
	}
}

// TestMapROMBlock: with rom_style "block" (emit --rom-style block) every ROM
// is block RAM, in the cells Yosys 0.23 chooses. The cells were counted by
// synthesising one ROM of random contents with the attribute
// (synth_xilinx -family xc7 -run :map_ffs; stat) for each shape.
func TestMapROMBlock(t *testing.T) {
	tests := []struct {
		depth, width   int
		ramb18, ramb36 int
	}{
		{2, 8, 1, 0},
		{32, 320, 9, 0},
		{32, 1088, 31, 0},
		{64, 128, 0, 2},
		{64, 160, 5, 0},
		{64, 1088, 31, 0},
		{128, 36, 1, 0},
		{256, 40, 0, 1},
		{512, 16, 1, 0},
	}
	for _, tc := range tests {
		m := mapROM(tc.depth, tc.width, true)
		if !m.BRAM || m.RAMB18 != tc.ramb18 || m.RAMB36 != tc.ramb36 || m.LUTs != 0 || m.Columns != 0 {
			t.Errorf("%d×%d block: %+v; Yosys: RAMB18 %d, RAMB36 %d, no LUTs", tc.depth, tc.width, m, tc.ramb18, tc.ramb36)
		}
	}
}

func TestDistinctColumns(t *testing.T) {
	if got := distinctColumns(64, 128); got != 128 {
		t.Errorf("deep ROM: %v columns, want all 128", got)
	}
	// 4 words: 16 patterns, 14 non-constant; 1000 random columns hit almost all.
	if got := distinctColumns(4, 1000); math.Abs(got-14) > 0.01 {
		t.Errorf("4-word ROM: %v columns, want ≈ 14", got)
	}
	if got := distinctColumns(8, 8); got > 8 || got < 7 {
		t.Errorf("8×8: %v", got)
	}
}

func TestEvaluate(t *testing.T) {
	d := Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 8}}
	r := Resources{LUTs: 1800, FFs: 1060, CARRY4: 166, MUXF: 400}
	e, err := Evaluate(d, r, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Cycles != 69 || e.II != 64 || math.Abs(e.LatencyS-0.69e-6) > 1e-15 {
		t.Errorf("latency %d cycles, %v s, II %d", e.Cycles, e.LatencyS, e.II)
	}
	c := DefaultCoefficients
	wantLogic := c.LUTW*1800 + c.FFW*1060 + c.CARRY4W*166 + c.MUXFW*400
	wantClock := c.ClockTreeW + c.ClockFFW*1060
	if math.Abs(e.LogicW-wantLogic) > 1e-12 || math.Abs(e.ClockW-wantClock) > 1e-12 {
		t.Errorf("power logic %v clock %v, want %v %v", e.LogicW, e.ClockW, wantLogic, wantClock)
	}
	if math.Abs(e.DynamicJ-e.DynamicW*69/100e6) > 1e-18 || math.Abs(e.PLStaticJ-PLStaticW*69/100e6) > 1e-18 ||
		e.TotalJ != e.DynamicJ+e.PLStaticJ || e.BudgetedJ != e.DynamicJ || e.BudgetOn != BudgetDynamic {
		t.Errorf("energies %+v", e)
	}
	// Halving the toggle rate halves the data power, not the clock power; doubling
	// the clock halves the latency: the dynamic energy of the clock part stays,
	// the static energy halves.
	e2, _ := Evaluate(d, r, Params{Toggle: DefaultToggle / 2})
	if math.Abs(e2.LogicW-e.LogicW/2) > 1e-12 || e2.ClockW != e.ClockW {
		t.Errorf("toggle/2: logic %v clock %v", e2.LogicW, e2.ClockW)
	}
	e3, _ := Evaluate(d, r, Params{ClockHz: 2 * DefaultClockHz, BudgetOn: BudgetTotal})
	if math.Abs(e3.DynamicJ-e.DynamicJ) > 1e-15 || math.Abs(e3.PLStaticJ-e.PLStaticJ/2) > 1e-15 || e3.BudgetedJ != e3.TotalJ {
		t.Errorf("200 MHz: %+v", e3)
	}
	if _, err := Evaluate(d, r, Params{Toggle: 1.5}); err == nil {
		t.Error("toggle 1.5 accepted")
	}
	if _, err := Evaluate(Design{Shape: Shape{Arch: model.RVFL}, N: 1, Options: plan.Options{Parallel: 1}}, r, Params{}); err == nil {
		t.Error("float rvfl accepted")
	}
}

var sizeShapes = []Shape{
	{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5},
	{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5, EffBits: 3}, // a trained readout's effective width
	{Arch: model.RVFL8, K: 16, L: 4},
	{Arch: model.IntRVFL, K: 4, L: 2, Kappa: 1, Bits: 3},
	{Arch: model.IntRVFL, K: 60, L: 10, Kappa: 15, Bits: 8},
	{Arch: model.RVFL8, K: 3, L: 2},
	{Arch: model.RVFL8, K: 60, L: 26},
}

// sizeOperatingPoints are the options TestSizeMonotone runs every shape with:
// the defaults, another clock and toggle rate, and a restricted set of Ps.
var sizeOperatingPoints = []struct {
	name string
	o    SizeOptions
}{
	{"default", SizeOptions{MaxN: 1500}},
	// 125 MHz: the sizer proposes only designs whose analytic Fmax meets the
	// clock, and no rvfl8 reaches 150 MHz (size_fmax.go).
	{"125MHz_toggle25", SizeOptions{Params: Params{ClockHz: 125e6, Toggle: 0.25}, MaxN: 1500}},
	{"Ps_1_4_16", SizeOptions{MaxN: 1500, Ps: []int{16, 1, 4}}},
}

// TestSizeMonotone: a bigger budget never gives a smaller N, every answer fits
// its budget, and N+1 does not (unless N is the maximum), for several shapes of
// both networks, both budgeted energies and several operating points.
func TestSizeMonotone(t *testing.T) {
	for _, op := range sizeOperatingPoints {
		for _, on := range []Budgeted{BudgetDynamic, BudgetTotal} {
			for _, s := range sizeShapes {
				o := op.o
				o.BudgetOn = on
				name := strings.ReplaceAll(strings.TrimSuffix(Design{Shape: s, N: 1, Options: plan.Options{Parallel: 1}}.String(), " P=1"), " N=1", "")
				if s.EffBits != 0 {
					name += fmt.Sprintf(" eff=%d", s.EffBits)
				}
				t.Run(fmt.Sprintf("%s/%s/%s", op.name, on, name), func(t *testing.T) {
					checkSizeMonotone(t, s, o)
				})
			}
		}
	}
}

func checkSizeMonotone(t *testing.T, s Shape, o SizeOptions) {
	t.Helper()
	ps := DefaultPs
	if o.Ps != nil {
		ps = slices.Sorted(slices.Values(o.Ps))
	}
	clockMHz := o.ClockHz / 1e6
	if o.ClockHz == 0 {
		clockMHz = DefaultClockHz / 1e6
	}
	prevN, answers := 0, 0
	for b := 1e-10; b < 1e-5; b *= 1.07 {
		sz, err := Size(b, s, o)
		var imp *ImpossibleError
		if errors.As(err, &imp) {
			if prevN != 0 {
				t.Fatalf("budget %g impossible after N=%d at a smaller budget", b, prevN)
			}
			if !(imp.MinJ > b) {
				t.Fatalf("impossible budget %g but min energy %g", b, imp.MinJ)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		answers++
		if sz.N < prevN {
			t.Fatalf("budget %g gives N=%d, a smaller budget gave N=%d", b, sz.N, prevN)
		}
		if sz.Estimate.BudgetedJ > b || sz.Estimate.Design.N != sz.N || sz.Estimate.Design.P() != sz.P || !slices.Contains(ps, sz.P) {
			t.Fatalf("N=%d P=%d estimate %+v over budget %g (or P not a candidate)", sz.N, sz.P, sz.Estimate, b)
		}
		if sz.N < o.MaxN {
			// No candidate P makes N+1 fit.
			for _, p := range ps {
				if p > sz.N+1 {
					break
				}
				d := Design{Shape: s, N: sz.N + 1, Options: plan.Options{Parallel: p}}
				r := analytic(d)
				if ok, _ := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36); !ok {
					continue
				}
				if AnalyticFmaxMHz(d) < clockMHz {
					continue // too slow for the clock: not a candidate
				}
				if e, _ := EstimateAnalytic(d, o.Params); e.BudgetedJ <= b {
					t.Fatalf("budget %g: N=%d P=%d fits (%g) but the sizer said N=%d", b, sz.N+1, p, e.BudgetedJ, sz.N)
				}
			}
		}
		prevN = sz.N
	}
	// The budget range must exercise the sizer: some budgets give an answer
	// and the largest one a larger N than the smallest feasible one.
	if answers < 2 || prevN <= 1 {
		t.Errorf("only %d budgets in [1e-10, 1e-5] J had an answer (last N=%d): the range misses this shape", answers, prevN)
	}
}

func TestSizeImpossible(t *testing.T) {
	s := Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	_, err := Size(1e-12, s, SizeOptions{})
	var imp *ImpossibleError
	if !errors.As(err, &imp) || imp.MinJ <= 1e-12 || imp.N < 1 || imp.P < 1 || !strings.Contains(err.Error(), "smallest achievable") {
		t.Fatalf("error %v (%+v)", err, imp)
	}
	// The minimum is achievable: a budget equal to it succeeds.
	if sz, err := Size(imp.MinJ, s, SizeOptions{}); err != nil || sz.Estimate.BudgetedJ > imp.MinJ {
		t.Errorf("budget = min energy: %+v, %v", sz, err)
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := Size(bad, s, SizeOptions{}); err == nil {
			t.Errorf("budget %v accepted", bad)
		}
	}
	if _, err := Size(1e-6, Shape{Arch: model.IntRVFL, K: 16, L: 4}, SizeOptions{}); err == nil || !strings.Contains(err.Error(), "κ") {
		t.Errorf("κ=0 accepted: %v", err)
	}
}

func TestSizeRespectsDevice(t *testing.T) {
	// rvfl8 needs P·(K+L) DSP48E1s; with K=60, L=26 one lane needs 86: P ≤ 2.
	sz, err := Size(1e-3, Shape{Arch: model.RVFL8, K: 60, L: 26}, SizeOptions{MaxN: 512})
	if err != nil {
		t.Fatal(err)
	}
	if sz.Estimate.Resources.DSP48E1 > synth.XC7Z020.DSPs || sz.P > 2 {
		t.Errorf("sizer chose P=%d with %d DSP48E1", sz.P, sz.Estimate.Resources.DSP48E1)
	}
}

// TestSizeFast: the budget study calls Size for ~120 datasets × several κ.
// TestSizeNewShapes sizes many new shapes (each builds its tables); the
// time it takes is BenchmarkSizeNewShape's business, not a test's.
func TestSizeNewShapes(t *testing.T) {
	for k := 2; k <= 40; k += 6 {
		for kappa := 1; kappa <= 15; kappa *= 2 {
			s := Shape{Arch: model.IntRVFL, K: k, L: 3, Kappa: kappa, Bits: 5}
			sz, err := Size(3.2e-6, s, SizeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if sz.N < 1 || sz.Estimate.BudgetedJ > 3.2e-6 {
				t.Errorf("%+v: N=%d with %g J budgeted, want N ≥ 1 within 3.2 µJ", s, sz.N, sz.Estimate.BudgetedJ)
			}
		}
	}
}

// TestSizeTablePrefix: one table serves every MaxN of a shape (a smaller
// MaxN reads the prefix of a longer table, a larger one extends it); the
// answers equal those of a table built for that MaxN alone.
func TestSizeTablePrefix(t *testing.T) {
	s := Shape{Arch: model.IntRVFL, K: 9, L: 5, Kappa: 7, Bits: 5}
	budgets := []float64{2e-8, 1e-7, 5e-7, 3.2e-6}
	maxNs := []int{300, 1500, 40}
	alone := map[[2]float64]Sizing{}
	for _, maxN := range maxNs {
		for _, b := range budgets {
			tables.Clear()
			sz, err := Size(b, s, SizeOptions{MaxN: maxN})
			if err != nil {
				t.Fatal(err)
			}
			alone[[2]float64{float64(maxN), b}] = sz
		}
	}
	for _, order := range [][]int{{1500, 300, 40}, {40, 300, 1500}, {300, 40, 1500}} {
		tables.Clear()
		for _, maxN := range order {
			for _, b := range budgets {
				sz, err := Size(b, s, SizeOptions{MaxN: maxN})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(alone[[2]float64{float64(maxN), b}], sz); diff != "" {
					t.Errorf("order %v, MaxN %d, budget %g J: shared table differs (-alone +shared):\n%s", order, maxN, b, diff)
				}
			}
		}
	}
}

func BenchmarkSizeNewShape(b *testing.B) {
	for i := 0; i < b.N; i++ {
		tables.Clear()
		if _, err := Size(3.2e-6, Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, SizeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSizeCached(b *testing.B) {
	s := Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	for i := 0; i < b.N; i++ {
		if _, err := Size(float64(1+i%100)*1e-8, s, SizeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAnalyticBasics(t *testing.T) {
	d := Design{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4}, N: 512, Options: plan.Options{Parallel: 8}}
	r, err := Analytic(d)
	if err != nil {
		t.Fatal(err)
	}
	if r.DSP48E1 != 8*(16+4) || r.Source != "analytic" || r.BRAM36 != 0 {
		t.Errorf("rvfl8 median P=8: %+v", r)
	}
	d1 := d
	d1.Parallel = 1
	if r1, _ := Analytic(d1); r1.BRAM36 != 2.5 || r1.DSP48E1 != 20 {
		t.Errorf("rvfl8 median P=1: %+v", r1)
	}
	// The intRVFL's readout products go to DSPs only from 9-bit products.
	for _, tc := range []struct {
		kappa, bits, dsp int
	}{{3, 5, 0}, {3, 6, 8 * 4}, {15, 4, 8 * 4}, {7, 8, 8 * 4}, {1, 8, 8 * 4}} {
		di := Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: tc.kappa, Bits: tc.bits}, N: 512, Options: plan.Options{Parallel: 8}}
		if r, _ := Analytic(di); r.DSP48E1 != tc.dsp {
			t.Errorf("κ=%d b=%d: %d DSP48E1, want %d", tc.kappa, tc.bits, r.DSP48E1, tc.dsp)
		}
	}
	// --register-sums: L·TW flip-flops for the LUT products' P·L·PW (median
	// intRVFL P = 8: 4·11 for 4·8·8), L·TW more next to DSP48E1 products.
	for _, tc := range []struct {
		d      Design
		diffFF int
	}{
		{Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 8}}, 4*11 - 4*8*8},
		{Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 512, Options: plan.Options{Parallel: 1}}, 0},
		{d, 4 * newStructure(d).TW},
	} {
		base, err := Analytic(tc.d)
		if err != nil {
			t.Fatal(err)
		}
		s := tc.d
		s.RegisterSums = true
		sums, err := Analytic(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := sums.FFs - base.FFs; got != tc.diffFF || sums.LUTs != base.LUTs {
			t.Errorf("%s --register-sums: %+d FF (want %+d), LUTs %d vs %d", tc.d, got, tc.diffFF, sums.LUTs, base.LUTs)
		}
	}
	comps, err := Breakdown(d)
	if err != nil || len(comps) < 5 {
		t.Fatalf("breakdown %v %v", comps, err)
	}
	var lut float64
	for _, c := range comps {
		lut += c.LUT
	}
	if int(math.Round(lut)) != r.LUTs {
		t.Errorf("breakdown sums to %v LUTs, Analytic says %d", lut, r.LUTs)
	}
}
