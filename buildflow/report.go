package buildflow

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/internal/confusion"
	"github.com/hdlgen/hdlgen/internal/svgplot"
	"github.com/hdlgen/hdlgen/logreg"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
	"github.com/hdlgen/hdlgen/tune"
)

// SynthFacts is what `hdlgen synth --json` reports: Yosys's resources and
// the static timing estimate.
type SynthFacts struct {
	synth.Report
	Timing *timing.Report `json:"timing"`
}

// Facts are the values a report is made of, each read from a step's output.
type Facts struct {
	Options       Options
	Data          tune.DataInfo
	LabelWarnings []string
	Search        tune.Result    // the chosen network's search, or eval of the given N, λ, κ
	Family        []MemberSearch // every member's search (the chosen one's is Search)
	Searched      bool           // false: N, λ, κ were given
	Design        DesignChoice   // the choice of N and P (with a search)
	Eval          tune.Result    // the chosen N, λ, κ validated (the search's eval without one), with the readout choice
	Baseline      Baseline       // the logistic regression
	Readout       string         // the readout deployed: ReadoutRounded or ReadoutGA
	FloatTrain    confusion.Score
	FloatHeld     confusion.Score
	IntTrain      confusion.Score
	IntHeld       confusion.Score
	Sizes         []Candidate // every P estimated
	Chosen        int         // the chosen one, index into Sizes
	IcarusVectors int
	Verify        Verification
	Synth         SynthFacts
	Power         power.Estimate
	Steps         []Step
}

// pct is a share of a device capacity in percent.
func pct(used, capacity float64) string { return fmt.Sprintf("%.2f %%", 100*used/capacity) }

// prefix is the design's module prefix (its top is prefix_top).
func (f Facts) prefix() string { return plan.SanitizePrefix(f.Options.Name) }

// Report renders DIR/REPORT.md.
func Report(f Facts) string {
	var b strings.Builder
	o := f.Options
	c := f.Eval.Config
	e := f.Power
	chosen := f.Sizes[f.Chosen]
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# hdlgen build: %s\n\n", o.Name)
	w("Data: %s, %d rows, %d features, %d classes (%s), label column %s. ", mdText(nameOf(f.Data.File)), f.Data.Rows, f.Data.Features, f.Data.Classes,
		classList(f.Data.ClassNames), mdText(f.Data.Label))
	w("Held out: a stratified share %g of each class's rows (split seed %d): %d rows for training, %d held out. ",
		o.Holdout, o.SplitSeed, f.IntTrain.Total, f.IntHeld.Total)
	w("Everything is chosen on validation folds of the training rows — N, λ, κ, the readout, P; the held-out rows only measure the result.\n\n")
	for _, lw := range f.LabelWarnings {
		w("**Warning:** %s\n\n", lw)
	}

	w("## Summary\n\n| | |\n| --- | --- |\n")
	w("| design | `%s_top`: %s N=%d, %s=%d, λ=%g, %d-bit %s readout, P=%d (%s) |\n", f.prefix(), f.network(), c.N, f.kappaLabel(), c.Kappa, c.Lambda, f.ReadoutBits(),
		readoutName(f.Readout), chosen.P, f.choiceText())
	w("| held-out accuracy of the hardware | %.4f (%d/%d rows) |\n", f.IntHeld.Accuracy, f.IntHeld.Correct, f.IntHeld.Total)
	w("| baseline (logistic regression), held-out | %.4f (%s) |\n", f.Baseline.Held, f.baselineVerdict())
	r := e.Resources
	w("| resources (Yosys) | %d LUT (%s), %d FF, %d DSP48E1 (%s), %g BRAM36; %.0f LUT-equivalents |\n", r.LUTs, pct(float64(r.LUTs), float64(board.XC7Z020.LUTs)), r.FFs,
		r.DSP48E1, pct(float64(r.DSP48E1), float64(board.XC7Z020.DSPs)), r.BRAM36, LUTEq(r))
	w("| latency, throughput | %.3g µs, %.4g M classifications/s |\n", e.LatencyS*1e6, e.ClockHz/float64(e.II)/1e6)
	w("| energy per classification (estimated) | %s dynamic, %s total |\n", power.FormatEnergy(e.DynamicJ), power.FormatEnergy(e.TotalJ))
	if t := f.Synth.Timing; t != nil {
		w("| Fmax (estimated) | %s |\n", t.Headline(e.ClockHz/1e6))
	}
	w("| verification | %s |\n", f.verdict())
	w("| next: on the board | `%s`, then `hdlgen-run selftest` on the board first (see Next) |\n\n", f.zynqCommand())
	if f.FloatReadout() && f.IntHeld.Accuracy < f.FloatHeld.Accuracy-0.05 {
		w("**Warning:** rounding to %d bits loses %.1f points of held-out accuracy.\n\n", o.Bits, 100*(f.FloatHeld.Accuracy-f.IntHeld.Accuracy))
	}

	f.writeAccuracy(w)
	f.writeCurve(w)
	f.writeSizes(w)
	f.writeHardware(w)
	f.writeVerification(w)

	w("## Commands\n\nEach step, exactly as `hdlgen build` ran it (the lines in parentheses are done by build itself, with the same code as the command they name):\n\n```sh\n")
	for _, s := range f.Steps {
		w("%s\n", s.Command)
	}
	w("```\n\n")
	var reruns []string
	for _, s := range f.Steps {
		if s.Rerun != "" {
			reruns = append(reruns, fmt.Sprintf("%s (%s)", s.Name, s.Rerun))
		}
	}
	if len(reruns) > 0 {
		w("Run again although their inputs were unchanged, because an output had changed: %s.\n\n", strings.Join(reruns, "; "))
	}
	w("## Next\n\n")
	w("- **To the board** (ZedBoard, docs/zedboard.md): emit this design as the Zynq system — the core behind AXI DMA and AXI4-Lite registers, the Vivado project and the host driver for this model:\n\n")
	w("```sh\n%s\nmake -C zynq/driver sim && zynq/driver/build/sim/hdlgen-run-sim selftest   # the driver against the Verilator model of the system\n```\n\n", f.zynqCommand())
	w("  Build the bitstream with `zynq/vivado/system.tcl`, load it and the overlay on the board, and run **`./hdlgen-run selftest`** (or `python3 hdlgen.py selftest`) there first: it checks the design's identity registers, its %d test vectors against the Go model, a malformed vector, a flush and the rate, and ends with PASS or FAIL (docs/zedboard.md, steps 3–5).\n", o.Vectors)
	w("- Open `%s/` (its README.md) in Vivado: `make -C %s vivado`, or run `make -C %s verify` again (both simulators on all %d vectors).\n", hwDir, hwDir, hwDir, o.Vectors)
	w("- Classify new rows: `hdlgen predict %s --data new.csv`; score a labelled file: add `--score`.\n", intModel)
	w("- Another trade-off: rerun `hdlgen build` with `--optimize area` (fewest LUT-equivalents), `--optimize latency`, `--tolerance POINTS` (the validation accuracy a smaller N may lose), `--family intrvfl` (one network only), or `--parallel P` from the table above; finished steps are skipped.\n")
	return b.String()
}

// zynqCommand is the command that turns this build's model into the Zynq
// system (run in the build folder).
func (f Facts) zynqCommand() string {
	return fmt.Sprintf("hdlgen emit %s --system zynq --parallel %d --data %s --vectors %d -o zynq", intModel, f.Sizes[f.Chosen].P, holdoutCSV(f.Options.Name), f.Options.Vectors)
}

// baselineVerdict compares the hardware's held-out accuracy with the
// baseline's, in points.
func (f Facts) baselineVerdict() string {
	d := 100 * (f.IntHeld.Accuracy - f.Baseline.Held)
	switch {
	case d > 0.05:
		return fmt.Sprintf("the hardware is %.1f points better", d)
	case d < -0.05:
		return fmt.Sprintf("**the baseline is %.1f points better than the hardware**", -d)
	}
	return "equal to the hardware's"
}

func readoutName(r string) string {
	if r == ReadoutGA {
		return "GA-refined"
	}
	return "rounded"
}

// choiceText says how P was chosen.
func (f Facts) choiceText() string {
	o := f.Options
	if o.Parallel > 0 {
		return "given"
	}
	return fmt.Sprintf("--optimize %s", o.Objective)
}

// verdict is the verification's one-line result.
func (f Facts) verdict() string {
	v := f.Verify
	var ver, ica int
	for _, c := range v.Checks {
		if c.Ran && c.Step == stepVerilator {
			ver = c.Result.Vectors
		}
		if c.Ran && c.Step == stepIcarus {
			ica = c.Result.Vectors
		}
	}
	switch {
	case v.Passed:
		return fmt.Sprintf("PASS: lint, Verilator (%d vectors) and Icarus (%d vectors) on the stream and AXI4-Stream tops, the model step on both vector sets", ver, ica)
	case v.Partial:
		var missing []string
		for _, c := range v.Checks {
			if !c.Ran {
				missing = append(missing, c.name())
			}
		}
		return fmt.Sprintf("PARTIAL: not verified by %s (--verify-steps); what ran passed", strings.Join(missing, ", "))
	}
	return "FAIL"
}

func (c Check) name() string {
	if c.Target == "" {
		return c.Step + " (" + c.Folder + ")"
	}
	return c.Step + "/" + c.Target
}

func (f Facts) writeAccuracy(w func(string, ...any)) {
	o := f.Options
	val := "validation"
	if v := f.Eval.Validation; v.Method != "" {
		val = fmt.Sprintf("validation (%s on the training rows)", v.Method)
	}
	bl := f.Baseline
	w("## Accuracy\n\n")
	w("| classifier | %s | training (%d rows) | held-out (%d rows) |\n| --- | ---: | ---: | ---: |\n", val, f.IntTrain.Total, f.IntHeld.Total)
	w("| baseline: logistic regression, λ=%g | %.4f ± %.4f | %.4f | %.4f |\n", bl.Lambda, bl.Validated.Mean, bl.Validated.Std, bl.Train, bl.Held)
	if !f.FloatReadout() {
		w("| %s, float readout | — | — | — (its readout is always %d-bit integers) |\n", f.network(), f.ReadoutBits())
	} else {
		w("| %s, float readout | — | %.4f | %.4f |\n", f.network(), f.FloatTrain.Accuracy, f.FloatHeld.Accuracy)
	}
	intVal := fmt.Sprintf("%.4f ± %.4f", f.Eval.Validated.Mean, f.Eval.Validated.Std)
	rc := f.Eval.Readout
	if f.Readout == ReadoutGA {
		intVal = "—" // not validated on the folds
		if rc != nil {
			intVal = fmt.Sprintf("%.4f ± %.4f", rc.GA.Mean, rc.GA.Std)
		}
	}
	w("| %s, %d-bit %s integer readout (the hardware) | %s | %.4f | %.4f |\n\n", f.network(), f.ReadoutBits(), readoutName(f.Readout), intVal, f.IntTrain.Accuracy, f.IntHeld.Accuracy)
	w("The baseline is a %s, its λ chosen among {%s} on the same %s folds of the training rows (validation %.4f ± %.4f), then fitted on every training row: a classifier of the raw features as strong as the usual linear one, so that the network is not flattered by a weak reference. On the held-out rows: %s.\n\n",
		bl.Method, lambdaList(bl.Lambdas), bl.Validation, bl.Validated.Mean, bl.Validated.Std, f.baselineVerdict())
	c := f.Eval.Config
	if f.Searched {
		for _, ms := range f.family() {
			r := ms.Result
			sel := ""
			if r.Config.Select != 0 {
				sel = fmt.Sprintf(" --select %d", r.Config.Select)
			}
			w("`hdlgen search --arch %s%s` scored the %s grid (%d points) by the %s validation accuracy of the %d-bit rounded readout; its best was N=%d, %s=%d, λ=%g (%.4f ± %.4f). ",
				ms.Network, sel, r.Search.Grid, r.Search.Points, r.Validation.Method, memberBits(ms.Network, o.Bits), r.Config.N, kappaLabelOf(ms.Network), r.Config.Kappa, r.Config.Lambda, r.Validated.Mean, r.Validated.Std)
		}
		chose := "N=%d"
		if len(f.family()) > 1 {
			chose = f.network() + " N=%d"
		}
		w("The design chose "+chose+", %s=%d, λ=%g (%s penalty) with P (see Accuracy against size); validated again on the same folds (`hdlgen eval`): %.4f ± %.4f.",
			c.N, f.kappaLabel(), c.Kappa, c.Lambda, c.Regularizer, f.Eval.Validated.Mean, f.Eval.Validated.Std)
	} else {
		w("N=%d, %s=%d, λ=%g (%s penalty) were given (--n, --lambda, --kappa; no search); their %s validation accuracy with the %d-bit rounded readout: %.4f ± %.4f.",
			c.N, f.kappaLabel(), c.Kappa, c.Lambda, c.Regularizer, f.Eval.Validation.Method, f.ReadoutBits(), f.Eval.Validated.Mean, f.Eval.Validated.Std)
	}
	switch {
	case !f.FloatReadout():
		w(" Readout: the ridge solution rounded to the %s's own %d bits by `hdlgen train` (--bits and --readout apply to the other members).\n\n", f.deployed(), f.ReadoutBits())
	case rc != nil && o.Readout == ReadoutGA && rc.GACorrect < rc.RoundedCorrect:
		w(" Readout: **the GA-refined readout did worse than rounding on the validation folds** (%d against %d of %d rows correct, each fold's GA fitted on its own training rows); it is deployed because --readout ga asked for it (--readout auto would deploy the rounded one).\n\n",
			rc.GACorrect, rc.RoundedCorrect, rc.ValRows)
	case rc != nil && o.Readout == ReadoutGA:
		w(" Readout: GA-refined (--readout ga); on the validation folds it predicted %d and rounding %d of %d rows correctly.\n\n", rc.GACorrect, rc.RoundedCorrect, rc.ValRows)
	case rc != nil:
		why := "it validated strictly better"
		if f.Readout != ReadoutGA {
			why = "the GA did not validate strictly better, and rounding is simpler"
		}
		w(" Readout: on the same validation splits (each fitted on its own training rows), rounding predicted %d and the GA-refined readout %d of %d rows correctly: build deploys the %s readout (--readout auto: %s).\n\n",
			rc.RoundedCorrect, rc.GACorrect, rc.ValRows, readoutName(f.Readout), why)
	case o.Readout == ReadoutGA:
		w(" Readout: the GA-refined one (--readout ga), fitted on the training rows.\n\n")
	default:
		w(" Readout: rounded (--readout rounded).\n\n")
	}
	w("Confusion matrix of the %d-bit integer readout on the held-out rows (rows: true class, columns: predicted):\n\n", f.ReadoutBits())
	w("![confusion matrix](%s)\n\n", ConfusionSVG)
	var t strings.Builder
	_ = f.IntHeld.Matrix().WriteText(&t)
	w("<details><summary>The same matrix as text</summary>\n\n```\n%s```\n\n</details>\n\n", t.String())
}

func lambdaList(s []logreg.Scored) string {
	v := make([]string, len(s))
	for i, x := range s {
		v[i] = fmt.Sprintf("%g", x.Lambda)
	}
	return strings.Join(v, ", ")
}

// resourceCells are a design's LUT, FF, DSP, BRAM and LUT-equivalent cells.
func resourceCells(r power.Resources) string {
	return fmt.Sprintf("%d | %d | %d | %g | %.0f", r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36, LUTEq(r))
}

func (f Facts) writeCurve(w func(string, ...any)) {
	dc := f.Design
	if len(dc.Points) == 0 {
		return
	}
	o := f.Options
	w("## Accuracy against size\n\n")
	fam := f.family()
	if len(fam) > 1 {
		w("The network, N and P are chosen together: build searched each member of the family (%s; `--family` restricts it) on the same folds. ", f.familyList())
	} else {
		w("N and P are chosen together. ")
		if all := FamilyMembers(o.Win); o.Family == "" && f.Searched && len(all) > len(fam) {
			w("From %d training rows build searches the %s only: `--family %s` adds the rest of the family, the two-layer search alone taking about 4.5 times the intRVFL's (docs/build.md, \"The family\"). ",
				CoarseGridRows, fam[0].Network, FamilyList(o.Win))
		}
	}
	w("For each N the search scored (its best κ and λ), the %s validation accuracy of the %s rounded readout, and the design the objective picks at that N among P = 1, 2, 4, …, N, with every resource, estimated by hdlgen's analytic model (`hdlgen power` at each P; the declared readout width, so an upper bound). ",
		f.Search.Validation.Method, f.bitsText())
	var curveDesigns []power.Design
	for _, pt := range dc.Points {
		if c := pt.BestSize(); c != nil {
			curveDesigns = append(curveDesigns, c.Estimate.Design)
		}
	}
	w("%s\n\n", bandNote(curveDesigns))
	of := "N"
	if len(fam) > 1 {
		of = "network and N"
	}
	w("The tolerance is %s: %.4f, so every %s with a validation accuracy of at least %.4f − %.4f = %.4f is accepted, and among their designs the chosen one has %s.\n\n",
		dc.From, dc.Tolerance, of, dc.Best, dc.Tolerance, dc.Best-dc.Tolerance, strings.TrimPrefix(f.objectiveText(), "P with "))
	w("![accuracy against N](%s)\n\n![accuracy against LUT-equivalents](%s)\n\n", CurveNSVG, CurveLUTSVG)
	for _, ms := range fam {
		who := "the search"
		if len(fam) > 1 {
			who = "the search of " + string(ms.Network)
		}
		if ext := ms.Result.Extension; ext != nil {
			if len(ext.Extended) > 0 {
				w("The best N of %s sat at the grid's edge, so it scored larger N too: %s; it stopped because %s.\n\n", who, joinInts(ext.Extended), ext.Stopped)
			} else {
				w("No extension of N beyond the grid by %s: %s.\n\n", who, ext.Stopped)
			}
		}
	}
	netCol, netAlign := "", ""
	if len(fam) > 1 {
		netCol, netAlign = "network | ", "--- | "
	}
	w("| %sN | κ | λ | validation accuracy | within tolerance | P | LUT | FF | DSP | BRAM36 | LUT-eq | %s energy | notes |\n| %s---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n", netCol, o.BudgetOn, netAlign)
	for i, pt := range dc.Points {
		within := "no"
		if pt.Within {
			within = "yes"
		}
		note := ""
		if i == dc.Chosen {
			note = "**chosen**"
		}
		if f.searchBest(pt) {
			note = strings.TrimPrefix(note+"; the search's best", "; ")
		}
		net := ""
		if len(fam) > 1 {
			net = string(pt.Network) + " | "
		}
		c := pt.BestSize()
		if c == nil {
			var why []string
			for _, s := range pt.Sizes {
				why = append(why, fmt.Sprintf("P=%d: %s", s.P, s.Why))
			}
			w("| %s%d | %d | %g | %.4f | %s | — | — | — | — | — | — | — | no P meets the constraints (%s) %s |\n", net, pt.N, pt.Kappa, pt.Lambda, pt.Accuracy, within, strings.Join(why, "; "), note)
			continue
		}
		w("| %s%d | %d | %g | %.4f | %s | %d | %s | %s | %s |\n", net, pt.N, pt.Kappa, pt.Lambda, pt.Accuracy, within, c.P, resourceCells(c.Estimate.Resources), power.FormatEnergy(c.Estimate.BudgetedJ), note)
	}
	w("\nLUT-equivalents weigh each resource by its share of the %s: a DSP48E1 counts %.0f LUTs, a BRAM36 %.0f, a FF half a LUT.\n\n",
		board.XC7Z020.Part, float64(board.XC7Z020.LUTs)/float64(board.XC7Z020.DSPs), float64(board.XC7Z020.LUTs)/float64(board.XC7Z020.BRAM36))
}

// searchBest reports whether pt is its member's search's best configuration.
func (f Facts) searchBest(pt DesignPoint) bool {
	for _, ms := range f.family() {
		if ms.Network == pt.Network && ms.Result.Config.N == pt.N {
			return true
		}
	}
	return false
}

// family is every member's search: Facts.Family, or for facts without one
// (a single network) the search as the intRVFL's.
func (f Facts) family() []MemberSearch {
	if len(f.Family) > 0 {
		return f.Family
	}
	return []MemberSearch{{Network: model.IntRVFL, Result: f.Search}}
}

// familyList names the members with their best validation accuracy.
func (f Facts) familyList() string {
	var parts []string
	for _, ms := range f.family() {
		name := string(ms.Network)
		if sel := ms.Result.Config.Select; sel != 0 {
			name += fmt.Sprintf(" (units chosen among %d candidates each, `--select %d`)", sel, sel)
		}
		parts = append(parts, fmt.Sprintf("%s %.4f", name, ms.Result.Validated.Mean))
	}
	return strings.Join(parts, ", ")
}

// deployed is the network of the deployed design.
func (f Facts) deployed() model.Arch {
	if a := f.Eval.Config.Arch; a != "" {
		return model.Arch(a)
	}
	return model.IntRVFL
}

// ReadoutBits is the deployed readout's width: --bits, or the network's own
// (the conj's 8).
func (f Facts) ReadoutBits() int { return memberBits(f.deployed(), f.Options.Bits) }

// bitsText names the readout widths of the searched members: "5-bit", or
// "5-bit (conj: 8-bit)" when a member has a width of its own.
func (f Facts) bitsText() string {
	s := fmt.Sprintf("%d-bit", f.Options.Bits)
	var own []string
	for _, ms := range f.family() {
		if ownWidth(ms.Network) {
			own = append(own, fmt.Sprintf("%s: %d-bit", ms.Network, memberBits(ms.Network, f.Options.Bits)))
		}
	}
	if len(own) > 0 {
		s += " (" + strings.Join(own, ", ") + ")"
	}
	return s
}

// FloatReadout reports whether the deployed network has a float readout
// that was rounded (not one trained as integers of its own width: the conj).
func (f Facts) FloatReadout() bool { return !ownWidth(f.deployed()) }

// kappaLabel is how the deployed network names its κ ("D" for the conj).
func (f Facts) kappaLabel() string { return kappaLabelOf(f.deployed()) }

// kappaLabelOf is network arch's name of κ (model.Traits.KappaLabel).
func kappaLabelOf(arch model.Arch) string {
	t, err := model.TraitsOf(arch)
	if err != nil {
		return "κ"
	}
	return t.KappaLabel()
}

// network is the deployed network's name.
func (f Facts) network() string { return networkName(f.deployed()) }

func (f Facts) writeSizes(w func(string, ...any)) {
	o := f.Options
	w("## Design space over P\n\n")
	w("The P of this network, estimated by hdlgen's analytic model (`hdlgen power %s --parallel P`; resources before synthesis, energy by the power model of docs/energy-model.md). P is chosen as the one with %s.\n\n",
		intModel, strings.TrimPrefix(f.objectiveText(), "P with "))
	w("| P | LUT | FF | DSP | BRAM36 | LUT-eq | latency | throughput (M/s) | dynamic energy | total energy | Fmax (est.) | notes |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	dyn := bestBy(f.Sizes, func(e power.Estimate) float64 { return e.DynamicJ })
	tot := bestBy(f.Sizes, func(e power.Estimate) float64 { return e.TotalJ })
	for i, c := range f.Sizes {
		e := c.Estimate
		var notes []string
		if i == f.Chosen {
			notes = append(notes, "**chosen**")
		}
		if i == dyn {
			notes = append(notes, "least dynamic energy")
		}
		if i == tot {
			notes = append(notes, "least total energy")
		}
		if !c.Feasible && c.Why != "" {
			notes = append(notes, c.Why)
		} else if !c.Fits {
			notes = append(notes, "does not fit the device: "+c.Over)
		}
		w("| %d | %s | %.3g µs | %.4g | %s | %s | %.0f MHz | %s |\n", c.P, resourceCells(e.Resources), e.LatencyS*1e6,
			e.ClockHz/float64(e.II)/1e6, power.FormatEnergy(e.DynamicJ), power.FormatEnergy(e.TotalJ), c.FmaxMHz, strings.Join(notes, "; "))
	}
	var ds []power.Design
	for _, c := range f.Sizes {
		ds = append(ds, c.Estimate.Design)
	}
	w("\nEvery row is an estimate (nothing here is synthesised but the chosen design: its Yosys counts are under Hardware). %s\n", bandNote(ds))
	if last := f.Sizes[len(f.Sizes)-1]; last.P < last.Estimate.Design.N {
		w("\nP above %d (up to N = %d) is not listed: hdlgen's estimate was measured against Yosys up to P = %d only (docs/energy-model.md, \"Error band over the build's range\"); `hdlgen power %s --parallel P` estimates any P, with an error not measured there.\n",
			last.P, last.Estimate.Design.N, power.MeasuredPMax(last.Estimate.Design.Arch), intModel)
	}
	if r := f.Power.Resources; r.Source == "yosys" && r.LUTs+r.LUTRAM > 0 {
		est := f.Sizes[f.Chosen].Estimate.Resources
		w("\nAt the chosen P the estimate's LUTs are %+.0f %% off Yosys's (%d estimated against %d by Yosys).\n",
			100*(float64(est.LUTs+est.LUTRAM)/float64(r.LUTs+r.LUTRAM)-1), est.LUTs+est.LUTRAM, r.LUTs+r.LUTRAM)
	}
	w("\nThe energy objective (the default) minimises the %s energy per classification, the energy a `--budget` constrains (`--budget-on dynamic|total`); the total adds the PL's static power over the latency.\n\n", o.BudgetOn)
}

// bandNote says how far the analytic estimates of designs ds are from
// Yosys's counts: the error band measured over each P range they fall in
// (power.BandOf, from the committed calibration), and which of them lie
// outside every measured range.
func bandNote(ds []power.Design) string {
	var archs []model.Arch
	for _, d := range ds {
		if !slices.Contains(archs, d.Arch) {
			archs = append(archs, d.Arch)
		}
	}
	var out []string
	for _, a := range archs {
		var of []power.Design
		for _, d := range ds {
			if d.Arch == a {
				of = append(of, d)
			}
		}
		note := archBandNote(of)
		if len(archs) > 1 {
			note = fmt.Sprintf("The %s: %s", a, note)
		}
		out = append(out, note)
	}
	return strings.Join(out, " ")
}

// archBandNote is bandNote for designs of one network type.
func archBandNote(ds []power.Design) string {
	var parts, outside []string
	seen := map[string]bool{}
	for _, d := range ds {
		b, ok := power.BandOf(d)
		if !ok {
			if t := fmt.Sprintf("P=%d (N=%d)", d.P(), d.N); !seen[t] {
				seen[t] = true
				outside = append(outside, t)
			}
			continue
		}
		if t := b.Text(); !seen[t] {
			seen[t] = true
			parts = append(parts, fmt.Sprintf("P %d…%d: %s", b.PMin, b.PMax, t))
		}
	}
	var out []string
	if len(parts) > 0 {
		out = append(out, "Estimated by hdlgen's analytic model — "+strings.Join(parts, "; ")+".")
	}
	if len(outside) > 0 {
		var ranges []string
		for _, b := range power.Bands(ds[0].Arch) {
			ranges = append(ranges, fmt.Sprintf("N %d…%d at P %d…%d", b.NMin, b.NMax, b.PMin, b.PMax))
		}
		measured := "none"
		if len(ranges) > 0 {
			measured = strings.Join(ranges, ", ")
		}
		out = append(out, fmt.Sprintf("Estimated by hdlgen's analytic model outside the range its error was measured over (%s): %s; their error is not known.", measured, strings.Join(outside, ", ")))
	}
	return strings.Join(out, " ")
}

// objectiveText says how P was chosen.
func (f Facts) objectiveText() string {
	return f.Options.choiceText("", "; ties to fewer LUTs")
}

func (f Facts) writeHardware(w func(string, ...any)) {
	e := f.Power
	r := e.Resources
	dev := board.XC7Z020
	w("## Hardware (%s, %s)\n\n", dev.Part, e.Design)
	w("The design in `%s/`, top module `%s_top` (valid/ready stream) and `%s_axis` (AXI4-Stream). Resources (%s", hwDir, f.prefix(), f.prefix(), r.Source)
	if r.Source == "yosys" {
		w(": Yosys synth_xilinx, `%s`", synthJSON)
	}
	w(") and utilisation of the %s:\n\n", dev.Part)
	w("| resource | used | available | utilisation |\n| --- | ---: | ---: | ---: |\n")
	w("| LUT (LUT6 sites) | %d | %d | %s |\n", r.LUTs, dev.LUTs, pct(float64(r.LUTs), float64(dev.LUTs)))
	w("| FF | %d | %d | %s |\n", r.FFs, dev.FFs, pct(float64(r.FFs), float64(dev.FFs)))
	w("| DSP48E1 | %d | %d | %s |\n", r.DSP48E1, dev.DSPs, pct(float64(r.DSP48E1), float64(dev.DSPs)))
	w("| BRAM36 | %g | %d | %s |\n", r.BRAM36, dev.BRAM36, pct(r.BRAM36, float64(dev.BRAM36)))
	w("| LUTRAM/SRL | %d | %d | %s |\n\n", r.LUTRAM, dev.LUTRAM, pct(float64(r.LUTRAM), float64(dev.LUTRAM)))
	if est := f.Sizes[f.Chosen].Estimate.Resources; r.Source == "yosys" && r.LUTs > 0 {
		ea := est.LUTs + est.LUTRAM
		w("These counts are **Yosys's**. The analytic estimate of the same P (the tables above) was %d LUTs, %d FF, %d DSP48E1, %g BRAM36: its LUTs are %+.0f %% off Yosys's here. The estimates in the tables above are the analytic model's, not synthesised: %s\n\n",
			ea, est.FFs, est.DSP48E1, est.BRAM36, 100*(float64(ea)-float64(r.LUTs+r.LUTRAM))/float64(r.LUTs+r.LUTRAM), bandNote([]power.Design{f.Sizes[f.Chosen].Estimate.Design}))
	}
	w("Latency: %d cycles = %.3g µs at %.4g MHz (exact, from the design's pipeline plan). Throughput: one classification every %d cycles = %.4g million per second.\n\n",
		e.Cycles, e.LatencyS*1e6, e.ClockHz/1e6, e.II, e.ClockHz/float64(e.II)/1e6)
	if t := f.Synth.Timing; t != nil {
		w("Fmax: %s — estimated by hdlgen's static timing model of the Yosys netlist (docs/timing.md; no placement, so an estimate, not a sign-off). Worst path: %s.\n\n",
			t.Headline(e.ClockHz/1e6), t.PathShort())
	}
	w("Energy per classification, estimated by hdlgen's power model (`hdlgen power`, docs/energy-model.md; %s resources × coefficients, %.3g %% toggle rate): dynamic %s, PL static %s, total %s. Power: dynamic %s.\n\n",
		r.Source, 100*e.Toggle, power.FormatEnergy(e.DynamicJ), power.FormatEnergy(e.PLStaticJ), power.FormatEnergy(e.TotalJ), power.FormatPower(e.DynamicW))
}

func (f Facts) writeVerification(w func(string, ...any)) {
	o := f.Options
	w("## Verification\n\n")
	w("Against the Go simulator, bit for bit and cycle for cycle, with random gaps and back-pressure. Verilator checks all %d test vectors; Icarus, the second and independent simulator (and much slower), a copy of the design emitted from the same model with %d of them: every corner vector, random ones and at least %d cycles. The model step recomputes every vector's expected output from `model.json`.\n\n",
		o.Vectors, f.IcarusVectors, icarusMinCycles)
	w("| check | top | folder | vectors | cycles | result | time |\n| --- | --- | --- | ---: | ---: | --- | ---: |\n")
	for _, c := range f.Verify.Checks {
		top := c.Target
		if top == "" {
			top = "both"
		}
		step := c.Step
		if c.Simulator != "" {
			step = c.Simulator
		}
		if !c.Ran {
			w("| %s | %s | `%s` | — | — | %s | — |\n", step, top, c.Folder, c.Why)
			continue
		}
		res := "pass"
		if !c.Result.Passed {
			res = "**FAIL**"
		}
		vec, cyc := "—", "—"
		if c.Step != stepLint {
			vec = fmt.Sprint(c.Result.Vectors)
		}
		if c.Result.Cycles > 0 {
			cyc = fmt.Sprint(c.Result.Cycles)
		}
		w("| %s | %s | `%s` | %s | %s | %s | %.1f s |\n", step, top, c.Folder, vec, cyc, res, c.Result.Seconds)
	}
	w("\nResult: %s.\n\n", f.verdict())
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// mdText is a name from the user's data as the report prints it (see
// confusion.Label): nothing in it can break the Markdown or the page.
func mdText(s string) string { return confusion.Label(s) }

// classList lists class names, each as mdText prints it.
func classList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = mdText(n)
	}
	return strings.Join(out, ", ")
}

// curveSVG plots the validation accuracy of each N of the curve against N
// (or the LUT-equivalents of its design) as points, with the Pareto front,
// the tolerance's threshold and the baseline as references, and the chosen
// design marked.
func curveSVG(f Facts, luts bool) []byte {
	dc := f.Design
	lo, hi, xmax := dc.Best-dc.Tolerance, dc.Best, 0.0
	var mark []svgplot.Mark
	var series []svgplot.PointSeries
	for _, ms := range f.family() {
		var pts []svgplot.Point
		for i, pt := range dc.Points {
			if pt.Network != ms.Network && pt.Network != "" {
				continue
			}
			x := float64(pt.N)
			c := pt.BestSize()
			if luts {
				if c == nil {
					continue // no design at this N meets the constraints
				}
				x = LUTEq(c.Estimate.Resources)
			}
			label := fmt.Sprintf("%s N=%d %s=%d λ=%g: %.4f", pt.Network, pt.N, kappaLabelOf(pt.Network), pt.Kappa, pt.Lambda, pt.Accuracy)
			if c != nil {
				label += fmt.Sprintf(", P=%d, %.0f LUT-eq", c.P, LUTEq(c.Estimate.Resources))
			}
			pts = append(pts, svgplot.Point{X: x, Y: pt.Accuracy, Label: label})
			lo, hi, xmax = math.Min(lo, pt.Accuracy), math.Max(hi, pt.Accuracy), math.Max(xmax, x)
			if i == dc.Chosen {
				text := fmt.Sprintf("chosen: N=%d", pt.N)
				if len(f.family()) > 1 {
					text = fmt.Sprintf("chosen: %s N=%d", pt.Network, pt.N)
				}
				if c != nil {
					text += fmt.Sprintf(", P=%d", c.P)
				}
				mark = append(mark, svgplot.Mark{X: x, Y: pt.Accuracy, Label: text})
			}
		}
		name := "each N (best κ, λ)"
		if len(f.family()) > 1 {
			name = string(ms.Network) + ": each N (best κ, λ)"
		}
		series = append(series, svgplot.PointSeries{Name: name, Points: pts, Front: luts})
	}
	refs := []svgplot.Reference{{Name: fmt.Sprintf("best − tolerance %.4f", dc.Best-dc.Tolerance), Y: dc.Best - dc.Tolerance}}
	bl := f.Baseline.Validated.Mean
	if bl > 0 {
		refs = append(refs, svgplot.Reference{Name: fmt.Sprintf("logistic regression %.4f", bl), Y: bl})
		lo, hi = math.Min(lo, bl), math.Max(hi, bl)
	}
	pad := math.Max(0.005, (hi-lo)*0.1)
	x := svgplot.Axis{Label: "hidden neurons N", Min: 0, Max: math.Max(xmax*1.05, 1)}
	title := "validation accuracy against N"
	if luts {
		x.Label = "LUT-equivalents of the N's design (analytic)"
		title = "validation accuracy against LUT-equivalents"
	}
	y := svgplot.Axis{Label: fmt.Sprintf("validation accuracy (%s rounded)", f.bitsText()), Min: math.Max(0, lo-pad), Max: math.Min(1, hi+pad)}
	return svgplot.Points(title, x, y, series, refs, mark)
}

// HardwareReadme renders the README.md of the emitted design directory.
func HardwareReadme(f Facts) string {
	e := f.Power
	o := f.Options
	c := f.Eval.Config // the deployed network (the search's best may be a larger N)
	top := levelMax(model.Arch(c.Arch), c.N)
	pre := f.prefix()
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# %s\n\n", pre)
	float := fmt.Sprintf("; float readout %.4f", f.FloatHeld.Accuracy)
	if !f.FloatReadout() {
		float = ""
	}
	w("Emitted by `hdlgen build` from `%s` (%s N=%d, %s=%d, %d-bit %s readout, P=%d). Held-out accuracy of this design: %.4f (%d/%d rows%s). See ../%s for the full report.\n\n",
		nameOf(f.Data.File), f.network(), c.N, f.kappaLabel(), c.Kappa, f.ReadoutBits(), readoutName(f.Readout), f.Sizes[f.Chosen].P, f.IntHeld.Accuracy, f.IntHeld.Correct, f.IntHeld.Total, float, ReportName)
	w("## What goes in: encoded levels, not raw features\n\n")
	bitsIn := levelBits(c.N)
	if f.deployed() == model.Conj {
		bitsIn = levelBits(top)
	}
	w("The core takes, for each of the K=%d features, its **level**: an integer v in 0…%d, %d bits (feature i in `in_data_i[i*%d +: %d]` of the stream top; one feature per beat, in the low bits of `s_axis_tdata`, on the AXI4-Stream top). It does not take the raw feature values and does not normalise them: **the host encodes** each raw value x of feature i, with the training rows' minimum and maximum that `model.json` stores (`normalization.min[i]`, `normalization.max[i]`):\n\n",
		f.Data.Features, top, bitsIn, bitsIn, bitsIn)
	if f.deployed() == model.Conj {
		// the 8-bit input code (model.InputCode, docs/semantics.md §3c)
		w("    u = (x − min[i]) / (max[i] − min[i]), clamped to [0, 1] (0 when max[i] = min[i]);  v = min(%d, floor(u·%d + 0.5))\n\n", top, top+1)
	} else {
		w("    u = (x − min[i]) / (max[i] − min[i]), clamped to [0, 1] (0 when max[i] = min[i]);  v = floor(u·%d + 0.5)\n\n", top)
	}
	w("`hdlgen predict model.json --data rows.csv` classifies raw rows this way in Go, and `hdlgen sim` turns raw rows into the levels the RTL sees; the test vectors in `vectors/` are levels already. docs/rtl-interface.md specifies the ports and the packing.\n\n")
	w("## Files\n\n")
	w("- `rtl/`: Verilog-2005 — `%s_top` (valid/ready stream), `%s_axis` (AXI4-Stream), `%s_core`; `mem/`: ROM images; `vectors/`: %d test vectors and the Go simulator's expected outputs.\n", pre, pre, pre, o.Vectors)
	w("- `make verify`: lint, Verilator and Icarus against the Go simulator (all %d vectors on both simulators; `hdlgen build` ran Icarus on %d of them, in ../%s); `make synth`: Yosys; `make vivado`: the Vivado flow (`vivado/`, `constraints/`).\n", o.Vectors, f.IcarusVectors, icarusDir)
	w("- Latency %d cycles (%.3g µs at %.4g MHz); a new vector every %d cycles.\n\n", e.Cycles, e.LatencyS*1e6, e.ClockHz/1e6, e.II)
	w("`make verify` checks the design against the Go simulator on its %d test vectors (simulation: it checks, on those vectors, it does not prove); the formal proofs are those of the Zynq system's AXI4-Lite slave and stream framing (Yosys's SAT and ABC, the `formal` package; docs/system-interface.md).\n\n", o.Vectors)
	w("## To the board\n\n")
	w("In the build folder (..), emit the Zynq system of this design — the core behind AXI DMA and AXI4-Lite registers, the Vivado project (`vivado/system.tcl`) and the host driver for this model — and run the driver's self-test against the Verilator model of the system:\n\n")
	w("    %s\n    make -C zynq/driver sim && zynq/driver/build/sim/hdlgen-run-sim selftest\n\n", f.zynqCommand())
	w("Then build the bitstream, load it and the overlay, and run `./hdlgen-run selftest` (or `python3 hdlgen.py selftest`) on the board before anything else: PASS or FAIL on the design's identity, its test vectors, a malformed vector, a flush and the rate (docs/zedboard.md).\n")
	return b.String()
}

// levelBits is the width of one level 0…n.
func levelBits(n int) int {
	w := 1
	for 1<<w <= n {
		w++
	}
	return w
}
