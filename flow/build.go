package flow

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/study/tune"
)

// Runner runs one hdlgen command (args without the program name), writing
// its results to stdout and its progress to stderr.
type Runner func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// Options configure Run.
type Options struct {
	Data        string  // the user's CSV file
	Source      []byte  // its bytes, when the caller has read them (nil: read Data)
	LabelColumn string  // its label column: name or 1-based number; "" is the last
	Dir         string  // output directory
	Bits        int     // readout bits (default 5)
	Parallel    int     // P of the design (default 1; chosen by the constraints when any is set)
	LatencyS    float64 // constraint: latency ≤ LatencyS seconds (0: none)
	MaxLUTs     int     // constraint: LUTs (analytic estimate) ≤ MaxLUTs (0: none)
	BudgetJ     float64 // constraint: budgeted energy per classification ≤ BudgetJ (0: none)
	Holdout     float64 // share of each class held out (default 0.25)
	SplitSeed   uint64  // seed of the held-out split
	Seed        uint64  // seed of the network
	Win         string  // W_in source: "" or "stored" (a ROM), "lfsr" (generated on chip)
	Grid        string  // search grid: small, paper or wide (default wide)
	Folds       int     // search: k of k-fold on the training share (default 4)
	Vectors     int     // test vectors of emit (default 1000)
	VerifySteps string  // verify --steps ("" all)
	Program     string  // the program name in the report's commands (default hdlgen)
	Run         Runner
	Progress    io.Writer // step lines; nil discards
}

func (o *Options) defaults() {
	if o.Bits == 0 {
		o.Bits = 5
	}
	if o.Parallel == 0 {
		o.Parallel = 1
	}
	if o.Holdout == 0 {
		o.Holdout = 0.25
	}
	if o.Grid == "" {
		o.Grid = "wide"
	}
	if o.Folds == 0 {
		o.Folds = tune.DefaultFolds
	}
	if o.Vectors == 0 {
		o.Vectors = 1000
	}
	if o.Program == "" {
		o.Program = "hdlgen"
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
}

// Step is one finished step of a build.
type Step struct {
	Name    string
	Command string  // the command line, "" for the split (done by build itself)
	Skipped bool    // unchanged since the last run
	Seconds float64 // wall time (0 when skipped)
}

// Result is what Run did and where the report is.
type Result struct {
	Steps  []Step
	Report string // DIR/REPORT.md
	Facts  Facts
}

// Paths of a build directory.
const (
	stampDir     = ".build"
	logDir       = "logs"
	trainCSV     = "data/train.csv"
	holdoutCSV   = "data/holdout.csv"
	searchJSON   = "search.json"
	floatModel   = "model-float.json"
	intModel     = "model.json"
	hwDir        = "hw"
	ReportName   = "REPORT.md"
	ReportHTML   = "REPORT.html"
	ConfusionSVG = "confusion.svg"
)

// runner carries a build's state from step to step.
type runner struct {
	o     Options
	ctx   context.Context
	key   string // the last step's key
	steps []Step
	n     int // steps in total
}

// stepNames are the steps in order (for progress: "[i/n]").
var stepNames = []string{"split", "search", "train", "quantize", "score", "size", "emit", "verify", "synth", "power"}

// Run builds the design of o.Data into o.Dir and writes the report.
func Run(ctx context.Context, o Options) (*Result, error) {
	o.defaults()
	if o.Run == nil {
		panic("flow: Options.Run is nil")
	}
	if o.Dir == "" {
		return nil, errors.New("flow: no output directory")
	}
	for _, d := range []string{o.Dir, filepath.Join(o.Dir, stampDir), filepath.Join(o.Dir, logDir), filepath.Join(o.Dir, "data")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("flow: %w", err)
		}
	}
	r := &runner{o: o, ctx: ctx, n: len(stepNames)}
	p := func(name string) string { return filepath.Join(o.Dir, name) }

	// 1. split
	src := o.Source
	if src == nil {
		var err error
		if src, err = os.ReadFile(o.Data); err != nil {
			return nil, fmt.Errorf("flow: --data: %w", err)
		}
	}
	splitKey := fmt.Sprintf("split %s label=%q holdout=%g seed=%d", hash(src), o.LabelColumn, o.Holdout, o.SplitSeed)
	var facts Facts
	if err := r.internal("split", splitKey, []string{p(trainCSV), p(holdoutCSV)}, func() error {
		return writeSplit(o, src, p(trainCSV), p(holdoutCSV))
	}); err != nil {
		return nil, err
	}
	d, err := dataset.ReadCSV(bytes.NewReader(src), o.Data, dataset.CSVOptions{LabelColumn: o.LabelColumn})
	if err != nil {
		return nil, err
	}
	facts.Data = tune.DescribeData(o.Data, src, d)
	facts.LabelWarnings = dataset.LabelWarnings(d)

	// 2. search
	bits := strconv.Itoa(o.Bits)
	// --win joins the commands only when it is not the default, so the
	// commands (and the steps' keys) of a stored-W_in build are unchanged.
	var win []string
	if o.Win != "" && o.Win != "stored" {
		win = []string{"--win", o.Win}
	}
	if err := r.command("search", append([]string{"search", "--data", p(trainCSV), "--arch", "intrvfl", "--bits", bits, "--grid", o.Grid,
		"--folds", strconv.Itoa(o.Folds), "--seed", fmt.Sprint(o.Seed), "-o", p(searchJSON)}, win...), "", p(searchJSON)); err != nil {
		return nil, err
	}
	var sr tune.Result
	if err := readJSON(p(searchJSON), &sr); err != nil {
		return nil, err
	}
	facts.Search = sr
	c := sr.Config

	// 3. train (float readout), 4. quantize
	if err := r.command("train", append([]string{"train", "--data", p(trainCSV), "--test", p(holdoutCSV), "--arch", "intrvfl",
		"--n", strconv.Itoa(c.N), "--lambda", strconv.FormatFloat(c.Lambda, 'g', -1, 64), "--kappa", strconv.Itoa(c.Kappa),
		"--regularizer", c.Regularizer, "--seed", fmt.Sprint(o.Seed), "-o", p(floatModel)}, win...), "", p(floatModel)); err != nil {
		return nil, err
	}
	if err := r.command("quantize", []string{"quantize", p(floatModel), "--bits", bits, "--data", p(trainCSV), "--test", p(holdoutCSV),
		"-o", p(intModel)}, "", p(intModel)); err != nil {
		return nil, err
	}

	// 5. score: both readouts on both shares
	scores := []struct {
		model, data, out string
	}{
		{floatModel, trainCSV, "score/float-train.txt"},
		{floatModel, holdoutCSV, "score/float-holdout.txt"},
		{intModel, trainCSV, "score/int-train.txt"},
		{intModel, holdoutCSV, "score/int-holdout.txt"},
	}
	if err := os.MkdirAll(p("score"), 0o755); err != nil {
		return nil, fmt.Errorf("flow: %w", err)
	}
	for i, s := range scores {
		name := "score"
		if i > 0 {
			name = fmt.Sprintf("score %d/4", i+1)
		}
		if err := r.command(name, []string{"predict", p(s.model), "--data", p(s.data), "--score"}, p(s.out), p(s.out)); err != nil {
			return nil, err
		}
	}
	for i, dst := range []*Score{&facts.FloatTrain, &facts.FloatHeld, &facts.IntTrain, &facts.IntHeld} {
		if *dst, err = readScore(p(scores[i].out)); err != nil {
			return nil, err
		}
	}
	cm, err := heldOutMatrix(p(intModel), p(holdoutCSV))
	if err != nil {
		return nil, err
	}
	if err := checkMatrix(cm, p(scores[3].out)); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(p(ConfusionSVG), cm.SVG(fmt.Sprintf("%d-bit integer readout, held-out rows", o.Bits)), 0o644); err != nil {
		return nil, err
	}

	// 6. size: P from the constraints
	if o.constrained() {
		if err := os.MkdirAll(p("size"), 0o755); err != nil {
			return nil, fmt.Errorf("flow: %w", err)
		}
		var cands []Candidate
		for _, par := range candidatePs(c.N) {
			out := p(fmt.Sprintf("size/p%d.json", par))
			if err := r.command(fmt.Sprintf("size P=%d", par), []string{"power", p(intModel), "--parallel", strconv.Itoa(par), "--json"}, out, out); err != nil {
				return nil, err
			}
			var e power.Estimate
			if err := readJSON(out, &e); err != nil {
				return nil, err
			}
			cands = append(cands, Candidate{P: par, Estimate: e})
		}
		best, err := Choose(cands, o)
		if err != nil {
			return nil, err
		}
		o.Parallel = cands[best].P
		facts.Sizing = cands
	}

	// 7. emit, 8. verify, 9. synth, 10. power
	if err := r.command("emit", []string{"emit", p(intModel), "--parallel", strconv.Itoa(o.Parallel), "--data", p(holdoutCSV),
		"--vectors", strconv.Itoa(o.Vectors), "-o", p(hwDir)}, "", filepath.Join(p(hwDir), "design.json")); err != nil {
		return nil, err
	}
	verify := []string{"verify", p(hwDir)}
	if o.VerifySteps != "" {
		verify = append(verify, "--steps", o.VerifySteps)
	}
	if err := r.command("verify", verify, p("verify.txt"), p("verify.txt")); err != nil {
		return nil, err
	}
	if err := r.command("synth", []string{"synth", p(hwDir), "--json"}, p("synth.json"), p("synth.json")); err != nil {
		return nil, err
	}
	if err := r.command("power", []string{"power", p(hwDir), "--json"}, p("power.json"), p("power.json")); err != nil {
		return nil, err
	}
	if facts.Verify, err = os.ReadFile(p("verify.txt")); err != nil {
		return nil, fmt.Errorf("flow: %w", err)
	}
	if err := readJSON(p("power.json"), &facts.Power); err != nil {
		return nil, err
	}
	facts.Options = o
	facts.Steps = r.steps
	report := p(ReportName)
	md := Report(facts)
	if err := atomicfile.WriteFile(report, []byte(md), 0o644); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(p(ReportHTML), []byte(HTML(md)), 0o644); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(p(hwDir), "README.md"), []byte(HardwareReadme(facts)), 0o644); err != nil {
		return nil, err
	}
	return &Result{Steps: r.steps, Report: report, Facts: facts}, nil
}

// internal runs a step done by build itself.
func (r *runner) internal(name, key string, outputs []string, do func() error) error {
	return r.step(name, "", hash([]byte(key)), outputs, do)
}

// command runs an hdlgen command as a step; its stdout goes to stdoutFile
// (atomically, after success) or to its log.
func (r *runner) command(name string, args []string, stdoutFile string, outputs ...string) error {
	line := r.o.Program + " " + quoteArgs(args)
	if stdoutFile != "" {
		line += " > " + stdoutFile
	}
	key := hash([]byte(r.key + "\n" + line))
	return r.step(name, line, key, outputs, func() error {
		logPath := filepath.Join(r.o.Dir, logDir, strings.ReplaceAll(name, "/", "-")+".log")
		logf, err := os.Create(logPath)
		if err != nil {
			return fmt.Errorf("flow: %w", err)
		}
		defer logf.Close()
		var out bytes.Buffer
		stdout := io.Writer(&out)
		if stdoutFile == "" {
			stdout = logf
		}
		stderr := io.Writer(logf)
		if name == "search" { // minutes on a large grid: show its progress lines
			stderr = io.MultiWriter(logf, r.o.Progress)
		}
		if err := r.o.Run(r.ctx, args, stdout, stderr); err != nil {
			return fmt.Errorf("flow: step %s failed (%s; log %s): %w", name, line, logPath, err)
		}
		if stdoutFile != "" {
			return atomicfile.WriteFile(stdoutFile, out.Bytes(), 0o644)
		}
		return nil
	})
}

// step runs do unless the stamp says the step is done with this key.
func (r *runner) step(name, line, key string, outputs []string, do func() error) error {
	base := strings.Fields(name)[0]
	idx := 0
	for i, s := range stepNames {
		if s == base {
			idx = i + 1
		}
	}
	stamp := filepath.Join(r.o.Dir, stampDir, strings.ReplaceAll(name, "/", "-")+".key")
	r.key = key
	if b, err := os.ReadFile(stamp); err == nil && string(b) == key && allExist(outputs) {
		fmt.Fprintf(r.o.Progress, "[%d/%d] %s: unchanged, skipped\n", idx, r.n, name)
		r.steps = append(r.steps, Step{Name: name, Command: line, Skipped: true})
		return nil
	}
	if err := os.Remove(stamp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("flow: %w", err)
	}
	fmt.Fprintf(r.o.Progress, "[%d/%d] %s …\n", idx, r.n, name)
	t0 := time.Now()
	if err := do(); err != nil {
		return err
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	sec := time.Since(t0).Seconds()
	fmt.Fprintf(r.o.Progress, "[%d/%d] %s: done in %.1fs\n", idx, r.n, name, sec)
	r.steps = append(r.steps, Step{Name: name, Command: line, Seconds: sec})
	return atomicfile.WriteFile(stamp, []byte(key), 0o644)
}

func allExist(paths []string) bool {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// quoteArgs joins args for a shell, quoting those that need it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("flow: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("flow: %s: %w", path, err)
	}
	return nil
}

// writeSplit writes the stratified held-out split of the CSV (the rows
// `hdlgen train --holdout` would hold out) as two CSV files, label last.
func writeSplit(o Options, src []byte, trainPath, holdPath string) error {
	d, err := dataset.ReadCSV(bytes.NewReader(src), o.Data, dataset.CSVOptions{LabelColumn: o.LabelColumn})
	if err != nil {
		return err
	}
	ss, err := tune.Validation{Holdout: o.Holdout, Seed: o.SplitSeed}.Splits(d)
	if err != nil {
		return fmt.Errorf("flow: %s: %w", o.Data, err)
	}
	for _, f := range []struct {
		path string
		rows []int
	}{{trainPath, ss[0].Train}, {holdPath, ss[0].Test}} {
		b, err := csvBytes(d, f.rows)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(f.path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// csvBytes writes rows of d as CSV: the features, then the label, values in
// the shortest form that reads back exactly.
func csvBytes(d *dataset.Dataset, rows []int) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	rec := append(append([]string(nil), d.FeatureNames...), d.LabelName)
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	for _, r := range rows {
		for j, v := range d.Row(r) {
			rec[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		rec[d.K()] = d.ClassNames[d.Y[r]]
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// constrained reports whether a constraint chooses P.
func (o Options) constrained() bool { return o.LatencyS > 0 || o.MaxLUTs > 0 || o.BudgetJ > 0 }

// candidatePs are the P tried by the size step: powers of two below N, and N.
func candidatePs(n int) []int {
	var ps []int
	for par := 1; par < n; par *= 2 {
		ps = append(ps, par)
	}
	return append(ps, n)
}

// Candidate is one P the size step estimated (power's analytic model).
type Candidate struct {
	P        int
	Estimate power.Estimate
	Feasible bool // meets every constraint
}

// Choose marks the candidates that meet o's constraints and returns the
// index of the one with the fewest LUTs (ties: the smaller P), or an error
// listing what the closest candidates reach.
func Choose(cands []Candidate, o Options) (int, error) {
	best := -1
	for i := range cands {
		e := cands[i].Estimate
		ok := (o.LatencyS == 0 || e.LatencyS <= o.LatencyS) &&
			(o.MaxLUTs == 0 || e.Resources.LUTs <= o.MaxLUTs) &&
			(o.BudgetJ == 0 || e.BudgetedJ <= o.BudgetJ)
		cands[i].Feasible = ok
		if ok && (best < 0 || e.Resources.LUTs < cands[best].Estimate.Resources.LUTs) {
			best = i
		}
	}
	if best >= 0 {
		return best, nil
	}
	var lines []string
	for _, c := range cands {
		e := c.Estimate
		lines = append(lines, fmt.Sprintf("P=%d: latency %.3g µs, %d LUTs, %s %s", c.P, e.LatencyS*1e6, e.Resources.LUTs, e.BudgetOn, power.FormatEnergy(e.BudgetedJ)))
	}
	return -1, fmt.Errorf("flow: no P meets %s (estimated by hdlgen power's analytic model):\n  %s", o.constraintText(), strings.Join(lines, "\n  "))
}

// constraintText names the constraints set.
func (o Options) constraintText() string {
	var c []string
	if o.LatencyS > 0 {
		c = append(c, fmt.Sprintf("latency ≤ %.3g µs", o.LatencyS*1e6))
	}
	if o.MaxLUTs > 0 {
		c = append(c, fmt.Sprintf("≤ %d LUTs", o.MaxLUTs))
	}
	if o.BudgetJ > 0 {
		c = append(c, "energy ≤ "+power.FormatEnergy(o.BudgetJ))
	}
	return strings.Join(c, ", ")
}
