package cli

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/internal/progress"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/readout"
)

type quantizeOptions struct {
	bits, bound   int
	ga            string
	seed          uint64
	data, dataset string
	population    int
	generations   int
	patience      int
	out           string
	keepGA        bool
	held          heldOutOptions
}

// GA flag limits: the population is allocated twice (quant), so it is bounded
// before the memory rule; the generation count only costs time.
const (
	maxPopulation  = 1 << 16
	maxGenerations = 1 << 30
)

func newQuantizeCmd(app *App) *cobra.Command {
	o := &quantizeOptions{}
	ga := quant.DefaultGAOptions()
	cmd := &cobra.Command{
		Use:   "quantize model.json --bits 5 [--ga none|rounded|random] [--seed S] [--data PATH] -o out.json",
		Short: "Give an intRVFL an n-bit integer readout, optionally refined by a genetic algorithm",
		Long: `Quantize rounds the ridge readout W_out to symmetric integers (bits b: levels
±(2^(b−1)−1); or --bound B instead: levels −B…B) and stores it in the model, where
integer inference, the simulator and the RTL use it.

--ga rounded refines the rounded readout with a genetic algorithm whose fitness is
the generalised LVQ cost on the training data (quant/doc.go has the exact
definition); --ga random starts the GA from random integers instead. The GA needs
the training data (--data, as given to train); it is deterministic for a --seed
and never returns a readout worse, by its fitness, than the rounded one. Ctrl-C
stops it (exit 130, nothing written).

With --data, quantize holds out the same stratified share of the rows as
"hdlgen train" (--holdout 0.25, --split-seed 0; or --test FILE): the GA is fitted
on the other rows only, and the training and held-out accuracy of the float and
the integer readout are printed. A GA readout that is worse on the held-out rows
than plain rounding is not kept: quantize writes the rounded readout and says
so (--keep-ga keeps the GA's anyway). When rounding loses more than 5 points of
held-out accuracy, quantize warns.

` + dataHelp,
		Example: `  hdlgen quantize iris.json --bits 5 -o iris-5bit.json
  hdlgen quantize iris.json --bound 2 --ga rounded --data example:iris -o iris-ga.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, app, args[0]) },
	}
	f := cmd.Flags()
	f.IntVar(&o.bits, "bits", 5, fmt.Sprintf("readout width in bits (%d…%d)", quant.MinBits, quant.MaxBits))
	f.IntVar(&o.bound, "bound", 0, fmt.Sprintf("readout levels −B…B (1…%d) instead of --bits", quant.MaxBound))
	f.StringVar(&o.ga, "ga", string(readout.None), "refinement: none, rounded (GA seeded with the rounded readout) or random (GA from random integers)")
	f.Uint64Var(&o.seed, "seed", defaultSeed, "GA seed")
	f.StringVar(&o.data, "data", "", "training data for the GA (CSV, collection folder with --dataset, or example:NAME)")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a collection folder")
	f.IntVar(&o.population, "population", ga.Population, fmt.Sprintf("GA population (2…%d)", maxPopulation))
	f.IntVar(&o.generations, "generations", ga.Generations, fmt.Sprintf("GA generation limit (0…%d)", maxGenerations))
	f.IntVar(&o.patience, "patience", ga.Patience, "GA: stop once the cost has not improved for this many generations (0: never stop early)")
	f.StringVarP(&o.out, "out", "o", "", "model.json to write")
	hiddenAlias(f, "output", "out")
	f.BoolVar(&o.keepGA, "keep-ga", false, "keep the GA's readout even when it is worse than rounding on the held-out rows")
	o.held.bind(f)
	argsAreInputs(cmd, "model.json")
	markInputs(cmd, "data", "test")
	markOutput(cmd, "out", outputFile)
	return cmd
}

// options checks the flags and returns the readout options.
func (o *quantizeOptions) options(cmd *cobra.Command) (readout.Options, error) {
	if o.out == "" {
		return readout.Options{}, usagef("required flag -o/--out (the model.json to write) not set")
	}
	fl := cmd.Flags()
	method, err := readout.ParseMethod(o.ga)
	if err != nil {
		return readout.Options{}, usagef("--ga %v", err)
	}
	var bound int
	switch {
	case fl.Changed("bound") && fl.Changed("bits"):
		return readout.Options{}, usagef("--bits %d and --bound %d both given: choose one (--bits b means --bound 2^(b−1)−1)", o.bits, o.bound)
	case fl.Changed("bound"):
		if err := inRange("--bound", o.bound, 1, quant.MaxBound); err != nil {
			return readout.Options{}, err
		}
		bound = o.bound
	default:
		if err := inRange("--bits", o.bits, quant.MinBits, quant.MaxBits); err != nil {
			return readout.Options{}, err
		}
		bound = quant.BoundForBits(o.bits)
	}
	if method == readout.None {
		for _, name := range []string{"population", "generations", "patience", "seed"} {
			if fl.Changed(name) {
				return readout.Options{}, usagef("--%s applies to the GA: add --ga rounded or --ga random", name)
			}
		}
	} else if o.data == "" {
		return readout.Options{}, usagef("--ga %s needs the training data: --data", o.ga)
	}
	if o.data == "" {
		for _, name := range []string{"holdout", "split-seed", "test", "label-column"} {
			if fl.Changed(name) {
				return readout.Options{}, usagef("--%s applies to the data: add --data", name)
			}
		}
	}
	if err := inRange("--population", o.population, 2, maxPopulation); err != nil {
		return readout.Options{}, err
	}
	if err := inRange("--generations", o.generations, 0, maxGenerations); err != nil {
		return readout.Options{}, err
	}
	if err := inRange("--patience", o.patience, 0, maxGenerations); err != nil {
		return readout.Options{}, err
	}
	ga := quant.DefaultGAOptions()
	ga.Seed, ga.Population, ga.Generations, ga.Patience = o.seed, o.population, o.generations, o.patience
	return readout.Options{Bound: bound, Method: method, GA: ga}, nil
}

func (o *quantizeOptions) run(cmd *cobra.Command, app *App, in string) error {
	opt, err := o.options(cmd)
	if err != nil {
		return err
	}
	m, err := model.ReadFile(in)
	if err != nil {
		return err
	}
	var d *readout.Data
	var s split
	if o.data != "" {
		if s, err = o.held.load(app, cmd.Flags(), o.data, o.dataset, nil); err != nil {
			return err
		}
		ld := s.Fit
		if ld.K() != m.K() || ld.L() != m.L() {
			return fmt.Errorf("--data has %d features and %d classes, the model %d and %d", ld.K(), ld.L(), m.K(), m.L())
		}
		if !slices.Equal(ld.ClassNames, m.ClassNames) {
			return fmt.Errorf("--data has the classes %q, the model %q", ld.ClassNames, m.ClassNames)
		}
		d = &readout.Data{X: ld.X, Rows: ld.M(), Y: ld.Y}
		if opt.Method != readout.None {
			// Two populations of L×(N+M) int32 and the M×N int8 activations twice.
			pop := 2 * float64(opt.GA.Population) * float64(m.L()) * float64(m.N()+d.Rows) * 4
			if err := app.checkMemory(fmt.Sprintf("the GA (population %d, %d rows, N=%d, L=%d)", opt.GA.Population, d.Rows, m.N(), m.L()),
				pop+2*float64(d.Rows)*float64(m.N())); err != nil {
				return err
			}
		}
	}
	var rounded *model.Model // the plain rounding, for the GA's held-out check
	if opt.Method != readout.None && s.Held != nil {
		r := *m
		if err := r.QuantizeReadout(opt.Bound); err != nil {
			return err
		}
		rounded = &r
	}
	if opt.Method != readout.None {
		pr := progress.New(app.Err, "GA")
		start := time.Now()
		opt.GA.Progress = func(g int, cost float64) {
			pr.Update(g, opt.GA.Generations, fmt.Sprintf("generations, best cost %.6g, about %s left", cost,
				jobs.TimeLeft(start, float64(g), float64(opt.GA.Generations))))
		}
		defer pr.Clear()
	}
	res, err := readout.Quantize(cmd.Context(), m, d, opt)
	if err != nil {
		return err
	}
	var gaNote string
	if rounded != nil {
		var keep bool
		keep, gaNote = chooseGA(m.Accuracy(s.Held.X, s.Held.M(), s.Held.Y), rounded.Accuracy(s.Held.X, s.Held.M(), s.Held.Y), o.keepGA)
		if !keep {
			m.Readout = rounded.Readout
		}
	}
	if err := app.writeModel(cmd.Context(), "-o", o.out, m); err != nil {
		return err
	}
	msg := fmt.Sprintf("%d-level rounded readout (±%d, %d bits)", 2*res.Bound+1, res.Bound, res.Bits)
	if res.Bound >= 3 {
		msg += fmt.Sprintf(", %.0f%% of the weights in {−1, 0, 1}", 100*res.SmallShare)
	}
	if res.GA != nil {
		msg += fmt.Sprintf(", GA (%s) cost %.4g → %.4g in %d generations", o.ga, res.GA.InitialCost, res.GA.Cost, res.GA.Generations)
	}
	fmt.Fprintf(app.Err, "%s: %s\n", m, msg)
	if res.Warning != "" {
		fmt.Fprintf(app.Err, "hdlgen: warning: %s\n", res.Warning)
	}
	if gaNote != "" {
		fmt.Fprintf(app.Err, "hdlgen: %s\n", gaNote)
	}
	if d != nil {
		held := "no rows held out"
		if s.Held != nil {
			held = "validated on " + s.What
		}
		fmt.Fprintf(app.Err, "accuracy on %d training rows, %s:\n", s.Fit.M(), held)
		writeAccuracies(app, accuracies(m, s))
	}
	fmt.Fprintln(app.Out, o.out)
	return nil
}

// writeModel writes m to path (the output of flag) through the command's guard
// unless ctx has ended: an interrupted command
// writes nothing.
func (app *App) writeModel(ctx context.Context, flag, path string, m *model.Model) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := model.Marshal(m)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return app.writeFile(flag, path, b)
}

// chooseGA decides between the GA's readout and plain rounding by their
// held-out accuracies: the GA's is kept when it is at least as good, or when
// force (--keep-ga) says so. note says what was decided.
func chooseGA(ga, rounded float64, force bool) (keep bool, note string) {
	switch {
	case ga >= rounded:
		return true, fmt.Sprintf("the GA readout's held-out accuracy %.4f ≥ rounding's %.4f: keeping the GA readout", ga, rounded)
	case force:
		return true, fmt.Sprintf("warning: the GA readout's held-out accuracy %.4f < rounding's %.4f: keeping the GA readout (--keep-ga)", ga, rounded)
	}
	return false, fmt.Sprintf("warning: the GA readout's held-out accuracy %.4f < rounding's %.4f: writing the rounded readout instead (--keep-ga keeps the GA's)", ga, rounded)
}
