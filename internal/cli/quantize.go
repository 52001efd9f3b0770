package cli

import (
	"fmt"
	"math"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

type quantizeOptions struct {
	bits, bound   int
	ga            string
	seed          uint64
	data, dataset string
	population    int
	generations   int
	out           string
}

func newQuantizeCmd(app *App) *cobra.Command {
	o := &quantizeOptions{}
	cmd := &cobra.Command{
		Use:   "quantize model.json --bits 5 [--ga none|rounded|random] [--seed S] [--data PATH] -o out.json",
		Short: "Give an intRVFL an n-bit integer readout, optionally refined by a genetic algorithm",
		Long: `Quantize rounds the ridge readout W_out to symmetric integers (bits b: levels
±(2^(b−1)−1); or --bound B: levels −B…B) and stores it in the model, where integer
inference, the simulator and the RTL use it.

--ga rounded refines the rounded readout with a genetic algorithm whose fitness is
the generalised LVQ cost on the training data (quant/doc.go has the exact
definition); --ga random starts the GA from random integers instead. The GA needs
the training data (--data, as given to train); it is deterministic for a --seed
and never returns a readout worse, by its fitness, than the rounded one.

` + dataHelp,
		Example: `  hdlgen quantize iris.json --bits 5 -o iris-5bit.json
  hdlgen quantize iris.json --bound 2 --ga rounded --data example:iris -o iris-ga.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(app, args[0]) },
	}
	f := cmd.Flags()
	f.IntVar(&o.bits, "bits", 5, "readout width in bits (2…16)")
	f.IntVar(&o.bound, "bound", 0, "readout levels −B…B instead of --bits")
	f.StringVar(&o.ga, "ga", "none", "refinement: none, rounded (GA seeded with the rounded readout) or random (GA from random integers)")
	f.Uint64Var(&o.seed, "seed", 1, "GA seed")
	f.StringVar(&o.data, "data", "", "training data for the GA (CSV, collection folder with --dataset, or example:NAME)")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a collection folder")
	f.IntVar(&o.population, "population", 0, "GA population (0: default)")
	f.IntVar(&o.generations, "generations", 0, "GA generation limit (0: default)")
	f.StringVarP(&o.out, "output", "o", "", "model.json to write")
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func (o *quantizeOptions) run(app *App, in string) error {
	bound := o.bound
	if bound == 0 {
		if o.bits < quant.MinBits || o.bits > quant.MaxBits {
			return usagef("--bits %d outside [%d, %d]", o.bits, quant.MinBits, quant.MaxBits)
		}
		bound = quant.BoundForBits(o.bits)
	}
	if bound < 1 || bound > quant.MaxBound {
		return usagef("--bound %d outside [1, %d]", bound, quant.MaxBound)
	}
	if o.ga != "none" && o.ga != "rounded" && o.ga != "random" {
		return usagef("--ga %q: want none, rounded or random", o.ga)
	}
	if o.ga != "none" && o.data == "" {
		return usagef("--ga %s needs the training data: --data", o.ga)
	}
	m, err := model.ReadFile(in)
	if err != nil {
		return err
	}
	var d *dataset.Dataset
	floatAcc := math.NaN()
	if o.data != "" {
		ld, err := loadLabelled(o.data, o.dataset)
		if err != nil {
			return err
		}
		if ld.K() != m.K() || ld.L() != m.L() {
			return fmt.Errorf("--data has %d features and %d classes, the model %d and %d", ld.K(), ld.L(), m.K(), m.L())
		}
		d = ld
		m.Readout = nil // score with the float readout first
		floatAcc = m.Accuracy(d.X, d.M(), d.Y)
	}
	if err := m.QuantizeReadout(bound); err != nil {
		return err
	}
	msg := fmt.Sprintf("%d-level rounded readout (±%d, %d bits)", 2*bound+1, bound, m.Readout.Bits)
	small := smallCodeShare(m.Readout.Q)
	if bound >= 3 {
		msg += fmt.Sprintf(", %.0f%% of the weights in {−1, 0, 1}", 100*small)
	}
	if o.ga != "none" {
		h, err := m.Activations(m.Norm.Apply(d.X, d.M()), d.M())
		if err != nil {
			return err
		}
		opt := quant.DefaultGAOptions()
		opt.Seed = o.seed
		if o.population > 0 {
			opt.Population = o.population
		}
		if o.generations > 0 {
			opt.Generations = o.generations
		}
		var res quant.GAResult
		if o.ga == "rounded" {
			res, err = quant.Refine(m.QuantReadout(), h, d.Y, opt)
		} else {
			res, err = quant.RandomGA(m.L(), bound, h, d.Y, opt)
		}
		if err != nil {
			return err
		}
		m.Readout = model.ReadoutFromQuant(res.Readout)
		msg += fmt.Sprintf(", GA (%s) cost %.4g → %.4g in %d generations", o.ga, res.InitialCost, res.Cost, res.Generations)
	}
	intAcc := math.NaN()
	if d != nil {
		intAcc = m.Accuracy(d.X, d.M(), d.Y)
		msg += fmt.Sprintf("; training accuracy: float readout %.4f, integer readout %.4f", floatAcc, intAcc)
	}
	if err := model.WriteFile(o.out, m); err != nil {
		return err
	}
	fmt.Fprintf(app.Err, "%s: %s\n", m, msg)
	if w := roundingWarning(m.Training.Regularizer, bound, small, floatAcc, intAcc); w != "" {
		fmt.Fprintf(app.Err, "hdlgen: warning: %s\n", w)
	}
	fmt.Fprintln(app.Out, o.out)
	return nil
}

// Thresholds of the rounding warning.
const (
	warnAccuracyLoss = 0.01 // training accuracy lost by the integer readout
	warnSmallShare   = 0.90 // share of codes in {−1, 0, 1} for a readout of ≥ 7 levels a side
	warnSmallBound   = 7
)

// smallCodeShare is the share of readout codes in {−1, 0, 1}.
func smallCodeShare(q []int32) float64 {
	if len(q) == 0 {
		return 0
	}
	n := 0
	for _, v := range q {
		if v >= -1 && v <= 1 {
			n++
		}
	}
	return float64(n) / float64(len(q))
}

// roundingWarning explains, when the rounded readout loses training accuracy
// or uses few of its levels, why and what helps; "" when there is nothing to
// say. NaN accuracies mean the training data was not given. Measured over the
// UCI-121 collection (docs/semantics.md), the variance-form ridge penalty gives
// low-variance neurons large weights that max-scaling rounding crushes the
// others against; a readout trained with λ·I rounds with little loss.
func roundingWarning(reg model.Regularizer, bound int, small, floatAcc, intAcc float64) string {
	var why string
	switch {
	case intAcc < floatAcc-warnAccuracyLoss:
		why = fmt.Sprintf("the integer readout loses %.1f percentage points of training accuracy", 100*(floatAcc-intAcc))
	case bound >= warnSmallBound && small >= warnSmallShare:
		why = fmt.Sprintf("%.0f%% of the rounded weights are −1, 0 or 1: the readout uses few of its ±%d levels", 100*small, bound)
	default:
		return ""
	}
	if reg == model.RegIdentity {
		return why + "; a larger --lambda (hdlgen search --bits picks λ by the rounded readout's validation accuracy), more readout bits or --ga rounded may help"
	}
	return why + "; retraining with --regularizer identity (λ·I) usually rounds with far less loss"
}
