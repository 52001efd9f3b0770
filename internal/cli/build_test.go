package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/study/tune"
	"github.com/hdlgen/hdlgen/synth"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// TestBuildReportMatchesCommands runs hdlgen build on the project's own CSV
// (label in the first column, string class names) and checks every number
// of its REPORT.md against the individual commands run by hand: the search's
// configuration, train's and quantize's accuracies on the original file with
// their default held-out split (the same rows build held out), predict
// --score's confusion matrix, synth's LUTs and power's latency and energy.
// A second run must skip every step and write the same report.
func TestBuildReportMatchesCommands(t *testing.T) {
	hwtest.Require(t, hwtest.Yosys, hwtest.Icarus, hwtest.VerilatorLint)
	const csv = "../../examples/sensors.csv"
	dir := t.TempDir()
	out := filepath.Join(dir, "b")
	args := []string{"build", "--data", csv, "--label-column", "condition", "-o", out, "--grid", "small",
		"--verify-steps", "model,lint,icarus", "--vectors", "50", "--parallel", "2"}
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

	// The search, again by hand on the training share build wrote.
	code, js, errs := run(t, "search", "--data", filepath.Join(out, "data/train.csv"), "--arch", "intrvfl", "--bits", "5", "--grid", "small", "--json")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	var sr tune.Result
	if err := json.Unmarshal([]byte(js), &sr); err != nil {
		t.Fatal(err)
	}
	c := sr.Config
	find(regexp.QuoteMeta(fmt.Sprintf("intRVFL with N=%d hidden neurons, κ=%d, λ=%g (identity penalty)", c.N, c.Kappa, c.Lambda)))
	find(regexp.QuoteMeta(fmt.Sprintf("rounded readout on the training rows: %.4f ± %.4f", sr.Validated.Mean, sr.Validated.Std)))

	// train and quantize on the original file, with their default held-out split.
	fl, ql := filepath.Join(dir, "f.json"), filepath.Join(dir, "q.json")
	code, _, terrs := run(t, "train", "--data", csv, "--label-column", "condition", "--n", fmt.Sprint(c.N), "--lambda", fmt.Sprint(c.Lambda),
		"--kappa", fmt.Sprint(c.Kappa), "-o", fl)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, terrs)
	}
	code, _, qerrs := run(t, "quantize", fl, "--bits", "5", "--data", csv, "--label-column", "condition", "-o", ql)
	if code != 0 {
		t.Fatalf("quantize: exit %d: %s", code, qerrs)
	}
	tr := accuracyLine.FindAllStringSubmatch(terrs, -1)
	qr := accuracyLine.FindAllStringSubmatch(qerrs, -1)
	if len(tr) != 1 || len(qr) != 2 {
		t.Fatalf("accuracy tables: train %q, quantize %q", terrs, qerrs)
	}
	find(regexp.QuoteMeta(fmt.Sprintf("| float | %s | %s |", tr[0][2], tr[0][3])))
	find(regexp.QuoteMeta(fmt.Sprintf("| 5-bit integer (the hardware) | %s | %s |", qr[1][2], qr[1][3])))
	find(`180 rows for training, 60 held out`)

	// The confusion matrix: predict --score of the hand-made model on the held-out rows.
	code, score, errs := run(t, "predict", ql, "--data", filepath.Join(out, "data/holdout.csv"), "--score")
	if code != 0 {
		t.Fatalf("predict --score: exit %d: %s", code, errs)
	}
	_, matrix, _ := strings.Cut(score, "\n")
	if !strings.Contains(rep, "```\n"+matrix+"```") {
		t.Errorf("REPORT.md lacks the confusion matrix\n%s", matrix)
	}

	// Resources, latency and energy: synth and power on the design.
	code, sj, errs := run(t, "synth", filepath.Join(out, "hw"), "--json")
	if code != 0 {
		t.Fatalf("synth: exit %d: %s", code, errs)
	}
	var syn synth.Report
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
	find(regexp.QuoteMeta(fmt.Sprintf("Latency: %d cycles", e.Cycles)))
	find(regexp.QuoteMeta(fmt.Sprintf("total %s", power.FormatEnergy(e.TotalJ))))
	find(`estimated by hdlgen's power model`)
	find(`icarus/stream +pass`)
	if e.Design.P != 2 || e.Design.N != c.N {
		t.Errorf("design %s, want N=%d P=2", e.Design, c.N)
	}

	// The HTML page and the confusion-matrix plot.
	page, err := os.ReadFile(filepath.Join(out, "REPORT.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`<td>5-bit integer (the hardware)</td><td class="r">%s</td><td class="r">%s</td>`, qr[1][2], qr[1][3]); !strings.Contains(string(page), want) {
		t.Errorf("REPORT.html lacks %s", want)
	}
	svg, err := os.ReadFile(filepath.Join(out, "confusion.svg"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(score, "\n")
	if err := xml.Unmarshal(svg, new(struct{})); err != nil || !strings.Contains(string(svg), first) {
		t.Errorf("confusion.svg: %v, lacks %q", err, first)
	}

	// Resumable: nothing reruns, the same report.
	code, _, errs = run(t, args...)
	if code != 0 {
		t.Fatalf("build again: exit %d: %s", code, errs)
	}
	if n := strings.Count(errs, "unchanged, skipped"); n != 12 {
		t.Errorf("second build skipped %d steps, want 12:\n%s", n, errs)
	}
	again, _ := os.ReadFile(reportPath)
	if string(again) != rep {
		t.Error("the second build wrote a different REPORT.md")
	}

	// --latency-us chooses P: the fewest LUTs among the P = 1, 2, 4, …, N
	// whose latency (hdlgen power model.json --parallel P) meets it. The
	// limit is P=4's latency, so P=1 and P=2 miss it.
	lat := func(par int) power.Estimate {
		t.Helper()
		code, pj, errs := run(t, "power", filepath.Join(out, "model.json"), "--parallel", fmt.Sprint(par), "--json")
		if code != 0 {
			t.Fatalf("power --parallel %d: exit %d: %s", par, code, errs)
		}
		var e power.Estimate
		if err := json.Unmarshal([]byte(pj), &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	limit := lat(4).LatencyS * 1e6
	want, wantLUT := 0, 0
	for par := 1; ; par *= 2 {
		par = min(par, c.N)
		if e := lat(par); e.LatencyS*1e6 <= limit && (want == 0 || e.Resources.LUTs < wantLUT) {
			want, wantLUT = par, e.Resources.LUTs
		}
		if par == c.N {
			break
		}
	}
	sized := append(args[:len(args)-2:len(args)-2], "--latency-us", fmt.Sprint(limit))
	code, _, errs = run(t, sized...)
	if code != 0 {
		t.Fatalf("build --latency-us: exit %d: %s", code, errs)
	}
	if n := strings.Count(errs, "unchanged, skipped"); n != 8 {
		t.Errorf("build --latency-us skipped %d steps, want the 8 before sizing:\n%s", n, errs)
	}
	report, _ = os.ReadFile(reportPath)
	rep = string(report)
	find(regexp.QuoteMeta(fmt.Sprintf("| %d | %d |", want, wantLUT)) + `[^\n]*yes \(chosen\)`)
	find(regexp.QuoteMeta(fmt.Sprintf("b=5 P=%d)", want)))
	if want == 1 || want == 2 {
		t.Errorf("P=%d meets P=4's latency: the limit does not constrain", want)
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
		{"bad budget", []string{"--data", "example:iris", "--budget", "3 bananas"}, exitUsage, "--budget"},
		{"bad grid", []string{"--data", "example:iris", "--grid", "huge"}, exitUsage, "--grid"},
		{"holdout", []string{"--data", "example:iris", "--holdout", "1"}, exitUsage, "--holdout"},
		{"data inside out", []string{"--data", inside, "-o", filepath.Join(dir, "b")}, exitUsage, "holds the input --data"},
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
