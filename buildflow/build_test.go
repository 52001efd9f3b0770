package buildflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/confusion"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/tune"
)

func TestSplitRoundTrips(t *testing.T) {
	src := []byte("kind,x,y\nb,0.1,1e-300\na,2,3\nb,\"4\",-5.5\na,6,7\nc d,8,9\nc d,1.0000000000000002,11\n")
	dir := t.TempDir()
	o := Options{Data: "in.csv", LabelColumn: "kind", Holdout: 0.5}
	orig, err := dataset.ReadCSV(bytes.NewReader(src), "in.csv", dataset.CSVOptions{LabelColumn: "kind"})
	if err != nil {
		t.Fatal(err)
	}
	tp, hp := filepath.Join(dir, "t.csv"), filepath.Join(dir, "h.csv")
	if err := writeSplit(o, orig, tp, hp); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, p := range []string{tp, hp} {
		d, err := dataset.LoadCSV(p, dataset.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(orig.FeatureNames, d.FeatureNames); diff != "" {
			t.Errorf("%s features (-want +got)\n%s", p, diff)
		}
		for r := 0; r < d.M(); r++ {
			rows = append(rows, rowKey(d.ClassNames[d.Y[r]], d.Row(r)))
		}
	}
	var want []string
	for r := 0; r < orig.M(); r++ {
		want = append(want, rowKey(orig.ClassNames[orig.Y[r]], orig.Row(r)))
	}
	slices.Sort(want)
	slices.Sort(rows)
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows of the two files (-want +got)\n%s", diff)
	}
}

// rowKey is a row's label and exact values, for comparing row sets.
func rowKey(label string, v []float64) string {
	k := label
	for _, x := range v {
		k += " " + strconv.FormatUint(math.Float64bits(x), 16)
	}
	return k
}

func TestQuoteArgs(t *testing.T) {
	got := quoteArgs([]string{"train", "--data", "my data.csv", "--label-column", "it's", "-o", "m.json"})
	want := `train --data 'my data.csv' --label-column 'it'\''s' -o m.json`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestChoose(t *testing.T) {
	cand := func(p, luts int, latUS, nJ float64) Candidate {
		var e power.Estimate
		e.Resources.LUTs, e.LatencyS, e.BudgetedJ = luts, latUS*1e-6, nJ*1e-9
		return Candidate{P: p, Estimate: e, Fits: true, FmaxMHz: 200}
	}
	cands := func() []Candidate {
		c := []Candidate{cand(1, 100, 5, 10), cand(2, 180, 2.6, 7), cand(4, 300, 1.4, 6), cand(8, 560, 0.8, 6.5), cand(16, 70000, 0.5, 5)}
		c[4].Fits = false
		return c
	}
	tests := []struct {
		name     string
		o        Options
		want     int // index; -1: error
		feasible []bool
	}{
		{"energy", Options{Objective: OptimizeEnergy}, 2, []bool{true, true, true, true, false}},
		{"latency", Options{Objective: OptimizeLatency}, 3, []bool{true, true, true, true, false}},
		{"area", Options{Objective: OptimizeArea}, 0, []bool{true, true, true, true, false}},
		{"energy, latency limit", Options{Objective: OptimizeEnergy, LatencyS: 1e-6}, 3, []bool{false, false, false, true, false}},
		{"latency exact", Options{Objective: OptimizeArea, LatencyS: 2.6e-6}, 1, []bool{false, true, true, true, false}},
		{"luts", Options{Objective: OptimizeEnergy, MaxLUTs: 200}, 1, []bool{true, true, false, false, false}},
		{"budget", Options{Objective: OptimizeArea, BudgetJ: 6.2e-9}, 2, []bool{false, false, true, false, false}},
		{"given P ignores constraints", Options{Objective: OptimizeEnergy, Parallel: 1, LatencyS: 1e-9}, 0, []bool{true, true, true, true, false}},
		{"none", Options{Objective: OptimizeEnergy, LatencyS: 0.7e-6, MaxLUTs: 400}, -1, []bool{false, false, false, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cands()
			got, err := Choose(c, tc.o)
			if tc.want < 0 {
				if err == nil || !strings.Contains(err.Error(), "no P meets latency ≤ 0.7 µs, ≤ 400 LUTs") {
					t.Errorf("err = %v", err)
				}
			} else if err != nil || got != tc.want {
				t.Errorf("Choose = %d, %v; want %d", got, err, tc.want)
			}
			var feas []bool
			for _, x := range c {
				feas = append(feas, x.Feasible)
			}
			if diff := cmp.Diff(tc.feasible, feas); diff != "" {
				t.Errorf("feasible (-want +got)\n%s", diff)
			}
		})
	}
	c := cands()
	c[2].FmaxMHz = 90
	// P=4 misses the clock; P=8 has the least energy of the rest (6.5 nJ),
	// P=2 is within EnergySlack of it (7 nJ) with a third of the LUTs.
	if got, _ := Choose(c, Options{Objective: OptimizeEnergy}); got != 1 {
		t.Errorf("a design below the clock, or a large one for 7 %% less energy, was chosen: %d", got)
	}
	// 6 % less energy for 50 times the LUTs: not the energy objective's choice.
	big := []Candidate{cand(1, 100, 5, 10), cand(2, 5000, 2.6, 9.4)}
	if got, _ := Choose(big, Options{Objective: OptimizeEnergy}); got != 0 {
		t.Errorf("Choose took the design 50 times larger for 6 %% less energy: %d", got)
	}
	// A third of the device's DSPs count: the area objective weighs them.
	dsp := []Candidate{cand(1, 900, 5, 10), cand(2, 400, 2.6, 9)}
	dsp[1].Estimate.Resources.DSP48E1 = 70
	if got, _ := Choose(dsp, Options{Objective: OptimizeArea}); got != 0 {
		t.Errorf("the area objective ignored 70 DSP48E1: chose %d", got)
	}
	if _, err := Choose(cands(), Options{Parallel: 16}); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("--parallel of a design that does not fit: %v", err)
	}
}

// TestChooseDesign: N and P together. The breast-cancer case of the issue:
// N=150 validates 0.9719, N=900 0.9740 with a standard deviation of 0.013
// over 4 folds: within one standard error, so the smaller design is chosen
// (by energy and by area), and not with a tolerance of 0.1 points; a given
// P is every N's P.
func TestChooseDesign(t *testing.T) {
	curve := []tune.CurvePoint{{N: 50, Kappa: 1, Lambda: 64, Accuracy: 0.9550}, {N: 150, Kappa: 1, Lambda: 256, Accuracy: 0.9719},
		{N: 900, Kappa: 1, Lambda: 4096, Accuracy: 0.9740}}
	best := tune.Accuracy{Mean: 0.9740, Std: 0.013, PerSeed: [][]float64{{0.96, 0.97, 0.98, 0.99}}}
	for _, tc := range []struct {
		name  string
		o     Options
		wantN int
	}{
		{"energy", Options{Objective: OptimizeEnergy}, 150},
		{"area", Options{Objective: OptimizeArea}, 150},
		{"tolerance 0.1 points", Options{Objective: OptimizeArea, Tolerance: 0.1}, 900},
		{"tolerance 2 points", Options{Objective: OptimizeArea, Tolerance: 2}, 50},
		{"given P", Options{Objective: OptimizeArea, Parallel: 8}, 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Bits = 5
			tc.o.BudgetOn = power.BudgetDynamic
			dc, err := ChooseDesign([]MemberCurve{{Network: model.IntRVFL, Curve: curve, Best: best}}, 9, 2, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if got := dc.Points[dc.Chosen].N; got != tc.wantN {
				t.Errorf("chose N=%d, want %d (tolerance %.4f)", got, tc.wantN, dc.Tolerance)
			}
			if tc.o.Parallel > 0 {
				for _, pt := range dc.Points {
					if len(pt.Sizes) != 1 || pt.Sizes[0].P != tc.o.Parallel {
						t.Errorf("N=%d: sizes %v, want only P=%d", pt.N, pt.Sizes, tc.o.Parallel)
					}
				}
			}
		})
	}
}

// TestChooseDesignFamily: the network is chosen with N and P. A second
// member that validates better by more than the tolerance is chosen; one
// within the tolerance of a cheaper plain intRVFL is not; the tolerance is
// the standard error of the member that validated best.
func TestChooseDesignFamily(t *testing.T) {
	plain := MemberCurve{Network: model.IntRVFL, Best: tune.Accuracy{Mean: 0.90, Std: 0.02, PerSeed: [][]float64{{0.88, 0.89, 0.91, 0.92}}},
		Curve: []tune.CurvePoint{{N: 100, Kappa: 3, Lambda: 256, Accuracy: 0.88}, {N: 400, Kappa: 3, Lambda: 1024, Accuracy: 0.90}}}
	two := func(acc float64, std float64) MemberCurve {
		return MemberCurve{Network: model.IntRVFL2, Best: tune.Accuracy{Mean: acc, Std: std, PerSeed: [][]float64{{acc - std, acc, acc, acc + std}}},
			Curve: []tune.CurvePoint{{N: 400, Kappa: 3, Lambda: 1024, Accuracy: acc}}}
	}
	for _, tc := range []struct {
		name     string
		members  []MemberCurve
		wantArch model.Arch
		wantN    int
		wantTol  float64
	}{
		{"two layers pay", []MemberCurve{plain, two(0.95, 0.01)}, model.IntRVFL2, 400, 0.005},
		{"two layers within the tolerance", []MemberCurve{plain, two(0.905, 0.02)}, model.IntRVFL, 400, 0.01},
		{"plain alone", []MemberCurve{plain}, model.IntRVFL, 400, 0.01},
		{"two layers alone", []MemberCurve{two(0.95, 0.01)}, model.IntRVFL2, 400, 0.005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Objective: OptimizeArea, Bits: 5, BudgetOn: power.BudgetDynamic, Tolerance: 0}
			dc, err := ChooseDesign(tc.members, 9, 3, o)
			if err != nil {
				t.Fatal(err)
			}
			pt := dc.Points[dc.Chosen]
			if pt.Network != tc.wantArch || pt.N != tc.wantN {
				t.Errorf("chose %s N=%d, want %s N=%d", pt.Network, pt.N, tc.wantArch, tc.wantN)
			}
			if math.Abs(dc.Tolerance-tc.wantTol) > 1e-9 {
				t.Errorf("tolerance %.4f, want %.4f (%s)", dc.Tolerance, tc.wantTol, dc.From)
			}
			if want := len(plain.Curve)*countOf(tc.members, model.IntRVFL) + countOf(tc.members, model.IntRVFL2); len(dc.Points) != want {
				t.Errorf("%d design points, want %d (every member's curve)", len(dc.Points), want)
			}
		})
	}
}

func countOf(ms []MemberCurve, a model.Arch) int {
	n := 0
	for _, m := range ms {
		if m.Network == a {
			n++
		}
	}
	return n
}

func TestFamilyMembers(t *testing.T) {
	for _, tc := range []struct {
		o       Options
		rows    int
		want    []model.Arch
		wantErr string
	}{
		{Options{}, 0, []model.Arch{model.IntRVFL, model.Conj, model.IntConj, model.IntRVFL2}, ""},
		{Options{}, CoarseGridRows - 1, []model.Arch{model.IntRVFL, model.Conj, model.IntConj, model.IntRVFL2}, ""},
		{Options{}, CoarseGridRows, []model.Arch{model.IntRVFL}, ""},
		{Options{Family: "intrvfl,intrvfl2"}, CoarseGridRows, []model.Arch{model.IntRVFL, model.IntRVFL2}, ""},
		{Options{Win: "lfsr"}, 0, []model.Arch{model.IntRVFL}, ""},
		{Options{Family: "intrvfl2"}, 0, []model.Arch{model.IntRVFL2}, ""},
		{Options{Family: "intrvfl2, intrvfl"}, 0, []model.Arch{model.IntRVFL2, model.IntRVFL}, ""},
		{Options{N: 10, Lambda: 1, Kappa: 1}, 0, []model.Arch{model.IntRVFL}, ""},
		{Options{Family: "conj,intrvfl"}, 0, []model.Arch{model.Conj, model.IntRVFL}, ""},
		{Options{Family: "rvfl8"}, 0, nil, "rvfl8 is the fixed-point baseline"},
		{Options{Family: "rvfl"}, 0, nil, `unknown member "rvfl"`},
		{Options{Family: "conj", Win: "lfsr"}, 0, nil, "conj has no generated W_in"},
		{Options{Family: "intrvfl,intrvfl"}, 0, nil, "named twice"},
		{Options{Family: "intrvfl2", Win: "lfsr"}, 0, nil, "intrvfl2 has no generated W_in"},
		{Options{Family: "intconj", Win: "lfsr"}, 0, nil, "intconj has no generated W_in"},
		{Options{Family: "intrvfl,intrvfl2", N: 10, Lambda: 1, Kappa: 1}, 0, nil, "give one member"},
	} {
		t.Run(tc.o.Family+"/"+tc.o.Win, func(t *testing.T) {
			got, err := tc.o.members(tc.rows)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("members (-want +got):\n%s", d)
			}
		})
	}
}

func TestCandidatePs(t *testing.T) {
	for _, tc := range []struct {
		n, asked, pmax int
		want           []int
	}{
		{1, 0, 0, []int{1}},
		{2, 0, 0, []int{1, 2}},
		{50, 0, 0, []int{1, 2, 4, 8, 16, 32, 50}},
		{64, 0, 0, []int{1, 2, 4, 8, 16, 32, 64}},
		{50, 3, 0, []int{1, 2, 3, 4, 8, 16, 32, 50}},
		{64, 0, 64, []int{1, 2, 4, 8, 16, 32, 64}},
		{100, 0, 64, []int{1, 2, 4, 8, 16, 32, 64}},        // neither 128 nor N above the measured P
		{100, 100, 64, []int{1, 2, 4, 8, 16, 32, 64, 100}}, // the P asked for is estimated
		{1500, 0, 1024, []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
	} {
		if diff := cmp.Diff(tc.want, candidatePsUpTo(tc.n, tc.asked, tc.pmax)); diff != "" {
			t.Errorf("N=%d asked %d up to %d (-want +got)\n%s", tc.n, tc.asked, tc.pmax, diff)
		}
	}
	// build's limit is the intRVFL's largest measured P.
	pmax := power.MeasuredPMax(model.IntRVFL)
	if pmax < 256 {
		t.Fatalf("MeasuredPMax(intrvfl) = %d, want the calibration's range (≥ 256)", pmax)
	}
	if diff := cmp.Diff(candidatePsUpTo(3000, 0, pmax), candidatePs(3000, 0)); diff != "" {
		t.Errorf("candidatePs(3000) does not stop at the measured P %d (-want +got)\n%s", pmax, diff)
	}
}

// TestIcarusVectors: every corner vector and the random ones, more for a
// design with a short II (at least icarusMinCycles cycles), never more than
// the design's vectors.
func TestIcarusVectors(t *testing.T) {
	for _, tc := range []struct{ k, ii, vectors, want int }{
		{9, 27, 1000, 4 + 9 + icarusRandom},
		{9, 850, 1000, 4 + 9 + icarusRandom},
		{64, 40, 1000, 4 + 64 + icarusRandom},
		{200, 40, 1000, 4 + 64 + icarusRandom},
		{4, 2, 1000, 300},
		{4, 2, 100, 100},
	} {
		if got := IcarusVectors(tc.k, tc.ii, tc.vectors); got != tc.want {
			t.Errorf("IcarusVectors(%d, %d, %d) = %d, want %d", tc.k, tc.ii, tc.vectors, got, tc.want)
		}
	}
}

func TestHTML(t *testing.T) {
	md := "# Title <x>\n\nA `code` and **bold** line.\n\n| a | b | c |\n| --- | ---: | --- |\n| x & y | 1 |  |\n\n```\nraw <b>\n```\n\n![alt](c.svg)\n\n" +
		"<details><summary>more</summary>\n\n- one\n- two\n\n</details>\n"
	want := "<h1>Title &lt;x&gt;</h1>\n" +
		"<p>A <code>code</code> and <strong>bold</strong> line.</p>\n" +
		"<table>\n<tr><th>a</th><th>b</th><th>c</th></tr>\n<tr><td>x &amp; y</td><td class=\"r\">1</td><td></td></tr>\n</table>\n" +
		"<pre>raw &lt;b&gt;\n</pre>\n" +
		"<p><img src=\"c.svg\" alt=\"alt\"></p>\n" +
		"<details><summary>more</summary>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n</details>\n</body></html>\n"
	got := HTML(md, nil)
	_, body, _ := strings.Cut(got, "</style></head><body>\n")
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// With the picture given, it is in the page, not beside it.
	svg := `<svg xmlns="http://www.w3.org/2000/svg"><text>x</text></svg>` + "\n"
	inline := HTML(md, map[string][]byte{"c.svg": []byte(svg)})
	if !strings.Contains(inline, `<figure role="img" aria-label="alt">`+"\n"+svg+"</figure>") || strings.Contains(inline, "<img") {
		t.Errorf("the SVG is not inline:\n%s", inline)
	}
}

// TestHostileClassNames: class names holding a fence, a newline, a bar, HTML
// and Markdown emphasis reach the Markdown and the page as escaped text: the
// page keeps every section, the text matrix stays one fence.
func TestHostileClassNames(t *testing.T) {
	names := []string{"```\n# not a heading", "a|b", "<script>alert(1)</script>", "**x**", "plain"}
	m := confusion.New(names)
	for i := range names {
		m.Counts[i][i] = i + 1
	}
	var f Facts
	f.Options = Options{Name: "hostile", Bits: 5, Vectors: 10}
	f.Data.ClassNames = names
	f.IntHeld, f.IntTrain = m.Score(), m.Score()
	f.Sizes = []Candidate{{P: 1}}
	md := Report(f)
	if strings.Count(md, "```") != 6 {
		t.Errorf("the report has %d fence marks, want 6 (the commands, the matrix and the next step):\n%s", strings.Count(md, "```"), md)
	}
	for _, bad := range []string{"\n# not a heading", "<script>", "a|b", "**x**"} {
		if strings.Contains(md, bad) {
			t.Errorf("the report holds %q unescaped", bad)
		}
	}
	page := HTML(md, nil)
	for _, h := range []string{"Summary", "Accuracy", "Hardware", "Verification", "Commands", "Next"} {
		if !strings.Contains(page, "<h2>"+h) {
			t.Errorf("the page lost its section %s", h)
		}
	}
	if n := strings.Count(page, "<h1>"); n != 1 {
		t.Errorf("the page has %d h1 headings, want 1", n)
	}
	if strings.Contains(page, "<script>") {
		t.Error("the page holds a script element")
	}
}

// TestCheckDir: a folder whose path make cannot take is refused before any
// work, naming the character.
func TestCheckDir(t *testing.T) {
	for _, tc := range []struct {
		dir, want string
	}{{"out/ok-dir_1.x", ""}, {"dir with space", `holds " "`}, {"a#b", `holds "#"`}, {"", "empty path"}} {
		err := CheckDir(tc.dir)
		var oe *OptionError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.dir, err)
		case tc.want != "" && (err == nil || !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want an option error with %q", tc.dir, err, tc.want)
		}
	}
}

// TestCheckTakeOver: an absent or empty folder and a build folder are
// built into; a folder with other files only with --force.
func TestCheckTakeOver(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, files ...string) string {
		d := filepath.Join(root, name)
		for _, f := range files {
			p := filepath.Join(d, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("x"), 0o644)
		}
		os.MkdirAll(d, 0o755)
		return d
	}
	for _, tc := range []struct {
		dir   string
		force bool
		ok    bool
	}{
		{filepath.Join(root, "absent"), false, true},
		{mk("empty"), false, true},
		{mk("build", stampDir+"/"+markerFile, "model.json"), false, true},
		{mk("mine", "model.json", "REPORT.md"), false, false},
		{mk("mine2", "model.json"), true, true},
	} {
		err := checkTakeOver(tc.dir, tc.force)
		if (err == nil) != tc.ok {
			t.Errorf("%s force=%v: %v, want ok=%v", filepath.Base(tc.dir), tc.force, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--force") {
			t.Errorf("%s: %v does not say --force", tc.dir, err)
		}
	}
}

// TestStepRerunsWhenAnOutputChanged: a step with a current record is
// skipped only while every output it wrote is as it left it; a deleted or
// edited output (a file, or one inside an output folder) runs it again, and
// a changed fingerprint too.
func TestStepRerunsWhenAnOutputChanged(t *testing.T) {
	dir := t.TempDir()
	var progress bytes.Buffer
	o := &Options{Dir: dir, Progress: &progress}
	runs := 0
	def := func(line string) stepDef {
		return stepDef{name: "emit", line: line, outputs: []string{"out.txt", "hw"}, skip: func(rel string) bool { return rel == "hw/build" },
			do: func(context.Context) error {
				runs++
				os.MkdirAll(filepath.Join(dir, "hw", "mem"), 0o755)
				os.MkdirAll(filepath.Join(dir, "hw", "build"), 0o755)
				os.WriteFile(filepath.Join(dir, "hw", "mem", "w.mem"), []byte("01\n"), 0o644)
				return os.WriteFile(filepath.Join(dir, "out.txt"), []byte("v1"), 0o644)
			}}
	}
	step := func(line string) {
		t.Helper()
		if _, err := newRunner(o, 1).step(context.Background(), def(line)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		change func()
		line   string
		runs   int
	}{
		{"first", func() {}, "a", 1},
		{"unchanged", func() {}, "a", 1},
		{"a file in the build folder (not an output)", func() { os.WriteFile(filepath.Join(dir, "hw", "build", "x"), []byte("y"), 0o644) }, "a", 1},
		{"deleted", func() { os.Remove(filepath.Join(dir, "hw", "mem", "w.mem")) }, "a", 2},
		{"edited", func() { os.WriteFile(filepath.Join(dir, "out.txt"), []byte("v2"), 0o644) }, "a", 3},
		{"other command", func() {}, "b", 4},
		{"unchanged again", func() {}, "b", 4},
	} {
		tc.change()
		step(tc.line)
		if runs != tc.runs {
			t.Errorf("%s: the step ran %d times in all, want %d\n%s", tc.name, runs, tc.runs, progress.String())
		}
	}
	if !strings.Contains(progress.String(), "hw/mem/w.mem missing: running it again") {
		t.Errorf("progress does not name the missing output:\n%s", progress.String())
	}
}

// TestEstimateIsPowersModel: the sizes step's numbers for a P are those of
// `hdlgen power model.json --parallel P` (power.EstimateModel).
func TestEstimateIsPowersModel(t *testing.T) {
	x := make([]float64, 0, 60*3)
	y := make([]int, 60)
	for r := range y {
		y[r] = r % 3
		x = append(x, float64(r%3)+0.1*float64(r%7), float64(r%5), float64((r*7)%11))
	}
	m, err := model.Train(context.Background(), model.Data{X: x, Y: y, ClassNames: []string{"a", "b", "c"}},
		model.Config{Arch: model.IntRVFL, N: 40, Kappa: 3, Lambda: 4, Regularizer: model.RegIdentity, ReadoutBits: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{1, 8, 40} {
		got, err := estimate(m, p, power.Params{})
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := power.EstimateModel(m, p, power.Params{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got.Estimate); diff != "" || !got.Fits || got.FmaxMHz <= 0 {
			t.Errorf("P=%d: fits %v, Fmax %g, (-power +sizes):\n%s", p, got.Fits, got.FmaxMHz, diff)
		}
	}
}

// TestVerificationListsEveryCheck: the table has every check — the model
// step per vector set, lint, Verilator and Icarus on both tops — ran or
// not; PASS needs every one to have run and passed; a check left out by
// --verify-steps makes the verdict PARTIAL and says which.
func TestVerificationListsEveryCheck(t *testing.T) {
	res := func(name, step, target string, vectors int) VerifyResult {
		return VerifyResult{Name: name, Step: step, Target: target, Passed: true, Vectors: vectors}
	}
	verilator := &VerifyRun{Dir: hwDir, Results: []VerifyResult{res("model", stepModel, "", 1000), res("lint/stream", stepLint, "stream", 0),
		res("lint/axis", stepLint, "axis", 0), res("verilator/stream", stepVerilator, "stream", 1000), res("verilator/axis", stepVerilator, "axis", 1000)}}
	icarus := &VerifyRun{Dir: icarusDir, Results: []VerifyResult{res("model", stepModel, "", 29), res("icarus/stream", stepIcarus, "stream", 29),
		res("icarus/axis", stepIcarus, "axis", 29)}}
	b := &build{o: &Options{}}
	all := b.verification(verilator, icarus, verifySteps(""))
	var names []string
	for _, c := range all.Checks {
		names = append(names, c.name())
	}
	want := []string{"model (hw)", "lint/stream", "lint/axis", "verilator/stream", "verilator/axis", "model (verify/icarus)", "icarus/stream", "icarus/axis"}
	if diff := cmp.Diff(want, names); diff != "" || !all.Passed || all.Partial {
		t.Errorf("passed %v partial %v; checks (-want +got):\n%s", all.Passed, all.Partial, diff)
	}
	f := Facts{Verify: all}
	if v := f.verdict(); !strings.HasPrefix(v, "PASS") || !strings.Contains(v, "Verilator (1000 vectors) and Icarus (29 vectors)") {
		t.Errorf("verdict %q", v)
	}

	b.o.VerifySteps = "model,lint,verilator"
	part := b.verification(verilator, nil, verifySteps(b.o.VerifySteps))
	f = Facts{Verify: part}
	if part.Passed || !part.Partial || len(part.Checks) != 7 {
		t.Fatalf("without Icarus: passed %v, partial %v, %d checks", part.Passed, part.Partial, len(part.Checks))
	}
	if v := f.verdict(); !strings.HasPrefix(v, "PARTIAL") || !strings.Contains(v, "icarus/stream, icarus/axis") {
		t.Errorf("verdict %q", v)
	}
	for _, c := range part.Checks[5:] {
		if c.Ran || c.Why != "not run: --verify-steps model,lint,verilator" {
			t.Errorf("%s: ran %v, %q", c.name(), c.Ran, c.Why)
		}
	}
	failed := *verilator
	failed.Results = slices.Clone(verilator.Results)
	failed.Results[3].Passed = false
	if v := b.verification(&failed, icarus, verifySteps("")); v.Passed {
		t.Error("a failed check passed the verification")
	}
}

// TestParallelStartsInOrder: the steps run at once print their first lines
// in their order, even when a later one would be quicker to start.
func TestParallelStartsInOrder(t *testing.T) {
	var mu sync.Mutex
	var order []int
	step := func(i int, delay time.Duration) func(context.Context) error {
		return func(ctx context.Context) error {
			time.Sleep(delay)
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			markStarted(ctx)
			time.Sleep(delay)
			return nil
		}
	}
	if err := parallel(context.Background(), step(0, 30*time.Millisecond), step(1, 10*time.Millisecond), step(2, 0)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, order); diff != "" {
		t.Errorf("start order (-want +got):\n%s", diff)
	}
}

// TestReportStatesTheMeasuredBand: beside the estimates, the report states
// the error band measured over the estimate's P range (power.BandOf, from the
// committed calibration), with its command, and names the designs outside
// every measured range; the chosen design's counts are said to be Yosys's.
func TestReportStatesTheMeasuredBand(t *testing.T) {
	design := func(n, p int) power.Design {
		return power.Design{Shape: power.Shape{Arch: model.IntRVFL, K: 16, L: 3, Kappa: 3, Bits: 5}, N: n, Options: plan.Options{Parallel: p}}
	}
	in, out := design(300, 2), design(5000, 1024)
	band, ok := power.BandOf(in)
	if !ok {
		t.Fatalf("no measured band covers %s (power.Bands: %+v)", in, power.Bands(model.IntRVFL))
	}
	if _, ok := power.BandOf(out); ok {
		t.Fatalf("a measured band covers %s", out)
	}
	var f Facts
	f.Options = Options{Name: "band", Bits: 5, Vectors: 10}
	f.Data.ClassNames = []string{"a", "b", "c"}
	m := confusion.New(f.Data.ClassNames)
	f.IntHeld, f.IntTrain = m.Score(), m.Score()
	f.Sizes = []Candidate{{P: 2, Estimate: power.Estimate{Design: in}}, {P: 1024, Estimate: power.Estimate{Design: out}}}
	f.Power.Resources = power.Resources{LUTs: 1000, Source: "yosys"}
	md := Report(f)
	want := []string{
		fmt.Sprintf("P %d…%d: %s", band.PMin, band.PMax, band.Text()),
		"outside the range its error was measured over",
		"P=1024 (N=5000)",
		"These counts are **Yosys's**.",
		// the table stops below N (candidatePs): the report says why
		fmt.Sprintf("P above 1024 (up to N = 5000) is not listed: hdlgen's estimate was measured against Yosys up to P = %d only", power.MeasuredPMax(model.IntRVFL)),
	}
	if len(band.Runs) == 0 {
		t.Fatalf("band %+v names no calibration run", band)
	}
	for _, r := range band.Runs {
		want = append(want, "`"+r.Command+"` on "+r.Date)
	}
	for _, want := range want {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "±15 %") {
		t.Error("the report still states the old ±15 %")
	}
}

// TestReportShowsEachMember: with two members the report names each
// member's search and best, gives the curve table a network column with
// a row per member and N, states the error band per network, plots each
// member as its own series with the chosen network marked, and the
// hardware README gives the two-layer network's level range 0…N1.
func TestReportShowsEachMember(t *testing.T) {
	plain := tune.Result{Search: &tune.SearchInfo{Grid: "small", Points: 12}, Config: tune.Config{Arch: "intrvfl", N: 100, Kappa: 3, Lambda: 256},
		Validated: tune.Accuracy{Mean: 0.80, Std: 0.02, PerSeed: [][]float64{{0.78, 0.79, 0.81, 0.82}}},
		Curve:     []tune.CurvePoint{{N: 50, Kappa: 3, Lambda: 64, Accuracy: 0.78}, {N: 100, Kappa: 3, Lambda: 256, Accuracy: 0.80}}}
	two := tune.Result{Search: &tune.SearchInfo{Grid: "small", Points: 12}, Config: tune.Config{Arch: "intrvfl2", N: 100, Kappa: 3, Lambda: 512},
		Validated: tune.Accuracy{Mean: 0.90, Std: 0.02, PerSeed: [][]float64{{0.88, 0.89, 0.91, 0.92}}},
		Curve:     []tune.CurvePoint{{N: 50, Kappa: 3, Lambda: 128, Accuracy: 0.86}, {N: 100, Kappa: 3, Lambda: 512, Accuracy: 0.90}}}
	var f Facts
	f.Options = Options{Name: "fam", Bits: 5, Vectors: 10, Objective: OptimizeEnergy, BudgetOn: power.BudgetDynamic}
	f.Data = tune.DataInfo{File: "fam.csv", Rows: 200, Features: 4, Classes: 3, ClassNames: []string{"a", "b", "c"}}
	m := confusion.New(f.Data.ClassNames)
	f.IntHeld, f.IntTrain, f.FloatHeld, f.FloatTrain = m.Score(), m.Score(), m.Score(), m.Score()
	f.Searched = true
	f.Family = []MemberSearch{{Network: model.IntRVFL, Result: plain}, {Network: model.IntRVFL2, Result: two}}
	var curves []MemberCurve
	for _, ms := range f.Family {
		curves = append(curves, MemberCurve{Network: ms.Network, Curve: ms.Result.Curve, Best: ms.Result.Validated})
	}
	dc, err := ChooseDesign(curves, 4, 3, f.Options)
	if err != nil {
		t.Fatal(err)
	}
	f.Design = dc
	pt := dc.Points[dc.Chosen]
	if pt.Network != model.IntRVFL2 || pt.N != 100 {
		t.Fatalf("chose %s N=%d, want intrvfl2 N=100", pt.Network, pt.N)
	}
	f.Search, f.Eval = two, two
	f.Sizes, f.Chosen = pt.Sizes, pt.Best
	f.Power = f.Sizes[f.Chosen].Estimate
	md := Report(f)
	for _, want := range []string{
		"`hdlgen search --arch intrvfl` scored the small grid (12 points)",
		"`hdlgen search --arch intrvfl2` scored the small grid (12 points)",
		"build searched each member of the family (intrvfl 0.8000, intrvfl2 0.9000",
		"so every network and N with a validation accuracy",
		"| network | N | κ | λ |",
		"| intrvfl | 50 | 3 | 64 | 0.7800 | no |",
		"| intrvfl2 | 100 | 3 | 512 | 0.9000 | yes |",
		"The intrvfl: ", "The intrvfl2: ",
		"`fam_top`: two-layer intRVFL (intrvfl2) N=100",
		"| two-layer intRVFL (intrvfl2), 5-bit",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	svg := string(curveSVG(f, true))
	for _, want := range []string{"intrvfl: each N (best κ, λ)", "intrvfl2: each N (best κ, λ)", "chosen: intrvfl2 N=100"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the LUT-equivalents picture lacks %q", want)
		}
	}
	if readme := HardwareReadme(f); !strings.Contains(readme, "an integer v in 0…50,") || !strings.Contains(readme, "v = floor(u·50 + 0.5)") {
		t.Errorf("the hardware README does not give the level range 0…N1 = 50:\n%s", readme)
	}
}
