package cli

import (
	"fmt"

	"github.com/spf13/cobra"

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
	if err := m.QuantizeReadout(bound); err != nil {
		return err
	}
	msg := fmt.Sprintf("%d-level rounded readout (±%d, %d bits)", 2*bound+1, bound, m.Readout.Bits)
	if o.ga != "none" {
		d, err := loadLabelled(o.data, o.dataset)
		if err != nil {
			return err
		}
		if d.K() != m.K() || d.L() != m.L() {
			return fmt.Errorf("--data has %d features and %d classes, the model %d and %d", d.K(), d.L(), m.K(), m.L())
		}
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
		msg += fmt.Sprintf("; training accuracy %.4f", m.Accuracy(d.X, d.M(), d.Y))
	}
	if err := model.WriteFile(o.out, m); err != nil {
		return err
	}
	fmt.Fprintf(app.Err, "%s: %s\n", m, msg)
	fmt.Fprintln(app.Out, o.out)
	return nil
}
