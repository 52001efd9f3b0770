package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/tune"
)

type evalOptions struct {
	train    trainOptions
	seeds    int
	testNorm string
	json     bool
	csv      csvOptions
	// CSV only.
	firstSeed uint64
	ga        string
	gaSeed    uint64

	// Resolved from the flags by resolve, for the run (or a test's runF).
	cfg      model.Config
	testNm   protocol.TestNorm // collection
	seedList []uint64
	gaOpt    *quant.GAOptions // CSV, --ga
}

// evalCSVFlags are eval's flags for a CSV file only.
var evalCSVFlags = []string{"seed", "ga", "ga-seed"}

func newEvalCmd(app *App) *cobra.Command { return newCmdEval(app, nil) }

// newCmdEval builds eval; runF, when not nil, receives the checked options
// instead of the evaluation running (the flag tests' seam).
func newCmdEval(app *App, runF func(*evalOptions) error) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --data DIR --dataset NAME | --data FILE.csv [--test FILE.csv] --arch " + archUsage(model.Archs()) + " --n N --lambda X [--kappa K] [--seeds 5] [--json] [-o result.json]",
		Short: "Final accuracy of one configuration by the benchmark protocol",
		Long: `Eval runs the protocol's final step on a dataset of the UCI-121 collection:
4-fold cross-validation with conxuntos_kfold.dat (or train/test for datasets with a
separate test file), for seeds 0…S−1, and prints the mean and standard deviation of
the accuracy over seeds. A seed's accuracy is the mean of its fold accuracies.

On your own CSV file (--data FILE.csv) it gives the configuration's validation
accuracy on splits of that file's rows — stratified k-fold (--folds, default 4)
or one stratified holdout split (--holdout 0.25), drawn from --split-seed — with
seeds --seed … --seed+S−1 (0…S−1 by default), as mean ± standard deviation over
the splits × seeds (--ga rounded: also the GA-refined readout's), and with
--test FILE.csv its accuracy on the test file (trained on all rows of --data, the
test file normalised with their statistics), over the seeds. The penalty
defaults to the identity form there (the variance form on the collection). --json
prints, and -o writes, the result as a JSON document (docs/protocol.md).`,
		Example: `  hdlgen eval --data ../shared/uci121 --dataset iris --arch intrvfl --n 50 --lambda 4 --kappa 3 --seeds 5
  hdlgen eval --data mine.csv --test mine-test.csv --arch intrvfl --n 300 --lambda 64 --kappa 3 --bits 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.resolve(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return o.run(cmd, app)
		},
	}
	f := cmd.Flags()
	t := &o.train
	f.StringVar(&t.data, "data", "", "UCI-121 collection folder (with --dataset), or a CSV file")
	f.StringVar(&t.dataset, "dataset", "", "dataset name inside the collection")
	f.StringVar(&t.arch, "arch", "intrvfl", archHelp(model.Archs()))
	f.IntVar(&t.n, "n", 0, "hidden neurons N")
	f.Float64Var(&t.lambda, "lambda", 1, "ridge regularisation λ")
	f.IntVar(&t.kappa, "kappa", 3, "intRVFL clip threshold κ")
	f.StringVar(&t.regularizer, "regularizer", "", "ridge penalty: variance (the collection's default) or identity (a CSV's default)")
	f.IntVar(&t.bits, "bits", 0, "a network type with a readout width of choice (intrvfl): evaluate with a rounded integer readout of this many bits")
	f.BoolVar(&t.directLinks, "direct-links", false, "rvfl: add input→output links")
	f.BoolVar(&t.quantInputs, "quantized-inputs", false, "rvfl: quantise inputs to N levels")
	bindWin(f, &t.win)
	bindSelect(f, &t.selectUnits)
	intIn(f, &t.threads, "workers", 2, 1, maxThreads, "CPU workers (goroutines) of the linear algebra")
	hiddenAlias(f, "threads", "workers")
	t.solver.add(f)
	f.IntVar(&o.seeds, "seeds", 5, "number of random initialisations (seeds 0…S−1)")
	f.StringVar(&o.testNorm, "test-norm", string(protocol.TestNormOwn), "collection: "+testNormHelp)
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	o.csv.bind(f)
	f.Uint64Var(&o.firstSeed, "seed", defaultSeed, "CSV: the first network seed (seeds --seed … --seed+S−1)")
	f.StringVar(&o.ga, "ga", "", "CSV, with --bits: also validate the GA-refined readout (rounded: the GA of quantize --ga rounded) on the same splits, and record which of it and plain rounding validates better")
	f.Uint64Var(&o.gaSeed, "ga-seed", defaultSeed, "CSV, with --ga: the GA's seed (quantize --seed)")
	for _, name := range []string{"data", "n"} {
		_ = cmd.MarkFlagRequired(name)
	}
	markInputs(cmd, "data", "test")
	markOutput(cmd, "out", outputFile)
	return cmd
}

// resolve checks the flags, without reading any file, into o's resolved
// fields.
func (o *evalOptions) resolve(cmd *cobra.Command) error {
	csv := o.train.dataset == ""
	if csv {
		if err := rejectFlags(cmd, "with a CSV file", "test-norm"); err != nil {
			return err
		}
		reg, err := csvRegularizer(o.train.regularizer)
		if err != nil {
			return err
		}
		o.train.regularizer = string(reg)
	} else {
		if err := rejectFlags(cmd, "with a collection dataset", append(csvFlagNames, evalCSVFlags...)...); err != nil {
			return err
		}
		if o.train.regularizer == "" {
			o.train.regularizer = string(model.RegVariance)
		}
	}
	var err error
	if o.cfg, err = o.train.config(); err != nil {
		return err
	}
	if o.seeds < 1 {
		return usagef("--seeds %d: want at least 1", o.seeds)
	}
	o.seedList = make([]uint64, o.seeds)
	for i := range o.seedList {
		o.seedList[i] = uint64(i)
		if csv {
			o.seedList[i] += o.firstSeed
		}
	}
	if csv {
		o.gaOpt, err = csvGA(o.ga, o.gaSeed, o.cfg.Arch, o.cfg.ReadoutBits)
		return err
	}
	if o.testNm, err = protocol.ParseTestNorm(o.testNorm); err != nil {
		return usagef("--test-norm: %v", err)
	}
	return nil
}

// run evaluates the resolved configuration and prints the result.
func (o *evalOptions) run(cmd *cobra.Command, app *App) error {
	if o.train.dataset == "" { // a CSV file
		return o.runCSV(cmd, app)
	}
	cfg := o.cfg
	u, err := dataset.LoadUCI(o.train.data, o.train.dataset)
	if err != nil {
		return err
	}
	res, err := protocol.Evaluate(cmd.Context(), u, cfg, protocol.EvalOptions{Seeds: o.seedList, TestNorm: o.testNm})
	if err != nil {
		return err
	}
	if o.json {
		out := struct {
			*protocol.EvalResult
			Arch   string  `json:"arch"`
			N      int     `json:"n"`
			Lambda float64 `json:"lambda"`
			Kappa  int     `json:"kappa,omitempty"`
			Bits   int     `json:"bits,omitempty"`
			Win    string  `json:"w_in,omitempty"`
			Select int     `json:"select,omitempty"`
			model.Solver
		}{res, string(cfg.Arch), cfg.N, cfg.Lambda, 0, cfg.ReadoutBits, "", cfg.Select, cfg.Solver}
		if cfg.Win != model.WinStored {
			out.Win = cfg.Win.Flag()
		}
		if hasKappa(cfg.Arch) {
			out.Kappa = cfg.Kappa
		}
		enc := json.NewEncoder(app.Out)
		return enc.Encode(out)
	}
	fmt.Fprintf(app.Out, "%s %s N=%d λ=%g", res.Dataset, cfg.Arch, cfg.N, cfg.Lambda)
	if hasKappa(cfg.Arch) {
		t, _ := model.TraitsOf(cfg.Arch)
		fmt.Fprintf(app.Out, " %s=%d", t.KappaLabel(), cfg.Kappa)
	}
	if cfg.Win != model.WinStored {
		fmt.Fprintf(app.Out, " W_in %s", cfg.Win.Flag())
	}
	if cfg.Select != 0 {
		fmt.Fprintf(app.Out, " select %d", cfg.Select)
	}
	if !cfg.Solver.Exact() {
		fmt.Fprintf(app.Out, " solver %s", cfg.Solver)
	}
	fmt.Fprintf(app.Out, " (%s, %d seeds): accuracy %.4f ± %.4f\n", res.Protocol, len(res.Seeds), res.Mean, res.Std)
	return nil
}

// runCSV is eval on a CSV file (tune.Task.Evaluate).
func (o *evalOptions) runCSV(cmd *cobra.Command, app *App) error {
	cfg, seeds, gaOpt := o.cfg, o.seedList, o.gaOpt
	task, res, err := o.csv.task(cmd, app, o.train.data, seeds)
	if err != nil {
		return err
	}
	task.Workers = o.train.threads
	res.Command, res.Config = "eval", tune.DescribeConfig(cfg)
	if res.Validated, res.Tested, err = task.Evaluate(cmd.Context(), cfg, seeds); err != nil {
		return err
	}
	if gaOpt != nil {
		if res.Readout, err = task.ChooseReadout(cmd.Context(), cfg, quant.BoundForBits(cfg.ReadoutBits), *gaOpt, seeds); err != nil {
			return err
		}
	}
	return o.csv.emit(app, res, o.json)
}

// hasKappa reports whether κ is a hyperparameter of network type arch.
func hasKappa(arch model.Arch) bool {
	t, _ := model.TraitsOf(arch)
	return t.Kappa
}
