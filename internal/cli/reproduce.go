package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/study"
)

type reproduceOptions struct {
	readoutGA bool
	data, out string
	datasets  string
	networks  string
	grid      string
	seeds     int
	workers   int
	testNorm  string
	stages    string
	hyper     string
	reg       string
	budgets   string
	bits      int
}

func newReproduceCmd(app *App) *cobra.Command {
	o := &reproduceOptions{}
	cmd := &cobra.Command{
		Use:   "reproduce --data DIR --out results/uci121 [--datasets a,b,c]",
		Short: "Reproduce the paper's accuracy study over the UCI-121 collection (resumable)",
		Long: `Reproduce runs, for every dataset and network, the grid search on the
train/validation split and the final 4-fold (or train/test) accuracy averaged over
5 seeds: the intRVFL, the conventional RVFL, and the two variants of the paper's
footnote (RVFL with quantised inputs, RVFL with direct links). It writes
OUT/runs/<network>/<dataset>.{search,result}.json as soon as each is done (a rerun
skips finished work, so it can be interrupted with Ctrl-C and resumed), then
OUT/accuracy.tsv, OUT/summary.{json,md} and OUT/fig5-rvfl-vs-intrvfl.svg.
Progress and an ETA go to stderr.

The budget stage (--stages budget, the paper's Fig. 7) sizes the intRVFL
(5-bit readout, each κ) and the 8-bit fixed-point RVFL to each energy budget of
--budgets (N capped at the grid's largest N, 1500), searches λ (and κ) by the
validation accuracy of the deployed integer readout, evaluates the selection
the same way, and writes OUT/budget/<label>/runs/<network>/<dataset>.json,
OUT/budget/accuracy.tsv, OUT/budget/summary.{json,md} and
OUT/budget/fig7-<label>.svg (docs/benchmark.md).

The retune stage (--stages retune) keeps each dataset's intRVFL N and κ from
the accuracy stage and chooses λ again, from the same grid and on the same
validation split, by the validation accuracy of the rounded --retune-bits
readout that the hardware runs; it evaluates the float and rounded readouts at
both λ and writes OUT/runs/intrvfl/<dataset>.retune.json, OUT/retune.tsv and
OUT/retune-summary.{json,md}.`,
		Example: `  hdlgen reproduce --data ../shared/uci121 --out results/uci121
  hdlgen reproduce --data ../shared/uci121 --out /tmp/r --datasets iris,wine,seeds --grid small
  hdlgen reproduce --data ../shared/uci121 --out results/uci121-identity --stages budget --budgets 3.2uJ,median --regularizer identity
  hdlgen reproduce --data ../shared/uci121 --out results/uci121-identity-wide --stages retune`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := parseGrid(o.grid)
			if err != nil {
				return err
			}
			tn, err := study.ParseTestNorm(o.testNorm)
			if err != nil {
				return usagef("--test-norm: %v", err)
			}
			var nets []study.Network
			for _, s := range study.DatasetList(o.networks) {
				nw, err := study.ParseNetwork(s)
				if err != nil {
					return usagef("--networks: %v", err)
				}
				nets = append(nets, nw)
			}
			if o.seeds < 1 {
				return usagef("--seeds %d: want at least 1", o.seeds)
			}
			seeds := make([]uint64, o.seeds)
			for i := range seeds {
				seeds[i] = uint64(i)
			}
			stages := map[string]bool{}
			for _, st := range study.DatasetList(o.stages) {
				if st != "accuracy" && st != "readout" && st != "retune" && st != "budget" {
					return usagef("--stages: unknown stage %q (want accuracy, readout, retune, budget)", st)
				}
				stages[st] = true
			}
			if stages["retune"] && (o.bits < quant.MinBits || o.bits > quant.MaxBits) {
				return usagef("--retune-bits %d: want %d…%d", o.bits, quant.MinBits, quant.MaxBits)
			}
			command := "hdlgen reproduce " + strings.Join(quoteArgs(cmd), " ")
			datasets := study.DatasetList(o.datasets)
			reg, err := model.ParseRegularizer(o.reg)
			if err != nil {
				return usagef("--regularizer: %v", err)
			}
			var budgets []study.Budget
			if stages["budget"] {
				if budgets, err = study.ParseBudgets(o.budgets, power.Params{}); err != nil {
					return usagef("--budgets: %v", err)
				}
			}
			var fixed map[string]study.Best
			if o.hyper != "" {
				if fixed, err = study.ReadHyperparameters(o.hyper); err != nil {
					return err
				}
			}
			if stages["accuracy"] {
				if err := o.accuracy(cmd, app, study.ReproduceOptions{DataDir: o.data, OutDir: o.out, Datasets: datasets,
					Networks: nets, Grid: g, Seeds: seeds, Workers: o.workers, TestNorm: tn, Progress: app.Err, Fixed: fixed, Regularizer: reg}, command); err != nil {
					return err
				}
			}
			if stages["readout"] {
				opt := study.ReadoutOptions{DataDir: o.data, OutDir: o.out, Datasets: datasets, Seeds: seeds,
					NoGA: !o.readoutGA, Workers: o.workers, TestNorm: tn, Progress: app.Err}
				start := time.Now()
				res, runErr := study.RunReadout(cmd.Context(), opt)
				if res == nil {
					return runErr
				}
				if err := study.AppendRunLog(o.out, "readout", command, start, res.WallSeconds, len(res.Results)-res.Reused, res.Reused); err != nil {
					return err
				}
				sum, err := study.WriteReadoutReport(o.out, res, command, time.Now())
				if err != nil {
					return err
				}
				if runErr != nil {
					return fmt.Errorf("%w (the finished results are stored; rerun the same command to resume)", runErr)
				}
				fmt.Fprintf(app.Out, "readout study over %d datasets: float %.4f; rounded B=1 %.4f, B=15 (5 bits) %.4f\n",
					sum.Datasets, sum.Float, sum.Round[0], sum.Round[len(sum.Round)-2])
				fmt.Fprintf(app.Out, "report: %s/readout-summary.md\n", o.out)
			}
			if stages["retune"] {
				opt := study.RetuneOptions{DataDir: o.data, OutDir: o.out, Datasets: datasets, Bits: o.bits, Seeds: seeds,
					Workers: o.workers, TestNorm: tn, Progress: app.Err}
				if err := o.retune(cmd, app, opt, command); err != nil {
					return err
				}
			}
			if stages["budget"] {
				opt := study.BudgetOptions{DataDir: o.data, OutDir: o.out, Datasets: datasets, Budgets: budgets, Grid: g,
					Seeds: seeds, Workers: o.workers, TestNorm: tn, Regularizer: reg, Progress: app.Err}
				if err := o.budget(cmd, app, opt, command); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder")
	f.StringVar(&o.out, "out", "results/uci121", "output folder")
	f.StringVar(&o.datasets, "datasets", "", "comma-separated subset of datasets (default: all)")
	f.StringVar(&o.networks, "networks", "", "comma-separated networks of the accuracy stage (default: intrvfl,rvfl,rvfl-qin,rvfl-direct)")
	f.StringVar(&o.stages, "stages", "accuracy,readout", "comma-separated stages: accuracy (Fig. 5), readout (Fig. 6, needs the intrvfl accuracy results), retune (λ re-chosen for the integer readout, needs them too), budget (Fig. 7)")
	f.IntVar(&o.bits, "retune-bits", study.DefaultRetuneBits, "retune stage: bits of the rounded readout λ is chosen for")
	f.StringVar(&o.budgets, "budgets", study.DefaultBudgets, "budget stage: comma-separated energies per classification with a unit (3.2uJ, 4nJ) or median (the energy of the median intRVFL, K=16 N=512 L=4 κ=3 5-bit, at its best P)")
	f.StringVar(&o.grid, "grid", "paper", "grid: paper, wide (the paper's with λ up to 2^15) or small")
	f.BoolVar(&o.readoutGA, "readout-ga", true, "readout stage: also run the two GA strategies (hours on the whole collection; false: float and rounded readouts only, minutes)")
	f.StringVar(&o.reg, "regularizer", string(model.RegVariance), "ridge penalty of the accuracy and budget stages: variance (the authors' λ·diag(var H)) or identity (λ·I, the paper's printed formula)")
	f.StringVar(&o.hyper, "hyperparameters", "", "TSV of fixed (dataset, n, lambda, kappa) to evaluate instead of searching (e.g. study/testdata/intrvfl-published-hyperparameters.tsv)")
	f.IntVar(&o.seeds, "seeds", 5, "random initialisations for the final accuracy")
	f.IntVar(&o.workers, "workers", 2, "jobs run in parallel")
	f.StringVar(&o.testNorm, "test-norm", string(study.TestNormOwn), testNormHelp)
	_ = cmd.MarkFlagRequired("data")
	return cmd
}

// accuracy runs the accuracy stage and writes its report.
func (o *reproduceOptions) accuracy(cmd *cobra.Command, app *App, opt study.ReproduceOptions, command string) error {
	start := time.Now()
	res, runErr := study.RunAccuracy(cmd.Context(), opt)
	if res == nil {
		return runErr
	}
	if err := study.AppendRunLog(o.out, "accuracy", command, start, res.WallSeconds, len(res.Results)-res.Reused, res.Reused); err != nil {
		return err
	}
	sum, err := study.WriteAccuracyReport(o.out, res, opt.Networks, command, time.Now())
	if err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (the finished results are stored; rerun the same command to resume)", runErr)
	}
	for _, n := range sum.Networks {
		fmt.Fprintf(app.Out, "%-12s mean accuracy %.4f over %d datasets\n", n.Network, n.MeanAccuracy, n.Datasets)
	}
	if c := sum.IntVsRVFL; c != nil {
		fmt.Fprintf(app.Out, "intrvfl vs rvfl: Pearson %.3f, paired t p=%.3g, two-sample t p=%.3g, wins/ties/losses %d/%d/%d\n",
			c.Pearson, c.PairedT, c.TwoSampleT, c.Wins, c.Ties, c.Losses)
	}
	fmt.Fprintf(app.Out, "report: %s/summary.md\n", o.out)
	return nil
}

// retune runs the retune stage and writes its report.
func (o *reproduceOptions) retune(cmd *cobra.Command, app *App, opt study.RetuneOptions, command string) error {
	start := time.Now()
	res, runErr := study.RunRetune(cmd.Context(), opt)
	if res == nil {
		return runErr
	}
	if err := study.AppendRunLog(o.out, "retune", command, start, res.WallSeconds, len(res.Results)-res.Reused, res.Reused); err != nil {
		return err
	}
	sum, err := study.WriteRetuneReport(o.out, res, command, time.Now())
	if err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (the finished results are stored; rerun the same command to resume)", runErr)
	}
	fmt.Fprintf(app.Out, "retune study over %d datasets: float %.4f; %d-bit rounded %.4f (%+.2f points), with λ retuned %.4f (%+.2f points)\n",
		sum.Datasets, sum.FloatOriginal, sum.Bits, sum.Original.Mean, sum.Original.MeanPoints, sum.Retuned.Mean, sum.Retuned.MeanPoints)
	fmt.Fprintf(app.Out, "report: %s/retune-summary.md\n", o.out)
	return nil
}

// budget runs the budget stage and writes its report.
func (o *reproduceOptions) budget(cmd *cobra.Command, app *App, opt study.BudgetOptions, command string) error {
	start := time.Now()
	res, runErr := study.RunBudget(cmd.Context(), opt)
	if res == nil {
		return runErr
	}
	dir := study.BudgetDir(o.out)
	if err := study.AppendRunLog(dir, "budget", command, start, res.WallSeconds, len(res.Results)-res.Reused, res.Reused); err != nil {
		return err
	}
	sum, err := study.WriteBudgetReport(o.out, res, command, time.Now())
	if err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (the finished results are stored; rerun the same command to resume)", runErr)
	}
	for _, lv := range sum.Budgets {
		fmt.Fprintf(app.Out, "budget %s (%s):", lv.Budget.Label, power.FormatEnergy(lv.Budget.J))
		for _, n := range lv.Networks {
			if n.MeanAccuracy != nil {
				fmt.Fprintf(app.Out, " %s %.4f (N median %g)", n.Network, *n.MeanAccuracy, n.N.Median)
			}
		}
		if c := lv.Comparison; c != nil {
			fmt.Fprintf(app.Out, "; %d datasets, two-sample t p=%.3g, paired t p=%.3g, wins/ties/losses %d/%d/%d",
				c.N, c.TwoSampleT, c.PairedT, lv.Wins, lv.Ties, lv.Losses)
		}
		fmt.Fprintln(app.Out)
	}
	fmt.Fprintf(app.Out, "report: %s/summary.md\n", dir)
	return nil
}

// quoteArgs renders the flags that were set, for the record in the summary.
func quoteArgs(cmd *cobra.Command) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		out = append(out, "--"+f.Name+" "+f.Value.String())
	})
	return out
}
