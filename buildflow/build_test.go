package buildflow

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
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
	if got, _ := Choose(c, Options{Objective: OptimizeEnergy}); got != 3 {
		t.Errorf("a design below the clock was chosen: %d", got)
	}
	if _, err := Choose(cands(), Options{Parallel: 16}); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("--parallel of a design that does not fit: %v", err)
	}
}

func TestCandidatePs(t *testing.T) {
	for _, tc := range []struct {
		n, asked int
		want     []int
	}{{1, 0, []int{1}}, {2, 0, []int{1, 2}}, {50, 0, []int{1, 2, 4, 8, 16, 32, 50}}, {64, 0, []int{1, 2, 4, 8, 16, 32, 64}}, {50, 3, []int{1, 2, 3, 4, 8, 16, 32, 50}}} {
		if diff := cmp.Diff(tc.want, candidatePs(tc.n, tc.asked)); diff != "" {
			t.Errorf("N=%d (-want +got)\n%s", tc.n, diff)
		}
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
	got := HTML(md)
	_, body, _ := strings.Cut(got, "</style></head><body>\n")
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
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
