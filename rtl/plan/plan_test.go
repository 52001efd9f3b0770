package plan

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
)

func mustPlan(t *testing.T, s testmodel.Shape, o Options) *Plan {
	t.Helper()
	pl, err := New(testmodel.Random(s, "Iris v2", 1), o)
	if err != nil {
		t.Fatalf("%s %+v: %v", s, o, err)
	}
	return pl
}

// TestWorkedExample pins the latency of the paper's median network (K=16, N=512,
// L=4, κ=3, 5-bit readout) at P=1 and P=8 for both networks, and the intRVFL at
// P=16 and P=32 (the wide rule).
func TestWorkedExample(t *testing.T) {
	intShape := testmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}
	r8Shape := testmodel.Shape{Arch: model.RVFL8, K: 16, N: 512, L: 4}
	type summary struct {
		G, F, TH, TL, TA, Latency, II, AxisLatency int
		LW, IW, AW, CW, OW                         int
	}
	tests := []struct {
		name  string
		shape testmodel.Shape
		p     int
		want  summary
	}{
		// intrvfl: F = A + popcount(depth 4: 0 registers) + H + MAC + lane tree.
		{"intrvfl P=1", intShape, 1, summary{G: 512, F: 3, TH: 0, TL: 0, TA: 0, Latency: 517, II: 512, AxisLatency: 517,
			LW: 10, IW: 160, AW: 16, CW: 2, OW: 66}},
		{"intrvfl P=8", intShape, 8, summary{G: 64, F: 3, TH: 0, TL: 0, TA: 0, Latency: 69, II: 64, AxisLatency: 69,
			LW: 10, IW: 160, AW: 16, CW: 2, OW: 66}},
		// From P = WideP = 16 on, a register every 3 adder levels (DefaultAdderLevels):
		// popcount depth 4 → 1 register, lane tree depth 4 (P=16) or 5 (P=32) → 1.
		// With 4 levels these were 37 and 22 cycles, at an estimated Fmax of 115
		// and 102 MHz (docs/timing.md, "Pipeline rule").
		{"intrvfl P=16", intShape, 16, summary{G: 32, F: 5, TH: 1, TL: 1, TA: 0, Latency: 39, II: 32, AxisLatency: 39,
			LW: 10, IW: 160, AW: 16, CW: 2, OW: 66}},
		{"intrvfl P=32", intShape, 32, summary{G: 16, F: 5, TH: 1, TL: 1, TA: 0, Latency: 23, II: 16, AxisLatency: 23,
			LW: 10, IW: 160, AW: 16, CW: 2, OW: 66}},
		// rvfl8: F = A + products + pre-activation tree (depth 5: 1 register) + H + MAC + lane tree.
		{"rvfl8 P=1", r8Shape, 1, summary{G: 512, F: 5, TH: 1, TL: 0, TA: 0, Latency: 519, II: 512, AxisLatency: 519,
			LW: 8, IW: 128, AW: 25, CW: 2, OW: 102}},
		{"rvfl8 P=8", r8Shape, 8, summary{G: 64, F: 5, TH: 1, TL: 0, TA: 0, Latency: 71, II: 64, AxisLatency: 71,
			LW: 8, IW: 128, AW: 25, CW: 2, OW: 102}},
	}
	for _, tc := range tests {
		pl := mustPlan(t, tc.shape, Options{Parallel: tc.p})
		got := summary{G: pl.Groups, F: pl.FlightStages, TH: pl.HiddenTree.Stages, TL: pl.LaneTree.Stages,
			TA: pl.ArgmaxTree.Stages, Latency: pl.Latency, II: pl.II, AxisLatency: pl.AxisLatency,
			LW: pl.LW, IW: pl.IW, AW: pl.AW, CW: pl.CW, OW: pl.OW}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s\n%s", tc.name, diff, pl.LatencyFormula)
		}
	}
}

func TestWidths(t *testing.T) {
	tests := []struct {
		shape                               testmodel.Shape
		p                                   int
		g, idle, lw, aw, cw, hw, qw, tw, zw int
	}{
		// N=1, K=1, L=2, κ=1, 2 bits: B=1, N·κ·B = 1 → AW=2.
		{testmodel.Shape{Arch: model.IntRVFL, K: 1, N: 1, L: 2, Kappa: 1, Bits: 2}, 1, 1, 0, 1, 2, 1, 2, 2, 4, 0},
		// κ=15 > K=3 clips at K: HW holds ±3.
		{testmodel.Shape{Arch: model.IntRVFL, K: 3, N: 7, L: 3, Kappa: 15, Bits: 8}, 3, 3, 2, 3, 15, 2, 3, 8, 13, 0},
		// P = N = 513: 513·15·15 = 115425 → AW = 18.
		{testmodel.Shape{Arch: model.IntRVFL, K: 65, N: 513, L: 10, Kappa: 15, Bits: 5}, 513, 1, 0, 10, 18, 4, 5, 5, 20, 0},
		// rvfl8: AW holds N·255·127 (32385 → 16 bits); ZW holds K·32640 + 4096.
		{testmodel.Shape{Arch: model.RVFL8, K: 1, N: 1, L: 2}, 1, 1, 0, 8, 16, 1, 9, 8, 17, 17},
		{testmodel.Shape{Arch: model.RVFL8, K: 65, N: 7, L: 10}, 2, 4, 1, 8, 19, 4, 9, 8, 18, 23},
	}
	for _, tc := range tests {
		pl := mustPlan(t, tc.shape, Options{Parallel: tc.p})
		got := []int{pl.Groups, pl.IdleLanes, pl.LW, pl.AW, pl.CW, pl.HW, pl.QW, pl.TW, pl.ZW}
		want := []int{tc.g, tc.idle, tc.lw, tc.aw, tc.cw, tc.hw, tc.qw, tc.tw, tc.zw}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s P=%d: [G idle LW AW CW HW QW TW ZW] (-want +got):\n%s", tc.shape, tc.p, diff)
		}
		if pl.IW != pl.K*pl.LW || pl.OW != pl.L*pl.AW+pl.CW {
			t.Errorf("%s: IW=%d OW=%d", tc.shape, pl.IW, pl.OW)
		}
		if max := int64(1)<<(pl.AW-1) - 1; max < pl.ScoreBound || max>>1 >= pl.ScoreBound && pl.AW > 2 {
			t.Errorf("%s: AW=%d is not the smallest width for %d", tc.shape, pl.AW, pl.ScoreBound)
		}
	}
}

func TestDefaultAdderLevels(t *testing.T) {
	tests := []struct{ p, want int }{{1, 4}, {8, 4}, {15, 4}, {16, 3}, {32, 3}, {513, 3}}
	for _, tc := range tests {
		if got := DefaultAdderLevels(tc.p); got != tc.want {
			t.Errorf("DefaultAdderLevels(%d) = %d, want %d", tc.p, got, tc.want)
		}
	}
	// Options of 0 take the default; an explicit value overrides it.
	s := testmodel.Shape{Arch: model.IntRVFL, K: 16, N: 64, L: 4, Kappa: 3, Bits: 5}
	for _, tc := range []struct{ p, levels, want int }{{8, 0, 4}, {16, 0, 3}, {16, 4, 4}, {8, 2, 2}} {
		pl := mustPlan(t, s, Options{Parallel: tc.p, AdderLevelsPerStage: tc.levels})
		if pl.AdderLevelsPerStage != tc.want {
			t.Errorf("P=%d, levels %d: plan has %d, want %d", tc.p, tc.levels, pl.AdderLevelsPerStage, tc.want)
		}
	}
}

func TestCuts(t *testing.T) {
	tests := []struct{ depth, r, want int }{
		{0, 4, 0}, {1, 4, 0}, {4, 4, 0}, {5, 4, 1}, {8, 4, 1}, {9, 4, 2}, {3, 1, 2}, {2, 2, 0}, {3, 2, 1},
	}
	for _, tc := range tests {
		if got := Cuts(tc.depth, tc.r); got != tc.want {
			t.Errorf("Cuts(%d, %d) = %d, want %d", tc.depth, tc.r, got, tc.want)
		}
	}
}

func TestPipelineOptions(t *testing.T) {
	s := testmodel.Shape{Arch: model.IntRVFL, K: 65, N: 64, L: 10, Kappa: 3, Bits: 5}
	// One level per stage: popcount depth 7 → 6 registers, lane tree depth 6 → 5,
	// argmax depth 4 → 3.
	pl := mustPlan(t, s, Options{Parallel: 64, AdderLevelsPerStage: 1, ArgmaxLevelsPerStage: 1})
	if pl.HiddenTree.Stages != 6 || pl.LaneTree.Stages != 5 || pl.ArgmaxTree.Stages != 3 {
		t.Errorf("stages %d %d %d", pl.HiddenTree.Stages, pl.LaneTree.Stages, pl.ArgmaxTree.Stages)
	}
	if want := 1 + 3 + 6 + 5 + 3 + 2; pl.Latency != want {
		t.Errorf("latency %d, want %d (%s)", pl.Latency, want, pl.LatencyFormula)
	}
}

func TestNewErrors(t *testing.T) {
	intShape := testmodel.Shape{Arch: model.IntRVFL, K: 2, N: 5, L: 2, Kappa: 1, Bits: 3}
	noReadout := testmodel.Random(intShape, "x", 1)
	noReadout.Readout = nil
	float := testmodel.Random(intShape, "x", 1)
	float.Net, float.Readout = model.NewFloatNet(2, 5, 1), nil
	tests := []struct {
		name string
		m    *model.Model
		o    Options
		want string
	}{
		{"nil", nil, Options{}, "nil model"},
		{"no readout", noReadout, Options{}, "no integer readout"},
		{"float rvfl", float, Options{}, "has no RTL"},
		{"P > N", testmodel.Random(intShape, "x", 1), Options{Parallel: 6}, "outside [1, N=5]"},
		{"P < 0", testmodel.Random(intShape, "x", 1), Options{Parallel: -1}, "outside"},
		{"levels", testmodel.Random(intShape, "x", 1), Options{AdderLevelsPerStage: -2}, "levels per pipeline stage"},
		{"ROM style", testmodel.Random(intShape, "x", 1), Options{ROMStyle: "distributed"}, `ROM style "distributed", want one of auto, block`},
	}
	for _, tc := range tests {
		_, err := New(tc.m, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	pl := mustPlan(t, testmodel.Shape{Arch: model.RVFL8, K: 4, N: 9, L: 3}, Options{Parallel: 2})
	b, err := pl.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*pl, back); diff != "" {
		t.Errorf("design.json round trip (-want +got):\n%s", diff)
	}
	again, _ := pl.JSON()
	if string(again) != string(b) {
		t.Error("design.json is not deterministic")
	}
	if pl.Prefix != "iris_v2" || pl.ROM(ROMLUT).Instances != 2 || pl.ROM(ROMWin).Width != 2*5*8 {
		t.Errorf("prefix %q, ROMs %+v", pl.Prefix, pl.ROMs)
	}
}

// TestWinGenerator checks the plan of a design with the on-chip W_in
// generator against the same model with its rows in a ROM: no "win" ROM, a
// window register of M = max(31, K+P−1) bits in place of the ROM's read
// register, the P recurrence XORs, the seed window x_0 … x_{M−1}, and
// otherwise the same plan.
func TestWinGenerator(t *testing.T) {
	for _, tc := range []struct{ k, n, p int }{{16, 512, 1}, {16, 512, 8}, {16, 97, 40}, {2, 3, 2}, {1, 20, 4}, {40, 9, 9}} {
		s := testmodel.Shape{Arch: model.IntRVFL, K: tc.k, N: tc.n, L: 3, Kappa: 3, Bits: 5, Win: model.WinPRBS31}
		gen := mustPlan(t, s, Options{Parallel: tc.p})
		s.Win = model.WinStored
		stored := mustPlan(t, s, Options{Parallel: tc.p})
		m := max(31, tc.k+tc.p-1)
		if gen.HasROM(ROMWin) || !stored.HasROM(ROMWin) {
			t.Errorf("%v: W_in ROM in the generator plan %v, in the stored plan %v", tc, gen.HasROM(ROMWin), stored.HasROM(ROMWin))
		}
		win := stored.ROM(ROMWin)
		want := *stored
		want.ROMs = stored.ROMs[1:]
		want.Resources.ROMBits -= win.Depth * win.Width
		want.Resources.RegisterBits += m - win.Width
		want.Resources.GeneratorXORs = tc.p
		want.Stages = gen.Stages // the stage A text names the generator
		ps := model.PRBSSeed(1)
		bits := model.PRBSBits(ps, m)
		var hex []byte
		for d := (m+3)/4 - 1; d >= 0; d-- {
			hex = append(hex, "0123456789abcdef"[model.PRBSWindow(bits, 4*d, min(4, m-4*d))])
		}
		want.WinGenerator, want.WinPRBSSeed, want.WinWindow, want.WinSeedWindow = model.WinPRBS31, ps, m, string(hex)
		if diff := cmp.Diff(&want, gen); diff != "" {
			t.Errorf("%v: generator plan (-want +got):\n%s", tc, diff)
		}
	}
}

// TestROMStyle: --rom-style block marks the W_in and readout ROMs (not the
// rvfl8's sigmoid table, not a reloadable readout RAM) and records the style;
// auto is the default and leaves design.json as it was.
func TestROMStyle(t *testing.T) {
	r8 := testmodel.Shape{Arch: model.RVFL8, K: 4, N: 9, L: 3}
	in := testmodel.Shape{Arch: model.IntRVFL, K: 4, N: 9, L: 3, Kappa: 3, Bits: 5}
	blocks := func(pl *Plan) map[string]bool {
		m := map[string]bool{}
		for _, r := range pl.ROMs {
			m[r.Name] = r.Block
		}
		return m
	}
	tests := []struct {
		name  string
		s     testmodel.Shape
		o     Options
		style string
		want  map[string]bool
	}{
		{"rvfl8 default", r8, Options{Parallel: 2}, "", map[string]bool{ROMWin: false, ROMWout: false, ROMLUT: false}},
		{"rvfl8 auto", r8, Options{Parallel: 2, ROMStyle: ROMStyleAuto}, "", map[string]bool{ROMWin: false, ROMWout: false, ROMLUT: false}},
		{"rvfl8 block", r8, Options{Parallel: 2, ROMStyle: ROMStyleBlock}, ROMStyleBlock, map[string]bool{ROMWin: true, ROMWout: true, ROMLUT: true}},
		{"intrvfl block", in, Options{Parallel: 3, ROMStyle: ROMStyleBlock}, ROMStyleBlock, map[string]bool{ROMWin: true, ROMWout: true}},
		{"reloadable readout", in, Options{Parallel: 3, ROMStyle: ROMStyleBlock, ReloadableReadout: true}, ROMStyleBlock, map[string]bool{ROMWin: true, ROMWout: false}},
	}
	for _, tc := range tests {
		pl := mustPlan(t, tc.s, tc.o)
		if pl.ROMStyle != tc.style || pl.BlockROMs() != (tc.style == ROMStyleBlock) {
			t.Errorf("%s: style %q (block %v), want %q", tc.name, pl.ROMStyle, pl.BlockROMs(), tc.style)
		}
		if diff := cmp.Diff(tc.want, blocks(pl)); diff != "" {
			t.Errorf("%s: ROMs marked block (-want +got):\n%s", tc.name, diff)
		}
		b, err := pl.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"rom_style"`); got != (tc.style != "") {
			t.Errorf("%s: design.json mentions rom_style: %v", tc.name, got)
		}
	}
}

// TestRegisterSums: --register-sums swaps the readout's product register
// (P·L·PW bits) for a lane-sum register (L·TW bits) after the lane-sum tree,
// for both networks and any P: same latency, II and widths, the stage listed
// after the tree.
func TestRegisterSums(t *testing.T) {
	for _, tc := range []struct {
		s testmodel.Shape
		p int
	}{
		{testmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}, 8},
		{testmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}, 1},
		{testmodel.Shape{Arch: model.IntRVFL, K: 3, N: 37, L: 2, Kappa: 1, Bits: 3}, 36},
		{testmodel.Shape{Arch: model.RVFL8, K: 5, N: 9, L: 3}, 4},
	} {
		products := mustPlan(t, tc.s, Options{Parallel: tc.p})
		sums := mustPlan(t, tc.s, Options{Parallel: tc.p, RegisterSums: true})
		want := *products
		want.RegisterSums = true
		want.Resources.RegisterBits += sums.L*sums.TW - sums.P*sums.L*sums.PW
		want.Stages = sums.Stages                 // checked below
		want.LatencyFormula = sums.LatencyFormula // names the stages
		if diff := cmp.Diff(&want, sums); diff != "" {
			t.Errorf("%v P=%d: plan with --register-sums (-want +got):\n%s", tc.s, tc.p, diff)
		}
		names := func(pl *Plan) (s []string) {
			for _, st := range pl.Stages {
				s = append(s, st.Name)
			}
			return s
		}
		got, base := names(sums), names(products)
		i := slices.Index(base, stageMACProduct)
		wantNames := slices.Concat(base[:i], []string{stageLaneTree, stageMACSums}, base[i+2:])
		if diff := cmp.Diff(wantNames, got); diff != "" {
			t.Errorf("%v P=%d: stages (-want +got):\n%s", tc.s, tc.p, diff)
		}
	}
}

// TestRecordedOptions: the options read back from a design.json give the
// same plan again, for every option.
func TestRecordedOptions(t *testing.T) {
	s := testmodel.Shape{Arch: model.IntRVFL, K: 5, N: 40, L: 3, Kappa: 3, Bits: 5}
	m := testmodel.Random(s, "x", 1)
	for _, o := range []Options{
		{},
		{Parallel: 7},
		{Parallel: 7, AdderLevelsPerStage: 1, ArgmaxLevelsPerStage: 1},
		{Parallel: 4, ReloadableReadout: true},
		{Parallel: 4, ROMStyle: ROMStyleBlock},
		{Parallel: 4, HoldInput: true},
		{Parallel: 6, RegisterSums: true},
	} {
		pl, err := New(m, o)
		if err != nil {
			t.Fatal(err)
		}
		b, err := pl.JSON()
		if err != nil {
			t.Fatal(err)
		}
		ro, err := RecordedOptions(b)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		again, err := New(m, ro)
		if err != nil {
			t.Fatalf("%+v → %+v: %v", o, ro, err)
		}
		if diff := cmp.Diff(pl, again); diff != "" {
			t.Errorf("%+v → %+v: another plan (-want +got):\n%s", o, ro, diff)
		}
	}
	if _, err := RecordedOptions([]byte("{")); err == nil || !strings.Contains(err.Error(), "design.json") {
		t.Errorf("bad JSON: %v", err)
	}
}
