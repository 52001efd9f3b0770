package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hdlgen/hdlgen/buildflow"
	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/confusion"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/logreg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/tune"
)

// TestBuildReportMatchesCommands runs hdlgen build on the project's own CSV
// (label in the first column, string class names) and checks its REPORT.md:
// every number against the individual commands run by hand (the search's
// best, the chosen design's eval, train's and quantize's accuracies,
// predict --score's confusion matrix, the logistic-regression baseline
// fitted again by package logreg, power's LUT, FF, DSP, BRAM and
// LUT-equivalents of the chosen P with the error band the committed
// calibration measured over its P range, synth's LUTs and Fmax estimate, power's
// latency and energy), and that it lists every verification check with its
// vector count, the accuracy-against-size curve with every resource and the
// table over P with the chosen design marked; the board step's command
// emits the Zynq system. A second run skips
// every step and writes the same report; a third, after the design's
// readout ROM image was deleted, runs emit again (and the design verifies),
// where the old stamps skipped everything and reported PASS.
func TestBuildReportMatchesCommands(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Icarus, hwtest.Verilator)
	const csv = "../../examples/sensors.csv"
	dir := t.TempDir()
	out := filepath.Join(dir, "b")
	args := []string{"build", "--data", csv, "--label-column", "condition", "-o", out, "--grid", "small", "--vectors", "200"}
	code, stdout, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	reportPath := strings.TrimSpace(stdout)
	report, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	rep := string(report)
	find := func(re string) []string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(rep)
		if m == nil {
			t.Fatalf("REPORT.md lacks %s:\n%s", re, rep)
		}
		return m
	}
	trainCSV := filepath.Join(out, "data/train/sensors.csv")
	holdCSV := filepath.Join(out, "data/holdout/sensors.csv")

	// Each member's search, again by hand on the training share build wrote.
	searched := map[string]tune.Result{}
	// bitsOf: --bits 5 for a member whose width is a choice (the conj's and
	// the intconj's are their own).
	bitsOf := func(arch string) []string {
		if t, err := model.TraitsOf(model.Arch(arch)); err == nil && !t.ReadoutBits() {
			return nil
		}
		return []string{"--bits", "5"}
	}
	kappaOf := map[string]string{"conj": "D"}
	// selectOf: build's default --select for a member that chooses its
	// units (the conj).
	selectOf := func(arch string) []string {
		if t, err := model.TraitsOf(model.Arch(arch)); err == nil && t.Selects {
			return []string{"--select", strconv.Itoa(model.ConjSelect)}
		}
		return nil
	}
	for _, arch := range buildflow.FamilyMembers("") {
		opts := append(bitsOf(string(arch)), selectOf(string(arch))...)
		code, js, errs := run(t, append(append([]string{"search", "--data", trainCSV, "--arch", string(arch)}, opts...), "--grid", "small", "--json")...)
		if code != 0 {
			t.Fatalf("search --arch %s: exit %d: %s", arch, code, errs)
		}
		var sr tune.Result
		if err := json.Unmarshal([]byte(js), &sr); err != nil {
			t.Fatal(err)
		}
		find(regexp.QuoteMeta(fmt.Sprintf("`hdlgen search --arch %s` scored the small grid", strings.Join(append([]string{string(arch)}, selectOf(string(arch))...), " "))) + `[^;]*` +
			regexp.QuoteMeta(fmt.Sprintf("; its best was N=%d, %s=%d, λ=%g (%.4f ± %.4f)", sr.Config.N, cmp.Or(kappaOf[string(arch)], "κ"), sr.Config.Kappa, sr.Config.Lambda, sr.Validated.Mean, sr.Validated.Std)))
		searched[string(arch)] = sr
	}
	// The design: the curve's row marked chosen is the design's network, N,
	// κ, λ, within the tolerance; every row's resources are the analytic
	// model's.
	tol := find(`so every network and N with a validation accuracy of at least [0-9.]+ − [0-9.]+ = ([0-9.]+) is accepted`)[1]
	row := find(`\| (intrvfl2?|intconj|conj) \| (\d+) \| (\d+) \| ([0-9.e+]+) \| ([0-9.]+) \| yes \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| ([0-9.]+) \| (\d+) \| [^|]+ \| \*\*chosen\*\*`)
	arch, row := row[1], row[1:] // row[1…]: N, κ, λ, accuracy, P, …
	if row[4] < tol {
		t.Errorf("the chosen N's validation accuracy %s is below the accepted %s", row[4], tol)
	}
	var c tune.Config
	fmt.Sscan(row[1], &c.N)
	fmt.Sscan(row[2], &c.Kappa)
	fmt.Sscan(row[3], &c.Lambda)
	name := map[string]string{"intrvfl": "intRVFL", "intrvfl2": "two-layer intRVFL (intrvfl2)", "conj": "random conjunctions (conj)"}[arch]
	find(regexp.QuoteMeta(fmt.Sprintf("`sensors_top`: %s N=%d, %s=%d, λ=%g,", name, c.N, cmp.Or(kappaOf[arch], "κ"), c.Kappa, c.Lambda)))
	code, ej, errs := run(t, append(append(append([]string{"eval", "--data", trainCSV, "--arch", arch, "--n", row[1], "--lambda", row[3], "--kappa", row[2]}, bitsOf(arch)...), selectOf(arch)...), "--seeds", "1", "--json")...)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	var er tune.Result
	if err := json.Unmarshal([]byte(ej), &er); err != nil {
		t.Fatal(err)
	}
	find(regexp.QuoteMeta(fmt.Sprintf("validated again on the same folds (`hdlgen eval`): %.4f ± %.4f", er.Validated.Mean, er.Validated.Std)))
	chosenP := row[5]
	code, pwr, errs := run(t, "power", filepath.Join(out, "model.json"), "--parallel", chosenP, "--json")
	if code != 0 {
		t.Fatalf("power --parallel %s: exit %d: %s", chosenP, code, errs)
	}
	var pe power.Estimate
	if err := json.Unmarshal([]byte(pwr), &pe); err != nil {
		t.Fatal(err)
	}
	r := pe.Resources
	// The P table's row of the chosen P: LUT, FF, DSP, BRAM36 and LUT-equivalents.
	find(regexp.QuoteMeta(fmt.Sprintf("| %s | %d | %d | %d | %g | %.0f |", chosenP, r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36, buildflow.LUTEq(r))))
	// Beside the estimates, the error band measured over their P range by the
	// committed calibration (power.BandOf reads power/band_table.go, which
	// hwstudy's TestBandTable holds to results/hardware/calibration.json), or
	// that the design is outside every measured range.
	if b, ok := power.BandOf(pe.Design); ok {
		find(regexp.QuoteMeta(fmt.Sprintf("P %d…%d: %s", b.PMin, b.PMax, b.Text())))
	} else {
		find(regexp.QuoteMeta(fmt.Sprintf("P=%d (N=%d)", pe.Design.P(), pe.Design.N)) + `[^.]*their error is not known`)
	}
	find(`These counts are \*\*Yosys's\*\*`)

	// train and quantize on the original file, with their default held-out
	// split (the rows build held out).
	fl, ql := filepath.Join(dir, "f.json"), filepath.Join(dir, "q.json")
	code, _, terrs := run(t, append([]string{"train", "--data", csv, "--label-column", "condition", "--arch", arch, "--n", fmt.Sprint(c.N), "--lambda", fmt.Sprint(c.Lambda),
		"--kappa", fmt.Sprint(c.Kappa), "-o", fl}, selectOf(arch)...)...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, terrs)
	}
	tr := accuracyLine.FindAllStringSubmatch(terrs, -1)
	if len(tr) != 1 {
		t.Fatalf("accuracy table of train: %q", terrs)
	}
	// The hand-made integer model and its training and held-out accuracy:
	// quantize's 5-bit readout, or the conj's own 8-bit one that train wrote.
	bits, handAcc := "5", tr[0][2:4]
	if arch == string(model.Conj) {
		bits, ql = "8", fl
		find(regexp.QuoteMeta(fmt.Sprintf("| %s, float readout | — | — | — (its readout is always 8-bit integers) |", name)))
	} else {
		code, _, qerrs := run(t, "quantize", fl, "--bits", "5", "--data", csv, "--label-column", "condition", "-o", ql)
		if code != 0 {
			t.Fatalf("quantize: exit %d: %s", code, qerrs)
		}
		qr := accuracyLine.FindAllStringSubmatch(qerrs, -1)
		if len(qr) != 2 {
			t.Fatalf("accuracy table of quantize: %q", qerrs)
		}
		find(regexp.QuoteMeta(fmt.Sprintf("| %s, float readout | — | %s | %s |", name, tr[0][2], tr[0][3])))
		handAcc = qr[1][2:4]
	}
	hw := find(regexp.QuoteMeta("| "+name+", "+bits) + `-bit (rounded|GA-refined) integer readout \(the hardware\) \| [0-9.]+ ± [0-9.]+ \| ([0-9.]+) \| ([0-9.]+) \|`)
	if hw[1] == "rounded" && (hw[2] != handAcc[0] || hw[3] != handAcc[1]) {
		t.Errorf("the hardware's accuracies %s, %s; the hand-made model's %s, %s", hw[2], hw[3], handAcc[0], handAcc[1])
	}
	find(`180 rows for training, 60 held out`)

	// The confusion matrix: predict --score of the hand-made model on the
	// held-out rows (with a rounded readout: the deployed one).
	code, score, errs := run(t, "predict", filepath.Join(out, "model.json"), "--data", holdCSV, "--score")
	if code != 0 {
		t.Fatalf("predict --score: exit %d: %s", code, errs)
	}
	_, matrix, _ := strings.Cut(score, "\n")
	if !strings.Contains(rep, "```\n"+score+"```") {
		t.Errorf("REPORT.md lacks the confusion matrix\n%s", matrix)
	}
	if hw[1] == "rounded" {
		code, hand, _ := run(t, "predict", ql, "--data", holdCSV, "--score")
		if code != 0 || hand != score {
			t.Errorf("the hand-made model scores\n%s\nthe build's\n%s", hand, score)
		}
	}

	// The baseline, by hand: the logistic regression on the same folds of
	// the training file, fitted on every training row.
	train, held := readCSVFile(t, trainCSV), readCSVFile(t, holdCSV)
	folds, err := tune.Validation{Folds: 4}.Splits(train)
	if err != nil {
		t.Fatal(err)
	}
	scored, best, err := logreg.Validate(context.Background(), train, folds, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := logreg.Fit(context.Background(), train, nil, scored[best].Lambda)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i := range held.M() {
		if train.ClassNames[lm.Predict(held.Row(i))] == held.ClassNames[held.Y[i]] {
			right++
		}
	}
	find(regexp.QuoteMeta(fmt.Sprintf("| baseline: logistic regression, λ=%g | %.4f ± %.4f | %.4f | %.4f |", scored[best].Lambda, scored[best].Validated.Mean,
		scored[best].Validated.Std, float64(lm.Correct(train, nil))/float64(train.M()), float64(right)/float64(held.M()))))
	find(`multinomial logistic regression`)

	// Resources, Fmax, latency and energy: synth and power on the design.
	code, sj, errs := run(t, "synth", filepath.Join(out, "hw"), "--json")
	if code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errs)
	}
	var syn struct {
		synth.Report
		Timing struct {
			FmaxMHz float64 `json:"fmax_mhz"`
		} `json:"timing"`
	}
	if err := json.Unmarshal([]byte(sj), &syn); err != nil {
		t.Fatal(err)
	}
	code, pj, errs := run(t, "power", filepath.Join(out, "hw"), "--json")
	if code != 0 {
		t.Fatalf("power: exit %d: %s", code, errs)
	}
	var e power.Estimate
	if err := json.Unmarshal([]byte(pj), &e); err != nil {
		t.Fatal(err)
	}
	find(regexp.QuoteMeta(fmt.Sprintf("| LUT (LUT6 sites) | %d | 53200 | %.2f %% |", syn.EstimatedLCs, 100*float64(syn.EstimatedLCs)/53200)))
	find(regexp.QuoteMeta(fmt.Sprintf("| FF | %d | 106400 |", syn.FFs)))
	find(regexp.QuoteMeta(fmt.Sprintf("| Fmax (estimated) | %.1f MHz", syn.Timing.FmaxMHz)))
	find(regexp.QuoteMeta(fmt.Sprintf("Latency: %d cycles", e.Cycles)))
	find(regexp.QuoteMeta(fmt.Sprintf("total %s", power.FormatEnergy(e.TotalJ))))

	// Every verification check, with its vector count.
	icarus := find(`Icarus \((\d+) vectors\)`)[1]
	for _, re := range []string{
		`\| model \| both \| ` + "`hw`" + ` \| 200 \| — \| pass \|`,
		`\| lint \| stream \| ` + "`hw`" + ` \| — \| — \| pass \|`,
		`\| lint \| axis \| ` + "`hw`" + ` \| — \| — \| pass \|`,
		`\| Verilator \| stream \| ` + "`hw`" + ` \| 200 \| \d+ \| pass \|`,
		`\| Verilator \| axis \| ` + "`hw`" + ` \| 200 \| \d+ \| pass \|`,
		`\| model \| both \| ` + "`verify/icarus`" + ` \| ` + icarus + ` \| — \| pass \|`,
		`\| Icarus \| stream \| ` + "`verify/icarus`" + ` \| ` + icarus + ` \| \d+ \| pass \|`,
		`\| Icarus \| axis \| ` + "`verify/icarus`" + ` \| ` + icarus + ` \| \d+ \| pass \|`,
		`Result: PASS: lint, Verilator \(200 vectors\) and Icarus \(` + icarus + ` vectors\)`,
	} {
		find(re)
	}

	// The curve: one row per member and N of its search, its accuracy the
	// search's, with the resources of its design.
	for arch, sr := range searched {
		if len(sr.Curve) != 3 {
			t.Fatalf("the search of %s has a curve of %d points, want one per N of the small grid", arch, len(sr.Curve))
		}
		for _, pt := range sr.Curve {
			find(fmt.Sprintf(`\| %s \| %d \| %d \| %g \| %.4f \| (yes|no) \| \d+ \| \d+ \| \d+ \| \d+ \| [0-9.]+ \| \d+ \|`, arch, pt.N, pt.Kappa, pt.Lambda, pt.Accuracy))
		}
	}
	find(`!\[accuracy against N\]\(accuracy-vs-n.svg\)`)
	// The table over P: the chosen design marked, its P the design's, its
	// energy within 10 % of every feasible row's.
	chosen := find(`(?m)^\| (\d+) \| \d+ \| \d+ \| \d+ \| [0-9.]+ \| \d+ \| [^|]+ \| [^|]+ \| ([^|]+) \| [^|]+ \| \d+ MHz \| \*\*chosen\*\*`)
	if chosen[1] != fmt.Sprint(e.Design.P()) || chosen[1] != chosenP {
		t.Errorf("the table marks P=%s chosen, the design has P=%d, the curve P=%s", chosen[1], e.Design.P(), chosenP)
	}
	for _, m := range regexp.MustCompile(`(?m)^\| \d+ \| \d+ \| \d+ \| \d+ \| [0-9.]+ \| \d+ \| [^|]+ \| [^|]+ \| ([^|]+) \| [^|]+ \| \d+ MHz \| ([^|]*)\|`).FindAllStringSubmatch(rep, -1) {
		if !strings.Contains(m[2], "does not") && !strings.Contains(m[2], "Fmax") && lessEnergy(m[1]+"*1.1", chosen[2]) {
			t.Errorf("a row has less than 1/1.1 of the chosen one's dynamic energy (%s against %s)", m[1], chosen[2])
		}
	}

	// The step to the board: the report's command emits the Zynq system.
	zynq := find("`(hdlgen emit model.json --system zynq [^`]+)`")[1]
	zargs := strings.Fields(zynq)[1:]
	for i, a := range zargs {
		if a == "model.json" || strings.HasPrefix(a, "data/") || i > 0 && zargs[i-1] == "-o" {
			zargs[i] = filepath.Join(out, a)
		}
	}
	if code, _, errs := run(t, zargs...); code != 0 {
		t.Errorf("%s: exit %d: %s", zynq, code, errs)
	} else if _, err := os.Stat(filepath.Join(out, "zynq", "driver")); err != nil {
		t.Errorf("%s wrote no driver: %v", zynq, err)
	}
	find(`run \*\*` + "`./hdlgen-run selftest`" + `\*\*`)

	// The HTML page and the pictures.
	page, err := os.ReadFile(filepath.Join(out, "REPORT.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "<details><summary>The same matrix as text</summary>"; !strings.Contains(string(page), want) {
		t.Errorf("REPORT.html lacks %s", want)
	}
	for _, name := range []string{"confusion.svg", "accuracy-vs-n.svg", "accuracy-vs-luts.svg"} {
		svg, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || xml.Unmarshal(svg, new(struct{})) != nil {
			t.Errorf("%s: %v, or not XML", name, err)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(out, "hw", "README.md"))
	if !strings.Contains(string(readme), "the host encodes") {
		t.Errorf("hw/README.md does not say who encodes the levels:\n%s", readme)
	}

	// Resumable: nothing reruns, the same report.
	code, _, errs = run(t, args...)
	if code != 0 {
		t.Fatalf("build again: exit %d: %s", code, errs)
	}
	if n, want := strings.Count(errs, "unchanged, skipped"), 17+len(buildflow.FamilyMembers("")); n != want { // one search per member
		t.Errorf("second build skipped %d steps, want %d:\n%s", n, want, errs)
	}
	again, _ := os.ReadFile(reportPath)
	if string(again) != rep {
		t.Error("the second build wrote a different REPORT.md")
	}

	// A deleted output: emit runs again, the design is whole and verifies.
	mems, _ := filepath.Glob(filepath.Join(out, "hw", "mem", "*_wout.mem"))
	if len(mems) != 1 {
		t.Fatalf("readout ROM images %v", mems)
	}
	orig, err := os.ReadFile(mems[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mems[0]); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, args...)
	if code != 0 {
		t.Fatalf("build after deleting %s: exit %d: %s", mems[0], code, errs)
	}
	if !strings.Contains(errs, "emit: its output hw/mem/sensors_wout.mem missing: running it again") {
		t.Errorf("emit did not run again after its output was deleted:\n%s", errs)
	}
	if back, err := os.ReadFile(mems[0]); err != nil || !bytes.Equal(back, orig) {
		t.Errorf("%s after the rebuild: %v, equal to the original %v", mems[0], err, bytes.Equal(back, orig))
	}
	// Icarus reads the ROM images (lint and the model step do not).
	if code, vout, verrs := run(t, "verify", filepath.Join(out, "hw"), "--steps", "icarus", "--targets", "stream"); code != 0 {
		t.Errorf("verify after the rebuild: exit %d\n%s%s", code, vout, verrs)
	}
}

// lessEnergy reports whether the energy a (e.g. "3.09 nJ", or "3.09 nJ*1.1"
// for 1.1 times it) is below b.
func lessEnergy(a, b string) bool {
	scale := 1.0
	if v, f, ok := strings.Cut(a, "*"); ok {
		a = v
		fmt.Sscan(f, &scale)
	}
	pa, err1 := power.ParseEnergy(strings.ReplaceAll(strings.TrimSpace(a), " ", ""))
	pa *= scale
	pb, err2 := power.ParseEnergy(strings.ReplaceAll(strings.TrimSpace(b), " ", ""))
	return err1 == nil && err2 == nil && pa < pb
}

// lineWatch is an App.Err that calls f with every complete line written.
type lineWatch struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	part string
	f    func(string)
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.part += string(p)
	for {
		line, rest, ok := strings.Cut(w.part, "\n")
		if !ok {
			break
		}
		w.part = rest
		w.f(line)
	}
	return len(p), nil
}

func (w *lineWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestBuildOwnWidthMembers: a member with a readout width of its own (the
// conj, the intconj) is searched, deployed and reported at that width, with
// no float row, no --bits and no quantize command, and the hardware README
// gives the member's own input encoding.
func TestBuildOwnWidthMembers(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Verilator)
	for _, tc := range []struct {
		arch    model.Arch
		network string
		inputs  []string // the hardware README's input encoding
	}{
		{model.Conj, "random conjunctions (conj)", []string{"an integer v in 0…255, 8 bits", "v = min(255, floor(u·256 + 0.5))"}},
		{model.IntConj, "intRVFL neurons and conjunctions (intconj)", []string{"v = floor(u·"}},
	} {
		t.Run(string(tc.arch), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "b")
			code, stdout, errs := run(t, "build", "--data", "../../examples/iris.csv", "-o", out, "--grid", "small", "--vectors", "100", "--family", string(tc.arch), "--bits", "4",
				"--verify-steps", "model,lint,verilator")
			if code != 0 {
				t.Fatalf("build --family %s: exit %d: %s", tc.arch, code, errs)
			}
			if !strings.Contains(errs, "(8-bit integer readout; logistic-regression baseline") || !strings.Contains(errs, "verification: PARTIAL (see --verify-steps)") {
				t.Errorf("summary line: %s", errs)
			}
			report, err := os.ReadFile(strings.TrimSpace(stdout))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				tc.network + " N=",
				", 8-bit rounded readout, P=",
				"| " + tc.network + ", float readout | — | — | — (its readout is always 8-bit integers) |",
				"the ridge solution rounded to the " + string(tc.arch) + "'s own 8 bits by `hdlgen train`",
				"(by build: model-float.json already holds the 8-bit readout `hdlgen train` rounded; copied to model.json)",
			} {
				if !strings.Contains(string(report), want) {
					t.Errorf("REPORT.md lacks %q", want)
				}
			}
			if regexp.MustCompile(`--arch ` + string(tc.arch) + ` --bits|hdlgen quantize`).Match(report) {
				t.Errorf("REPORT.md gives the %s --bits or a quantize command", tc.arch)
			}
			m, err := model.ReadFile(filepath.Join(out, "model.json"))
			if err != nil {
				t.Fatal(err)
			}
			if m.Arch() != tc.arch || m.Readout == nil || m.Readout.Bits != model.ConjReadoutBits {
				t.Errorf("model.json: %s with readout %+v, want a %s with its %d-bit readout", m.Arch(), m.Readout, tc.arch, model.ConjReadoutBits)
			}
			hw, err := os.ReadFile(filepath.Join(out, "hw", "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.inputs {
				if !strings.Contains(string(hw), want) {
					t.Errorf("hw/README.md lacks %q:\n%s", want, hw)
				}
			}
		})
	}
}

// runUntil runs hdlgen with args and cancels it (as an interrupt would) at
// the first stderr line for which stop reports true.
func runUntil(t *testing.T, stop func(line string) bool, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errw := &lineWatch{f: func(l string) {
		if stop(l) {
			cancel()
		}
	}}
	app := &App{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: errw, Getenv: os.Getenv, ctx: ctx}
	root := NewRootCmd(app)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return app.exitCode(err), errw.String()
}

// TestBuildResumesAnInterruptedSearch: a build interrupted in its search
// keeps the finished parts (folds × N), and the next build scores only the
// others and chooses what an uninterrupted search chooses.
func TestBuildResumesAnInterruptedSearch(t *testing.T) {
	const csv = "../../examples/sensors.csv"
	out := filepath.Join(t.TempDir(), "b")
	args := []string{"build", "--data", csv, "--label-column", "condition", "-o", out, "--grid", "small", "--workers", "1", "--readout", "rounded"}
	parts := 0
	code, errs := runUntil(t, func(l string) bool {
		if strings.HasPrefix(l, "search sensors intrvfl: split") {
			parts++
		}
		return parts == 5
	}, args...)
	if code != exitCanceled {
		t.Fatalf("interrupted build: exit %d, want %d:\n%s", code, exitCanceled, errs)
	}
	kept := regexp.MustCompile(`(\d+)/12 parts`).FindAllStringSubmatch(errs, -1)
	if len(kept) < 5 {
		t.Fatalf("the interrupted search finished %d parts:\n%s", len(kept), errs)
	}
	finished := kept[len(kept)-1][1]
	// The rerun: stopped once the search is done (the rest needs the simulators).
	code, errs = runUntil(t, func(l string) bool { return strings.HasPrefix(l, "[3/13] baseline") }, args...)
	if code != exitCanceled {
		t.Fatalf("second build: exit %d:\n%s", code, errs)
	}
	if want := fmt.Sprintf("%s of 12 parts kept from an earlier run", finished); !strings.Contains(errs, want) {
		t.Errorf("the rerun does not say %q:\n%s", want, errs)
	}
	var got, want tune.Result
	if err := readJSONFile(filepath.Join(out, "search.json"), &got); err != nil {
		t.Fatal(err)
	}
	code, js, serrs := run(t, "search", "--data", filepath.Join(out, "data/train/sensors.csv"), "--arch", "intrvfl", "--bits", "5", "--grid", "small", "--json")
	if code != 0 {
		t.Fatalf("search: %s", serrs)
	}
	if err := json.Unmarshal([]byte(js), &want); err != nil {
		t.Fatal(err)
	}
	if got.Config != want.Config || got.Validated.Mean != want.Validated.Mean {
		t.Errorf("resumed search chose %+v (%.4f), an uninterrupted one %+v (%.4f)", got.Config, got.Validated.Mean, want.Config, want.Validated.Mean)
	}
}

func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// TestBuildGuardsItsFolder: build refuses a folder with someone else's
// files (they stay as they were) unless --force, refuses a folder another
// build holds (its lock), and refuses at once, before any work, a folder
// whose path make cannot work in.
func TestBuildGuardsItsFolder(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine")
	os.MkdirAll(filepath.Join(mine, "data"), 0o755)
	files := map[string]string{"model.json": "my model", "REPORT.md": "my notes", "data/train.csv": "a,b\n1,x\n"}
	for name, text := range files {
		os.WriteFile(filepath.Join(mine, name), []byte(text), 0o644)
	}
	code, _, errs := run(t, "build", "--data", "example:iris", "-o", mine, "--grid", "small")
	if code != exitUsage || !strings.Contains(errs, "was not written by hdlgen build") || !strings.Contains(errs, "--force") {
		t.Errorf("build into a user's folder: exit %d, %s", code, errs)
	}
	for name, text := range files {
		if b, _ := os.ReadFile(filepath.Join(mine, name)); string(b) != text {
			t.Errorf("%s changed to %q", name, b)
		}
	}
	// With --force it goes ahead (stopped here after the split).
	code, errs = runUntil(t, func(l string) bool { return strings.HasPrefix(l, "[1/13] split: done") },
		"build", "--data", "example:iris", "-o", mine, "--grid", "small", "--force")
	if code != exitCanceled || !strings.Contains(errs, "split: done") {
		t.Errorf("build --force: exit %d, %s", code, errs)
	}

	// Another build holds the folder.
	held := filepath.Join(dir, "held")
	lock, err := jobs.LockDir(held, jobs.Shard{}, "hdlgen build --data other.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	code, _, errs = run(t, "build", "--data", "example:iris", "-o", held, "--grid", "small")
	if code != exitError || !strings.Contains(errs, "in use by another run") || !strings.Contains(errs, "other.csv") {
		t.Errorf("build into a locked folder: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(held, ".build")); err == nil {
		t.Error("the refused build wrote into the locked folder")
	}

	// A path make cannot take: refused before the search.
	spaced := filepath.Join(dir, "dir with space")
	code, _, errs = run(t, "build", "--data", "example:iris", "-o", spaced)
	if code != exitUsage || !strings.Contains(errs, `holds " "`) || strings.Contains(errs, "search") {
		t.Errorf("build -o %q: exit %d, %s", spaced, code, errs)
	}
	if _, err := os.Stat(spaced); err == nil {
		t.Errorf("the refused build created %s", spaced)
	}
}

func TestBuildBadInput(t *testing.T) {
	dir := t.TempDir()
	inside := filepath.Join(dir, "b", "data.csv")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	os.WriteFile(inside, []byte("a,b,c\n1,2,x\n3,4,y\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"label first", []string{"--data", "../../examples/sensors.csv"}, exitError, "--label-column condition"},
		{"parallel and latency", []string{"--data", "example:iris", "--parallel", "2", "--latency-us", "1"}, exitUsage, "give one or the other"},
		{"parallel and optimize", []string{"--data", "example:iris", "--parallel", "2", "--optimize", "area"}, exitUsage, "give one or the other"},
		{"bad budget", []string{"--data", "example:iris", "--budget", "3 bananas"}, exitUsage, "--budget"},
		{"bad grid", []string{"--data", "example:iris", "--grid", "huge"}, exitUsage, "--grid"},
		{"holdout", []string{"--data", "example:iris", "--holdout", "1"}, exitUsage, "--holdout"},
		{"data inside out", []string{"--data", inside, "-o", filepath.Join(dir, "b")}, exitUsage, "holds the input --data"},
		{"optimize", []string{"--data", "example:iris", "--optimize", "speed"}, exitUsage, "--optimize"},
		{"readout", []string{"--data", "example:iris", "--readout", "best"}, exitUsage, "--readout"},
		{"partial config", []string{"--data", "example:iris", "--n", "50"}, exitUsage, "give all three or none"},
		{"config and grid", []string{"--data", "example:iris", "--n", "50", "--lambda", "4", "--kappa", "3", "--grid", "paper"}, exitUsage, "do not apply"},
		{"name", []string{"--data", "example:iris", "--name", "a/b"}, exitUsage, "--name"},
		{"icarus vectors", []string{"--data", "example:iris", "--vectors", "10", "--icarus-vectors", "20"}, exitUsage, "--icarus-vectors"},
		{"select", []string{"--data", "example:iris", "--select", "1"}, exitUsage, "--select 1: want 2…64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tc.name, " ", "-"))
			args := append([]string{"build", "-o", out}, tc.args...)
			code, _, errs := run(t, args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed build created %s", out)
			}
		})
	}
}

// TestScoreJSON: predict --score --json gives the values of the text form.
func TestScoreJSON(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "30", "--bits", "5", "-o", m); code != 0 {
		t.Fatal(errs)
	}
	csv := filepath.Join(dir, "iris.csv")
	b, _ := os.ReadFile("../../examples/iris.csv")
	os.WriteFile(csv, b, 0o644)
	code, js, errs := run(t, "predict", m, "--data", csv, "--score", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var s confusion.Score
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := s.Matrix().WriteText(&text); err != nil {
		t.Fatal(err)
	}
	_, want, _ := run(t, "predict", m, "--data", csv, "--score")
	if text.String() != want || s.Total != 150 || s.Accuracy != float64(s.Correct)/150 {
		t.Errorf("JSON %+v renders\n%s\nthe text form is\n%s", s, text.String(), want)
	}
	if code, _, errs := run(t, "predict", m, "--data", csv, "--json"); code != exitUsage || !strings.Contains(errs, "--score") {
		t.Errorf("--json without --score: exit %d, %s", code, errs)
	}
}

// TestBuildChoicesSeeOnlyTrainingRows: every step that chooses or fits —
// the search, the validation of the chosen design with its GA/rounding
// choice, the train and the quantize steps — is given the training rows
// only (its command names no held-out file), and the validate step records
// the readout choice it made on its folds.
func TestBuildChoicesSeeOnlyTrainingRows(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b")
	code, errs := runUntil(t, func(l string) bool { return strings.HasPrefix(l, "[8/13] score") },
		"build", "--data", "../../examples/sensors.csv", "--label-column", "condition", "-o", out, "--grid", "small", "--readout", "auto")
	if code != exitCanceled {
		t.Fatalf("build: exit %d:\n%s", code, errs)
	}
	for _, step := range []string{"search", "validate", "train", "quantize"} {
		var rec struct {
			Command string `json:"command"`
		}
		if err := readJSONFile(filepath.Join(out, ".build", "steps", step+".json"), &rec); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(rec.Command, "data/train/sensors.csv") && step != "quantize" || strings.Contains(rec.Command, "holdout/") {
			t.Errorf("step %s: %s", step, rec.Command)
		}
	}
	var sr tune.Result
	if err := readJSONFile(filepath.Join(out, "validate.json"), &sr); err != nil {
		t.Fatal(err)
	}
	if rc := sr.Readout; rc == nil || rc.ValRows != 180 || (rc.Chosen != tune.ReadoutRounded && rc.Chosen != tune.ReadoutGA) {
		t.Errorf("the validate step's readout choice %+v, want one made on the 180 training rows", rc)
	}
}

// readCSVFile reads a labelled CSV file (label last).
func readCSVFile(t *testing.T, path string) *dataset.Dataset {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.ReadCSV(bytes.NewReader(b), path, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPredictWarnsOfClampedValues: values outside the training range are
// counted, per feature, and the warning says they are clamped; in range,
// no warning.
func TestPredictWarnsOfClampedValues(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "../../examples/sensors.csv", "--label-column", "condition", "--n", "20", "--lambda", "1", "--kappa", "1", "-o", m); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	src, err := os.ReadFile("../../examples/sensors.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	in := filepath.Join(dir, "in.csv")
	os.WriteFile(in, []byte(strings.Join(lines[:6], "\n")+"\n"), 0o644)
	if code, _, errs := run(t, "predict", m, "--data", in, "--score"); code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("in range: exit %d, %s", code, errs)
	}
	// Two values of the third column far outside the range, in two rows.
	for _, i := range []int{2, 4} {
		f := strings.Split(lines[i], ",")
		f[2] = "1e9"
		lines[i] = strings.Join(f, ",")
	}
	os.WriteFile(in, []byte(strings.Join(lines[:6], "\n")+"\n"), 0o644)
	header := strings.Split(lines[0], ",")
	for _, args := range [][]string{{"predict", m, "--data", in, "--score"}} {
		_, _, errs := run(t, args...)
		if want := fmt.Sprintf("2 values in 2 of 5 rows lie outside the training rows' range and are clamped to it (as the host encoding of the hardware does): %s 2", header[2]); !strings.Contains(errs, want) {
			t.Errorf("%v: stderr %q, want %q", args, errs, want)
		}
	}
}
