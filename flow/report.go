package flow

import (
	"fmt"
	"os"
	"strings"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/study/tune"
)

// Score is what `hdlgen predict --score` printed: the accuracy and the
// confusion matrix as text.
type Score struct {
	Accuracy       float64
	Correct, Total int
	Matrix         string // the table after the accuracy line
}

// readScore parses the output of predict --score.
func readScore(path string) (Score, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Score{}, fmt.Errorf("flow: %w", err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	var s Score
	if _, err := fmt.Sscanf(first, "accuracy %g (%d/%d)", &s.Accuracy, &s.Correct, &s.Total); err != nil {
		return Score{}, fmt.Errorf("flow: %s: line 1 %q: want \"accuracy A (C/T)\": %w", path, first, err)
	}
	s.Matrix = rest
	return s, nil
}

// Facts are the numbers a report is made of, each read from a step's output.
type Facts struct {
	Options       Options
	Data          tune.DataInfo
	LabelWarnings []string
	Search        tune.Result
	FloatTrain    Score
	FloatHeld     Score
	IntTrain      Score
	IntHeld       Score
	Verify        []byte
	Power         power.Estimate
	Sizing        []Candidate // the size step's candidates (nil without constraints)
	Steps         []Step
}

// pct is a share of a device capacity in percent.
func pct(used, capacity float64) string { return fmt.Sprintf("%.2f %%", 100*used/capacity) }

// Report renders DIR/REPORT.md.
func Report(f Facts) string {
	var b strings.Builder
	o := f.Options
	c := f.Search.Config
	e := f.Power
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# hdlgen build: %s\n\n", f.Data.File)
	w("Data: %d rows, %d features, %d classes (%s), label column %q. ", f.Data.Rows, f.Data.Features, f.Data.Classes,
		strings.Join(f.Data.ClassNames, ", "), f.Data.Label)
	w("Held out: a stratified share %g of each class's rows (split seed %d): %d rows for training, %d held out. ",
		o.Holdout, o.SplitSeed, f.IntTrain.Total, f.IntHeld.Total)
	w("The model is fitted on the training rows only; the held-out rows play no part in the search or the fit.\n\n")
	for _, lw := range f.LabelWarnings {
		w("**Warning:** %s\n\n", lw)
	}
	w("## Network\n\n")
	w("intRVFL with N=%d hidden neurons, κ=%d, λ=%g (%s penalty), %d-bit integer readout, seed %d; chosen by `hdlgen search` on the %s grid (%d points) by the %s validation accuracy of the %d-bit rounded readout on the training rows: %.4f ± %.4f.\n\n",
		c.N, c.Kappa, c.Lambda, c.Regularizer, o.Bits, o.Seed, f.Search.Search.Grid, f.Search.Search.Points, f.Search.Validation.Method, o.Bits,
		f.Search.Validated.Mean, f.Search.Validated.Std)
	w("## Accuracy\n\n")
	w("| readout | training (%d rows) | held-out (%d rows) |\n| --- | ---: | ---: |\n", f.IntTrain.Total, f.IntHeld.Total)
	w("| float | %.4f | %.4f |\n", f.FloatTrain.Accuracy, f.FloatHeld.Accuracy)
	w("| %d-bit integer (the hardware) | %.4f | %.4f |\n\n", o.Bits, f.IntTrain.Accuracy, f.IntHeld.Accuracy)
	if f.IntHeld.Accuracy < f.FloatHeld.Accuracy-0.05 {
		w("**Warning:** rounding to %d bits loses %.1f points of held-out accuracy.\n\n", o.Bits, 100*(f.FloatHeld.Accuracy-f.IntHeld.Accuracy))
	}
	w("Confusion matrix of the %d-bit integer readout on the held-out rows (rows: true class, columns: predicted):\n\n```\n%s```\n\n", o.Bits, f.IntHeld.Matrix)
	w("![confusion matrix](%s)\n\n", ConfusionSVG)
	if len(f.Sizing) > 0 {
		w("## Sizing\n\nConstraints: %s. P is the candidate with the fewest LUTs among those that meet every constraint, all estimated by hdlgen's analytic model (`hdlgen power model.json --parallel P`):\n\n", o.constraintText())
		w("| P | LUT (analytic) | latency | %s energy (estimated) | meets |\n| ---: | ---: | ---: | ---: | --- |\n", e.BudgetOn)
		for _, c := range f.Sizing {
			ce := c.Estimate
			mark := "no"
			if c.Feasible {
				mark = "yes"
			}
			if c.P == o.Parallel {
				mark += " (chosen)"
			}
			w("| %d | %d | %.3g µs | %s | %s |\n", c.P, ce.Resources.LUTs, ce.LatencyS*1e6, power.FormatEnergy(ce.BudgetedJ), mark)
		}
		w("\n")
	}
	w("## Hardware (%s, %s)\n\n", board.XC7Z020.Part, e.Design)
	r := e.Resources
	dev := board.XC7Z020
	w("Resources (%s", r.Source)
	if r.Source == "yosys" {
		w(": Yosys synth_xilinx, `synth.json`")
	}
	w(") and utilisation of the %s:\n\n", dev.Part)
	w("| resource | used | available | utilisation |\n| --- | ---: | ---: | ---: |\n")
	w("| LUT (LUT6 sites) | %d | %d | %s |\n", r.LUTs, dev.LUTs, pct(float64(r.LUTs), float64(dev.LUTs)))
	w("| FF | %d | %d | %s |\n", r.FFs, dev.FFs, pct(float64(r.FFs), float64(dev.FFs)))
	w("| DSP48E1 | %d | %d | %s |\n", r.DSP48E1, dev.DSPs, pct(float64(r.DSP48E1), float64(dev.DSPs)))
	w("| BRAM36 | %g | %d | %s |\n", r.BRAM36, dev.BRAM36, pct(r.BRAM36, float64(dev.BRAM36)))
	w("| LUTRAM/SRL | %d | %d | %s |\n\n", r.LUTRAM, dev.LUTRAM, pct(float64(r.LUTRAM), float64(dev.LUTRAM)))
	w("Latency: %d cycles = %.3g µs at %.4g MHz (exact, from the design's pipeline plan). Throughput: one classification every %d cycles = %.4g million per second.\n\n",
		e.Cycles, e.LatencyS*1e6, e.ClockHz/1e6, e.II, e.ClockHz/float64(e.II)/1e6)
	w("Energy per classification, estimated by hdlgen's power model (`hdlgen power`, docs/energy-model.md; %s resources × coefficients, %.3g %% toggle rate): dynamic %s, PL static %s, total %s. Power: dynamic %s.\n\n",
		r.Source, 100*e.Toggle, power.FormatEnergy(e.DynamicJ), power.FormatEnergy(e.PLStaticJ), power.FormatEnergy(e.TotalJ), power.FormatPower(e.DynamicW))
	w("## Verification\n\n```\n%s```\n\n", string(f.Verify))
	w("## Commands\n\nEach step, exactly as `hdlgen build` ran it (the split is done by build itself: the rows `hdlgen train --holdout %g --split-seed %d` would hold out, written to %s and %s):\n\n",
		o.Holdout, o.SplitSeed, trainCSV, holdoutCSV)
	w("```sh\n")
	for _, s := range f.Steps {
		if s.Command != "" {
			w("%s\n", s.Command)
		}
	}
	w("```\n\n")
	w("## Next\n\n")
	w("- Open `%s/` (its README.md) in Vivado: `make -C %s vivado`, or run `make -C %s verify` again.\n", hwDir, "hw", "hw")
	w("- Classify new rows: `hdlgen predict %s --data new.csv`; score a labelled file: add `--score`.\n", intModel)
	w("- Trade accuracy for size: rerun `hdlgen build` with `--bits 4` or a larger `--parallel` for speed; finished steps are skipped.\n")
	return b.String()
}

// HardwareReadme renders the README.md of the emitted design directory.
func HardwareReadme(f Facts) string {
	e := f.Power
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", e.Design)
	fmt.Fprintf(&b, "Emitted by `hdlgen build` from %s (%d-bit integer readout, P=%d). Held-out accuracy of this design: %.4f (%d/%d rows; float readout %.4f). See ../REPORT.md for the full report.\n\n",
		f.Data.File, f.Options.Bits, f.Options.Parallel, f.IntHeld.Accuracy, f.IntHeld.Correct, f.IntHeld.Total, f.FloatHeld.Accuracy)
	b.WriteString("- `rtl/`: Verilog-2005 (the `_top` module is the valid/ready stream top); `mem/`: ROM images; `vectors/`: test vectors and expected outputs.\n")
	b.WriteString("- `make verify`: lint, Verilator and Icarus against the Go simulator; `make synth`: Yosys; `make vivado`: the Vivado flow (`vivado/`, `constraints/`).\n")
	fmt.Fprintf(&b, "- Latency %d cycles (%.3g µs at %.4g MHz); a new vector every %d cycles.\n", e.Cycles, e.LatencyS*1e6, e.ClockHz/1e6, e.II)
	return b.String()
}
