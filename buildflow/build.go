package buildflow

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/confusion"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/logreg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/tune"
)

// Paths of a build directory (relative to DIR, with forward slashes).
const (
	stampDir     = ".build"     // the steps' records and the marker
	markerFile   = "build.json" // in stampDir: this folder is a build
	logDir       = "logs"
	partsDir     = "search-parts" // the search's finished parts
	searchJSON   = "search.json"  // search (or eval of a given N, λ, κ)
	baselineJSON = "baseline.json"
	designJSON   = "design.json"   // the choice of N and P
	evalJSON     = "validate.json" // eval of the chosen N, λ, κ (and the readout choice)
	floatModel   = "model-float.json"
	intModel     = "model.json"
	scoreDir     = "score"
	sizesJSON    = "sizes.json"
	hwDir        = "hw"
	icarusDir    = "verify/icarus" // the design again, with Icarus's vectors
	verifyDir    = "verify"
	synthJSON    = "synth.json"
	powerJSON    = "power.json"
	// ReportName, ReportHTML and the pictures are the report's files.
	ReportName   = "REPORT.md"
	ReportHTML   = "REPORT.html"
	ConfusionSVG = "confusion.svg"
	CurveNSVG    = "accuracy-vs-n.svg"
	CurveLUTSVG  = "accuracy-vs-luts.svg"
)

// trainCSV and holdoutCSV are the split's files: named after the design,
// so that the model (named after its training file) and the design's
// modules carry the design's name.
func trainCSV(name string) string   { return "data/train/" + name + ".csv" }
func holdoutCSV(name string) string { return "data/holdout/" + name + ".csv" }

// markerFormat is the content of DIR/.build/build.json.
const markerFormat = `{"format": "hdlgen-build/1"}` + "\n"

// Result is what Run did and where the report is.
type Result struct {
	Steps  []Step
	Report string // DIR/REPORT.md
	Facts  Facts
}

// stepsInTotal numbers the progress lines: split, search, baseline, design,
// validate, train, quantize, score, sizes, emit, verify, synth, power.
var stepsInTotal = len(stepGroups)

// Run builds the design of o.Data into o.Dir and writes the report.
func Run(ctx context.Context, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Run == nil {
		panic("buildflow: Options.Run is nil")
	}
	if err := checkTakeOver(o.Dir, o.Force); err != nil {
		return nil, err
	}
	src := o.Source
	if src == nil {
		var err error
		if src, err = os.ReadFile(o.Data); err != nil {
			return nil, fmt.Errorf("buildflow: --data: %w", err)
		}
	}
	d, err := dataset.ReadCSV(bytes.NewReader(src), o.Data, dataset.CSVOptions{LabelColumn: o.LabelColumn})
	if err != nil {
		return nil, err
	}
	lock, err := jobs.LockDir(o.Dir, jobs.Shard{}, o.Command)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	for _, sub := range []string{stampDir, logDir, "data/train", "data/holdout", scoreDir, verifyDir} {
		if err := os.MkdirAll(filepath.Join(o.Dir, filepath.FromSlash(sub)), 0o755); err != nil {
			return nil, fmt.Errorf("buildflow: %w", err)
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(o.Dir, stampDir, markerFile), []byte(markerFormat), 0o644); err != nil {
		return nil, err
	}
	if o.Grid == "" {
		o.Grid = DefaultGrid(trainingRows(d.M(), o.Holdout))
	}
	b := &build{o: &o, r: newRunner(&o, stepsInTotal), d: d}
	b.facts.Options = o
	b.facts.Data = tune.DescribeData(o.Data, src, d)
	b.facts.LabelWarnings = dataset.LabelWarnings(d)
	if err := b.run(ctx, src); err != nil {
		return nil, err
	}
	return b.finish()
}

// build is one run of the flow.
type build struct {
	o     *Options
	r     *runner
	d     *dataset.Dataset // the user's data
	facts Facts
}

// p is the path of a build file as the commands get it: DIR joined with rel.
func (b *build) p(rel string) string { return filepath.Join(b.o.Dir, filepath.FromSlash(rel)) }

func (b *build) run(ctx context.Context, src []byte) error {
	o, r := b.o, b.r
	name := o.Name
	train, held := trainCSV(name), holdoutCSV(name)

	// 1. split
	sum := sha256.Sum256(src)
	splitFP, err := r.step(ctx, stepDef{
		name:    "split",
		line:    fmt.Sprintf("(split by build: the rows `%s train --holdout %g --split-seed %d` would hold out → %s, %s)", o.Program, o.Holdout, o.SplitSeed, b.p(train), b.p(held)),
		deps:    []string{hex.EncodeToString(sum[:]), o.LabelColumn, strconv.FormatFloat(o.Holdout, 'g', -1, 64), strconv.FormatUint(o.SplitSeed, 10)},
		outputs: []string{train, held},
		do:      func(context.Context) error { return writeSplit(*o, b.d, b.p(train), b.p(held)) },
	})
	if err != nil {
		return err
	}

	// 2. search (or eval of the given N, λ, κ, with the readout choice)
	bits := strconv.Itoa(o.Bits)
	var win []string
	if o.Win != "" && o.Win != "stored" {
		win = []string{"--win", o.Win}
	}
	var ga []string
	if o.Readout == ReadoutAuto || o.Readout == ReadoutGA { // with ga: to say how the GA validated
		ga = []string{"--ga", "rounded", "--ga-seed", strconv.FormatUint(o.GASeed, 10)}
	}
	// selectArgs: --select for a member that chooses its units (the conj).
	selectArgs := func(arch model.Arch) []string {
		if t, err := model.TraitsOf(arch); err != nil || !t.Selects || o.Select == 0 {
			return nil
		}
		return []string{"--select", strconv.Itoa(o.Select)}
	}
	// bitsArgs: --bits for a member whose readout width is a choice (the
	// conj's is its own, ownWidth).
	bitsArgs := func(arch model.Arch) []string {
		if ownWidth(arch) {
			return nil
		}
		return []string{"--bits", bits}
	}
	evalArgs := func(arch model.Arch, n int, lambda float64, kappa int, out string) []string {
		a := []string{"eval", "--data", b.p(train), "--arch", string(arch), "--n", strconv.Itoa(n), "--lambda", ftoa(lambda),
			"--kappa", strconv.Itoa(kappa), "--regularizer", string(model.RegIdentity)}
		a = append(a, bitsArgs(arch)...)
		a = append(a, selectArgs(arch)...)
		a = append(a, "--folds", strconv.Itoa(o.Folds), "--seed", strconv.FormatUint(o.Seed, 10), "--seeds", "1", "--workers", strconv.Itoa(o.Workers))
		a = append(a, win...)
		if !ownWidth(arch) {
			a = append(a, ga...)
		}
		return append(a, "-o", b.p(out))
	}
	members, err := o.members(trainingRows(b.d.M(), o.Holdout))
	if err != nil {
		return err
	}
	// each member's search (or eval of the given N, λ, κ), one after the other
	searchFPs := make([]string, len(members))
	for i, arch := range members {
		out := searchFile(arch, i == 0)
		var def stepDef
		if o.searchSkipped() {
			def = r.command(searchStep(arch, i == 0), evalArgs(arch, o.N, o.Lambda, o.Kappa, out), "", []string{splitFP}, out)
		} else {
			args := append([]string{"search", "--data", b.p(train), "--arch", string(arch)}, bitsArgs(arch)...)
			args = append(args, selectArgs(arch)...)
			args = append(args, "--grid", o.Grid, "--folds", strconv.Itoa(o.Folds),
				"--seed", strconv.FormatUint(o.Seed, 10), "--workers", strconv.Itoa(o.Workers), "--parts", b.p(searchParts(arch, i == 0)))
			if maxN := b.extendLimit(arch); maxN > 0 {
				args = append(args, "--extend-n", strconv.Itoa(maxN))
				if !o.ExtendAll {
					args = append(args, "--extend-se")
				}
			}
			def = r.command(searchStep(arch, i == 0), append(append(args, win...), "-o", b.p(out)), "", []string{splitFP}, out)
		}
		if searchFPs[i], err = r.step(ctx, def); err != nil {
			return err
		}
		ms := MemberSearch{Network: arch}
		if err := readJSON(b.p(out), &ms.Result); err != nil {
			return err
		}
		b.facts.Family = append(b.facts.Family, ms)
	}
	searchFP := strings.Join(searchFPs, "+")
	b.facts.Search = b.facts.Family[0].Result
	b.facts.Searched = !o.searchSkipped()

	// 3. the baseline on the same split and folds
	v := tune.Validation{Folds: o.Folds, Seed: b.facts.Search.Validation.SplitSeed}
	if _, err := r.step(ctx, stepDef{
		name: "baseline",
		line: fmt.Sprintf("(baseline by build: %s; λ ∈ {%s} chosen on the search's %s folds of %s, fitted on every training row, scored on %s)",
			logreg.Method, joinFloats(logreg.DefaultLambdas), v.Method(), b.p(train), b.p(held)),
		deps:    []string{splitFP, logreg.Method, joinFloats(logreg.DefaultLambdas), v.Method(), strconv.FormatUint(v.Seed, 10)},
		outputs: []string{baselineJSON},
		do: func(ctx context.Context) error {
			return writeBaseline(ctx, b.p(train), b.p(held), b.p(baselineJSON), v, o.Workers, &lockedWriter{mu: &r.mu, w: o.Progress})
		},
	}); err != nil {
		return err
	}
	if err := readJSON(b.p(baselineJSON), &b.facts.Baseline); err != nil {
		return err
	}

	// 4. the design: the network, N and P together, 5. validate the chosen N, λ, κ
	b.facts.Eval = b.facts.Search
	evalFP := searchFP
	arch := members[0]
	if b.facts.Searched {
		designFP, err := r.step(ctx, stepDef{
			name:    "design",
			line:    fmt.Sprintf("(design by build: the network, N and P together from the searches' curves and `%s power` at every P: %s)", o.Program, b.designText()),
			deps:    []string{searchFP, b.designText(), strconv.Itoa(o.Parallel)},
			outputs: []string{designJSON},
			do:      func(context.Context) error { return b.writeDesign() },
		})
		if err != nil {
			return err
		}
		if err := readJSON(b.p(designJSON), &b.facts.Design); err != nil {
			return err
		}
		pt := b.facts.Design.Points[b.facts.Design.Chosen]
		arch = pt.Network
		for _, ms := range b.facts.Family {
			if ms.Network == arch {
				b.facts.Search = ms.Result
			}
		}
		if evalFP, err = r.step(ctx, r.command("validate", evalArgs(arch, pt.N, pt.Lambda, pt.Kappa, evalJSON), "", []string{splitFP, designFP}, evalJSON)); err != nil {
			return err
		}
		if err := readJSON(b.p(evalJSON), &b.facts.Eval); err != nil {
			return err
		}
	}
	c := b.facts.Eval.Config

	// 4. train (float readout) on every training row, 5. quantize
	trainFP, err := r.step(ctx, r.command("train", append([]string{"train", "--data", b.p(train), "--holdout", "0", "--arch", string(arch),
		"--n", strconv.Itoa(c.N), "--lambda", ftoa(c.Lambda), "--kappa", strconv.Itoa(c.Kappa), "--regularizer", c.Regularizer,
		"--seed", strconv.FormatUint(o.Seed, 10), "-o", b.p(floatModel)}, append(selectArgs(arch), win...)...), "", []string{splitFP, evalFP}, floatModel))
	if err != nil {
		return err
	}
	b.facts.Readout = b.chooseReadout(arch)
	qargs := []string{"quantize", b.p(floatModel), "--bits", bits, "-o", b.p(intModel)}
	if b.facts.Readout == ReadoutGA {
		qargs = []string{"quantize", b.p(floatModel), "--bits", bits, "--ga", "rounded", "--seed", strconv.FormatUint(o.GASeed, 10),
			"--data", b.p(train), "--holdout", "0", "-o", b.p(intModel)}
	}
	quant := r.command("quantize", qargs, "", []string{trainFP, evalFP}, intModel)
	if ownWidth(arch) {
		quant = ownWidthStep(b.p(floatModel), b.p(intModel), trainFP, evalFP, memberBits(arch, o.Bits))
	}
	quantFP, err := r.step(ctx, quant)
	if err != nil {
		return err
	}

	// 6. score: both readouts on both shares
	scores := []struct {
		name, model, data string
		dst               *confusion.Score
		dep               string
	}{
		{"float-train", floatModel, train, &b.facts.FloatTrain, trainFP},
		{"float-holdout", floatModel, held, &b.facts.FloatHeld, trainFP},
		{"int-train", intModel, train, &b.facts.IntTrain, quantFP},
		{"int-holdout", intModel, held, &b.facts.IntHeld, quantFP},
	}
	for _, s := range scores {
		out := scoreDir + "/" + s.name + ".json"
		if _, err := r.step(ctx, r.command("score "+s.name, []string{"predict", b.p(s.model), "--data", b.p(s.data), "--score", "--json"},
			out, []string{s.dep, splitFP})); err != nil {
			return err
		}
		if err := readJSON(b.p(out), s.dst); err != nil {
			return err
		}
	}

	// 7. sizes over P: the objective and the constraints choose P
	sizesFP, err := r.step(ctx, stepDef{
		name:    "sizes",
		line:    fmt.Sprintf("(sizes by build: `%s power %s --parallel P --json` for P = 1, 2, 4, …, N; %s)", o.Program, b.p(intModel), b.sizingText()),
		deps:    []string{quantFP, b.sizingText(), strconv.Itoa(o.Parallel)},
		outputs: []string{sizesJSON},
		do:      func(context.Context) error { return b.writeSizes() },
	})
	if err != nil {
		return err
	}
	var sz sizes
	if err := readJSON(b.p(sizesJSON), &sz); err != nil {
		return err
	}
	b.facts.Sizes, b.facts.Chosen = sz.Candidates, sz.Chosen
	par := strconv.Itoa(sz.Candidates[sz.Chosen].P)

	// 8. emit the design, and again with Icarus's vectors
	steps := verifySteps(o.VerifySteps)
	emitArgs := func(vectors int, dir string) []string {
		return []string{"emit", b.p(intModel), "--parallel", par, "--axis", "--data", b.p(held), "--vectors", strconv.Itoa(vectors), "-o", b.p(dir)}
	}
	skipBuild := func(rel string) bool {
		return rel == hwDir+"/build" || rel == icarusDir+"/build" || rel == hwDir+"/README.md"
	}
	emitDef := r.command("emit", emitArgs(o.Vectors, hwDir), "", []string{quantFP, splitFP, sizesFP}, hwDir)
	emitDef.skip = skipBuild
	emitFP, err := r.step(ctx, emitDef)
	if err != nil {
		return err
	}
	b.facts.IcarusVectors = b.icarusVectors(sz.Candidates[sz.Chosen].Estimate)
	icarusFP := ""
	if steps[stepIcarus] {
		def := r.command("emit icarus", emitArgs(b.facts.IcarusVectors, icarusDir), "", []string{quantFP, splitFP, sizesFP}, icarusDir)
		def.skip = skipBuild
		if icarusFP, err = r.step(ctx, def); err != nil {
			return err
		}
	}

	// 9. verify (both simulators) and 10. synth, at once: synth (Yosys, one
	// thread and the longest of the three) on a core of its own, the two
	// simulators one after the other beside it. Run as three, they shared two
	// cores and synth, the last to end, took 90.6 s of the default build on
	// 30,000 rows; this way 77.0 s (docs/build.md).
	var verilatorRun, icarusRun *VerifyRun
	var synthFP string
	err = parallel(ctx,
		func(ctx context.Context) (err error) {
			verilatorRun, err = b.verify(ctx, "verify verilator", hwDir, []string{stepModel, stepLint, stepVerilator}, steps, emitFP)
			if err != nil || !steps[stepIcarus] {
				return err
			}
			icarusRun, err = b.verify(ctx, "verify icarus", icarusDir, []string{stepModel, stepIcarus}, steps, icarusFP)
			return err
		},
		func(ctx context.Context) (err error) {
			synthFP, err = r.step(ctx, r.command("synth", []string{"synth", b.p(hwDir), "--json"}, synthJSON, []string{emitFP}))
			return err
		},
	)
	if err != nil {
		return err
	}
	b.facts.Verify = b.verification(verilatorRun, icarusRun, steps)
	if err := readJSON(b.p(synthJSON), &b.facts.Synth); err != nil {
		return err
	}

	// 11. power, from the Yosys resources
	// power reads the Yosys report synth cached in the design folder.
	if _, err := r.step(ctx, r.command("power", []string{"power", b.p(hwDir), "--json"}, powerJSON, []string{emitFP, synthFP})); err != nil {
		return err
	}
	return readJSON(b.p(powerJSON), &b.facts.Power)
}

// finish writes the report, its page and pictures and the design's README.
func (b *build) finish() (*Result, error) {
	f := &b.facts
	f.Steps = b.r.sortedSteps()
	title := fmt.Sprintf("%d-bit integer readout, held-out rows", b.facts.ReadoutBits())
	images := map[string][]byte{ConfusionSVG: f.IntHeld.Matrix().SVG(title)}
	if len(f.Design.Points) > 0 { // a search's curve (none with a given N, λ, κ)
		images[CurveNSVG], images[CurveLUTSVG] = curveSVG(*f, false), curveSVG(*f, true)
	}
	md := Report(*f)
	files := map[string][]byte{ReportName: []byte(md), ReportHTML: []byte(HTML(md, images)), hwDir + "/README.md": []byte(HardwareReadme(*f))}
	for name, svg := range images {
		files[name] = svg
	}
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if err := atomicfile.WriteFile(b.p(name), files[name], 0o644); err != nil {
			return nil, err
		}
	}
	return &Result{Steps: f.Steps, Report: b.p(ReportName), Facts: *f}, nil
}

// chooseReadout is the readout the quantize step writes: the option, or
// with ReadoutAuto the search's choice on the validation folds.
func (b *build) chooseReadout(arch model.Arch) string {
	switch {
	case ownWidth(arch): // trained as integers: rounded, no GA
		return ReadoutRounded
	case b.o.Readout == ReadoutGA:
		return ReadoutGA
	case b.o.Readout == ReadoutAuto && b.facts.Eval.Readout != nil && b.facts.Eval.Readout.Chosen == tune.ReadoutGA:
		return ReadoutGA
	}
	return ReadoutRounded
}

// CoarseGridRows is the number of training rows from which build searches
// the grid for large data instead of the wide one.
const CoarseGridRows = 10_000

// DefaultGrid is the search grid build uses without --grid: wide, or from
// CoarseGridRows training rows, where the wide grid's search takes many
// minutes, large (protocol.LargeGrid: 17 of the wide grid's 30 N and 13 of
// its 26 λ, about a sixth of its factorisations).
func DefaultGrid(trainRows int) string {
	if trainRows >= CoarseGridRows {
		return "large"
	}
	return "wide"
}

// trainingRows is about the number of training rows of m rows with the
// holdout share held out (the split rounds per class).
func trainingRows(m int, holdout float64) int {
	return int(math.Round(float64(m) * (1 - holdout)))
}

// extendLimit is the largest N the search of network arch may extend to:
// the options' limit, lowered to the last N of the extension's sequence
// (NextN from the grid's largest) whose smallest design (P = 1) fits the
// LUT budget (--max-luts, else the device), for the largest κ of the grid;
// 0 for no extension (and for every network but the intRVFL, whose per-N
// scorers the search's extension rides on).
func (b *build) extendLimit(arch model.Arch) int {
	if arch != model.IntRVFL || b.o.ExtendN < 0 || !slices.Contains([]string{"wide", "paper", "coarse", "large"}, b.o.Grid) {
		return 0
	}
	budget := b.o.MaxLUTs
	if budget == 0 {
		budget = deviceLUTs
	}
	limit := 0
	for n := NextN(gridMaxN); n <= b.o.ExtendN; n = NextN(n) {
		if !b.fits(arch, n, maxGridKappa, budget) {
			break
		}
		limit = n
	}
	return limit
}

// fits reports whether the P = 1 design of network arch with N neurons
// fits budget LUTs.
func (b *build) fits(arch model.Arch, n, kappa, budget int) bool {
	s, err := power.ShapeOf(arch, b.d.K(), b.d.L(), kappa, b.o.Bits)
	if err != nil {
		return false
	}
	r, err := power.Analytic(power.Design{Shape: s, N: n, Options: plan.Options{Parallel: 1}})
	return err == nil && r.LUTs+r.LUTRAM <= budget
}

// writeSplit writes the stratified held-out split of d (the rows `hdlgen
// train --holdout` would hold out) as two CSV files, label last.
func writeSplit(o Options, d *dataset.Dataset, trainPath, holdPath string) error {
	ss, err := tune.Validation{Holdout: o.Holdout, Seed: o.SplitSeed}.Splits(d)
	if err != nil {
		return fmt.Errorf("buildflow: %s: %w", o.Data, err)
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

func readJSON(p string, v any) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("buildflow: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("buildflow: %s: %w", p, err)
	}
	return nil
}

func writeJSON(p string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("buildflow: %s: %w", p, err)
	}
	return atomicfile.WriteFile(p, append(b, '\n'), 0o644)
}

// writeDesign chooses the network, N and P together from the members'
// curves.
func (b *build) writeDesign() error {
	curves := make([]MemberCurve, len(b.facts.Family))
	for i, ms := range b.facts.Family {
		curves[i] = MemberCurve{Network: ms.Network, Curve: ms.Result.Curve, Best: ms.Result.Validated}
	}
	dc, err := ChooseDesign(curves, b.d.K(), b.d.L(), *b.o)
	if err != nil {
		return err
	}
	return writeJSON(b.p(designJSON), dc)
}

// designText says how N and P are chosen, as the command list and the
// design step's stamp give it.
func (b *build) designText() string {
	tol := "one standard error of the best's validation accuracy"
	if b.o.Tolerance > 0 {
		tol = fmt.Sprintf("%g points (--tolerance)", b.o.Tolerance)
	}
	return fmt.Sprintf("among the N within %s of the best, %s", tol, b.o.choiceText(" per classification", ""))
}

func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = ftoa(x)
	}
	return strings.Join(s, ", ")
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// nameOf is the report's name of a data file: its path as given, or its
// base name when the path is absolute (no machine's paths in a report).
func nameOf(file string) string {
	if filepath.IsAbs(file) {
		return filepath.Base(file)
	}
	return strings.TrimPrefix(filepath.ToSlash(file), "./")
}
