package hwstudy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

func TestRandomModelDeterministicAndValid(t *testing.T) {
	names := map[string]bool{}
	for _, s := range CalibrationMatrix {
		if names[s.Name()] {
			t.Errorf("duplicate shape %s", s.Name())
		}
		names[s.Name()] = true
		if s.N > 1100 {
			continue // keep the test fast
		}
		a, err := model.Marshal(RandomModel(s, 1))
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		b, _ := model.Marshal(RandomModel(s, 1))
		c, _ := model.Marshal(RandomModel(s, 2))
		if !bytes.Equal(a, b) || bytes.Equal(a, c) {
			t.Errorf("%s: same seed differs or different seeds agree", s.Name())
		}
	}
}

func TestTolerances(t *testing.T) {
	rows := []CalibrationRow{
		{Name: "a", Yosys: power.Resources{LUTs: 100, FFs: 100, DSP48E1: 4, BRAM36: 1}, Analytic: power.Resources{LUTs: 110, FFs: 95, DSP48E1: 4, BRAM36: 1}},
		{Name: "b", Yosys: power.Resources{LUTs: 200, FFs: 50}, Analytic: power.Resources{LUTs: 180, FFs: 56, DSP48E1: 1}},
	}
	got := tolerances(rows)
	byName := map[string]Tolerance{}
	for _, tl := range got {
		byName[tl.Resource] = tl
	}
	lut := byName["LUT"]
	if lut.MaxAbsPct != 10 || lut.Worst != "a" || lut.MeanPct != 0 || !lut.Satisfied || math.Abs(lut.RMSPct-10) > 1e-9 {
		t.Errorf("LUT %+v", lut)
	}
	if ff := byName["FF"]; ff.MaxAbsPct != 12 || ff.Worst != "b" || ff.Satisfied {
		t.Errorf("FF %+v (12 %% > 5 %% claim)", ff)
	}
	if dsp := byName["DSP48E1"]; dsp.Exact != 1 || dsp.Designs != 2 || dsp.Satisfied || dsp.MaxAbsPct != 100 {
		t.Errorf("DSP %+v", dsp)
	}
	if relErrPct(0, 0) != 0 {
		t.Error("0/0")
	}
}

func medianRow(net model.Arch, p, lut, cycles int, dynW float64) MedianRow {
	e := power.Estimate{Resources: power.Resources{LUTs: lut}, Cycles: cycles, LatencyS: float64(cycles) / 100e6,
		DynamicW: dynW, PLStaticW: power.PLStaticW, DeviceStaticW: power.DeviceStaticW}
	e.DynamicJ = dynW * e.LatencyS
	e.PLStaticJ = e.PLStaticW * e.LatencyS
	e.TotalJ = e.DynamicJ + e.PLStaticJ
	return MedianRow{Net: net, P: p, Estimate: e, Fits: true}
}

func TestCompare(t *testing.T) {
	res := &MedianResult{Designs: []MedianRow{
		medianRow(model.IntRVFL, 1, 500, 517, 0.004),
		medianRow(model.IntRVFL, 8, 1800, 69, 0.006),
		medianRow(model.IntRVFL, 32, 6800, 21, 0.015),
		medianRow(model.RVFL8, 1, 400, 519, 0.010),
		medianRow(model.RVFL8, 8, 4000, 71, 0.045),
	}}
	res.compare()
	if len(res.SameP) != 2 || res.SameP[0].IntP != 1 || res.SameP[1].RVFL8P != 8 {
		t.Fatalf("same P %+v", res.SameP)
	}
	c := res.SameP[1]
	if math.Abs(c.SpeedRatio-71.0/69) > 1e-12 || math.Abs(c.PowerRatioDynamic-7.5) > 1e-9 ||
		math.Abs(c.EnergyRatioDynamic-7.5*71/69) > 1e-9 || !(c.EnergyRatioTotal < c.EnergyRatioDynamic) {
		t.Errorf("same P=8: %+v", c)
	}
	// Equal area: rvfl8 P=1 (400 LUTs) ↔ intRVFL P=1 (500); rvfl8 P=8 (4000) ↔ intRVFL P=32 (6800 is 1.7×, 1800 is 2.2× away).
	got := [][2]int{{res.EqualLUT[0].IntP, res.EqualLUT[0].RVFL8P}, {res.EqualLUT[1].IntP, res.EqualLUT[1].RVFL8P}}
	if d := cmp.Diff([][2]int{{1, 1}, {32, 8}}, got); d != "" {
		t.Errorf("equal-area pairs (-want +got):\n%s", d)
	}
	res.Command = "hdlgen power --median-table"
	md := string(res.Markdown())
	for _, want := range []string{"hdlgen power --median-table", "Paper: energy 11×, speed 2.5×", "(a) Same P", "(b) Equal LUT area", "Which comparison"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

// TestCompareBlockROMs: the rvfl8 with its ROMs in block RAM is a baseline of
// its own: it gets its same-P and equal-area comparisons, labelled as such.
// An intRVFL with block ROMs is listed but compared with nothing.
func TestCompareBlockROMs(t *testing.T) {
	block := medianRow(model.RVFL8, 8, 2000, 71, 0.040)
	block.ROMStyle = plan.ROMStyleBlock
	intBlock := medianRow(model.IntRVFL, 16, 2000, 39, 0.008) // for reference: in no comparison
	intBlock.ROMStyle = plan.ROMStyleBlock
	res := &MedianResult{Designs: []MedianRow{
		medianRow(model.IntRVFL, 8, 1800, 69, 0.006),
		medianRow(model.IntRVFL, 32, 6800, 21, 0.015),
		intBlock,
		medianRow(model.RVFL8, 8, 4000, 71, 0.045),
		block,
	}}
	res.compare()
	type pair struct {
		IntP, RVFL8P int
		Style        string
	}
	var same, equal []pair
	for _, c := range res.SameP {
		same = append(same, pair{c.IntP, c.RVFL8P, c.RVFL8ROMStyle})
	}
	for _, c := range res.EqualLUT {
		equal = append(equal, pair{c.IntP, c.RVFL8P, c.RVFL8ROMStyle})
	}
	if d := cmp.Diff([]pair{{8, 8, ""}, {8, 8, plan.ROMStyleBlock}}, same); d != "" {
		t.Errorf("same-P pairs (-want +got):\n%s", d)
	}
	// 4000 LC ↔ intRVFL P=32 (6800); 2000 LC ↔ P=8 (1800).
	if d := cmp.Diff([]pair{{32, 8, ""}, {8, 8, plan.ROMStyleBlock}}, equal); d != "" {
		t.Errorf("equal-area pairs (-want +got):\n%s", d)
	}
	md := string(res.Markdown())
	for _, want := range []string{"| rvfl8, ROMs in block RAM | 8 |", "| 8 | 8, ROMs in block RAM |", "| intrvfl, ROMs in block RAM | 16 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

// TestLeanMarkdown: the lean cores (block ROMs, and the intRVFL with its ROMs
// left to Yosys) are in no comparison, get their own directories and labels,
// are checked against the references, and each lean intRVFL is set against
// the lean rvfl8 of the same P.
func TestLeanMarkdown(t *testing.T) {
	lean := func(net model.Arch, p, cells, ff int, style string, dynW float64) MedianRow {
		r := medianRow(net, p, cells, 68, dynW)
		r.HoldInput, r.RegisterSums, r.ROMStyle, r.LUTCells = true, net == model.IntRVFL, style, cells
		r.Estimate.Resources.FFs = ff
		return r
	}
	intBlock := lean(model.IntRVFL, 8, 1632, 317, plan.ROMStyleBlock, 0.008)
	intLUT := lean(model.IntRVFL, 8, 1546, 601, "", 0.005)
	r8 := lean(model.RVFL8, 8, 2359, 499, plan.ROMStyleBlock, 0.120)
	res := &MedianResult{Designs: []MedianRow{
		medianRow(model.IntRVFL, 8, 1800, 69, 0.006),
		medianRow(model.RVFL8, 8, 4000, 71, 0.045),
		intBlock, intLUT, r8,
	}}
	res.compare()
	if len(res.SameP) != 1 || len(res.EqualLUT) != 1 {
		t.Errorf("the lean cores entered the comparisons: same P %+v, equal area %+v", res.SameP, res.EqualLUT)
	}
	if got := []string{intBlock.dirName(), intLUT.dirName(), r8.dirName()}; !slices.Equal(got, []string{
		"median_intrvfl_p8_lean", "median_intrvfl_p8_lean_lut", "median_rvfl8_p8_lean"}) {
		t.Errorf("directories %q", got)
	}
	md := string(res.Markdown())
	for _, want := range []string{
		"| intrvfl, lean | 8 | 1632 | 317 |", "| ≤ 1682 / ≤ 600 | yes |",
		"| intrvfl, lean, ROMs by Yosys | 8 | 1546 | 601 |", "| ≤ 1682 / ≤ 600 | no |",
		"| intrvfl, lean | rvfl8, lean | 8 | 15.0× |", "| intrvfl, lean, ROMs by Yosys | rvfl8, lean | 8 | 24.0× |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestLoadMedianData(t *testing.T) {
	dir := hwtest.CollectionDir(t)
	train, test, search, err := LoadMedianData(dir)
	if err != nil {
		t.Fatal(err)
	}
	if train.K() != 16 || train.L() != 4 || test.L() != 4 || train.M() < 1000 || test.M() < 500 ||
		len(search.Train) == 0 || len(search.Test) == 0 {
		t.Fatalf("K=%d L=%d rows %d/%d search %d/%d", train.K(), train.L(), train.M(), test.M(), len(search.Train), len(search.Test))
	}
	for _, d := range [][]int{train.Y, test.Y} {
		for _, y := range d {
			if y < 0 || y >= MedianClasses {
				t.Fatalf("label %d", y)
			}
		}
	}
}

// TestClaimsMatchDocs pins Claimed (the tolerances the calibration checks and
// the Yosys test in package power asserts) and ClaimedDynamicPowerPct to the
// table that docs/energy-model.md states, so neither can change alone.
func TestClaimsMatchDocs(t *testing.T) {
	b, err := os.ReadFile("../docs/energy-model.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]float64{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| resource | claimed tolerance |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "|---"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 2 {
			t.Fatalf("docs/energy-model.md: tolerance row %q has %d cells", line, len(cells))
		}
		name, claim := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1])
		if claim == "exact" {
			doc[name] = 0
			continue
		}
		var v float64
		if _, err := fmt.Sscanf(claim, "±%g %%", &v); err != nil {
			t.Fatalf("docs/energy-model.md: tolerance %q of %s: %v", claim, name, err)
		}
		doc[name] = v
	}
	want := map[string]float64{"dynamic power": ClaimedDynamicPowerPct}
	for k, v := range Claimed {
		want[k] = v
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("hwstudy.Claimed and ClaimedDynamicPowerPct (-) vs docs/energy-model.md (+):\n%s", diff)
	}
}

// ClaimedDynamicPowerPct is the tolerance of the analytic model's dynamic power
// (power.DefaultCoefficients at 100 MHz, 12.5 %) against the same design with
// Yosys's counts, stated in docs/energy-model.md next to Claimed. Errors in the
// individual counts partly cancel and the DSP48E1 and block-RAM terms are exact,
// so this is the tolerance the sizer's energies carry (7.3 % at most over
// the 62 fitted designs, the intRVFL at K = 4, N = P = 128).
const ClaimedDynamicPowerPct = 8

// TestCommittedCalibration checks results/hardware/calibration.json (written by
// `hdlgen power --calibrate`) against the code: it covers the calibration
// matrix, its analytic columns are what power.Analytic computes now (so a
// change of the model without a new calibration fails here), its tolerance
// summary is what tolerances() computes from its rows, DSP48E1 and block RAM
// are exact, and the dynamic power of every design is within
// ClaimedDynamicPowerPct, and every resource is within its claimed tolerance
// (Claimed) on every fitted design (the held-out sections' rows are logged).
func TestCommittedCalibration(t *testing.T) {
	b, err := os.ReadFile("../results/hardware/calibration.json")
	if err != nil {
		t.Fatalf("%v (run: hdlgen power --calibrate --out results/hardware)", err)
	}
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("calibration.json: %v", err)
	}
	var want []string
	for _, s := range CalibrationMatrix {
		want = append(want, s.Name())
	}
	for _, sd := range []int{2, 3} {
		for _, s := range SeedShapes {
			want = append(want, fmt.Sprintf("%s_s%d", s.Name(), sd))
		}
	}
	var got []string
	for _, r := range c.Rows {
		got = append(got, r.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("calibration.json is not over the current matrix; rerun hdlgen power --calibrate (-matrix +json):\n%s", diff)
	}
	if diff := cmp.Diff(tolerances(c.Rows), c.Tolerances); diff != "" {
		t.Errorf("tolerance summary differs from its rows (-recomputed +json):\n%s", diff)
	}
	maxPct, sq, n := 0.0, 0.0, 0
	for _, r := range c.Rows {
		a, err := power.Analytic(r.Design)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if diff := cmp.Diff(a, r.Analytic); diff != "" {
			t.Errorf("%s: the analytic model changed since the calibration; rerun hdlgen power --calibrate (-now +json):\n%s", r.Name, diff)
		}
		if r.Yosys.DSP48E1 != r.Analytic.DSP48E1 || r.Yosys.BRAM36 != r.Analytic.BRAM36 {
			t.Errorf("%s: DSP48E1 %d/%d, BRAM36 %g/%g (Yosys/analytic), want exact", r.Name,
				r.Yosys.DSP48E1, r.Analytic.DSP48E1, r.Yosys.BRAM36, r.Analytic.BRAM36)
		}
		if Uncalibrated[r.Design.Arch] {
			continue // measured, not held to the claims
		}
		ey, err := power.Evaluate(r.Design, r.Yosys, power.Params{})
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		ea, err := power.Evaluate(r.Design, r.Analytic, power.Params{})
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		e := relErrPct(ea.DynamicW, ey.DynamicW)
		if heldOut(r) {
			t.Logf("%s (held out, not held to the claims): dynamic power %+.1f %%, LUT %+.1f %%", r.Name, e,
				relErrPct(float64(r.Analytic.LUTs+r.Analytic.LUTRAM), float64(r.Yosys.LUTs+r.Yosys.LUTRAM)))
			continue
		}
		n++
		if math.Abs(e) > ClaimedDynamicPowerPct {
			t.Errorf("%s: dynamic power analytic %s, Yosys counts %s: %+.1f %%, outside ±%d %%", r.Name,
				power.FormatPower(ea.DynamicW), power.FormatPower(ey.DynamicW), e, ClaimedDynamicPowerPct)
		}
		maxPct, sq = max(maxPct, math.Abs(e)), sq+e*e
	}
	t.Logf("dynamic power, analytic vs Yosys counts over %d designs: max |error| %.1f %%, rms %.1f %%",
		n, maxPct, math.Sqrt(sq/float64(n)))
	for _, tl := range c.Tolerances {
		t.Logf("%-8s claim %-6s max |error| %5.1f %% (worst %s), rms %4.1f %%, within claim: %v",
			tl.Resource, tl.Claim, tl.MaxAbsPct, tl.Worst, tl.RMSPct, tl.Satisfied)
		if !tl.Satisfied {
			t.Errorf("%s: the committed calibration misses the claimed %s (max |error| %.1f %%, %s)",
				tl.Resource, tl.Claim, tl.MaxAbsPct, tl.Worst)
		}
	}
}

// TestLUTFactorsAreTheFit refits the analytic model's LUT factors to the
// committed calibration (FitLUTFactors over its FitRows: the held-out
// sections measure the model only) and compares them with the factors
// power uses (rounded to 3 decimals there): a change of the factors, of the
// raw counts or of the fitting method without a new fit fails here.
func TestLUTFactorsAreTheFit(t *testing.T) {
	b, err := os.ReadFile("../results/hardware/calibration.json")
	if err != nil {
		t.Fatal(err)
	}
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	fit, err := FitLUTFactors(c.FitRows(), LUTFitPull)
	if err != nil {
		t.Fatal(err)
	}
	for _, arch := range []model.Arch{model.IntRVFL, model.RVFL8} {
		if d := cmp.Diff(fit[arch].Factors, power.LUTFactors(arch), cmpopts.EquateApprox(0, 0.0005)); d != "" {
			t.Errorf("%s LUT factors (-fit of results/hardware/calibration.json +power):\n%s", arch, d)
		}
		if a := power.LUTGroupAlpha(arch); math.Abs(fit[arch].Alpha-a) > 1e-9 {
			t.Errorf("%s few-groups α: fit %g, power %g", arch, fit[arch].Alpha, a)
		}
	}
}

func TestFitMinimax(t *testing.T) {
	// Two blocks, three designs: raw/Yosys rows. f = (1, 1) gives errors
	// (0, +0.2, −0.2); the minimax fit balances them.
	x := [][]float64{{0.5, 0.5}, {0.6, 0.6}, {0.4, 0.4}}
	f, err := fitMinimax(x, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	var worst float64
	for _, row := range x {
		worst = max(worst, math.Abs(row[0]*f[0]+row[1]*f[1]-1))
	}
	// max(|1.2s−1|, |0.8s−1|) with s = f0+f1 is smallest, 0.2, at s = 2; the
	// pull splits s evenly only up to ties, so check the error and the sum.
	if math.Abs(worst-0.2) > 1e-6 || math.Abs(f[0]+f[1]-2) > 1e-6 || f[0] < 0 || f[1] < 0 {
		t.Errorf("fit %v: max error %v, want 0.2 with f0+f1 = 2", f, worst)
	}
	// A block with no raw count keeps 1 (the pull).
	f, err = fitMinimax([][]float64{{0.5, 0}, {0.55, 0}}, LUTFitPull)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f[1]-1) > 1e-9 || f[0] < 1.8 || f[0] > 2 {
		t.Errorf("fit %v: want f1 = 1 and f0 in [1.8, 2]", f)
	}
}
