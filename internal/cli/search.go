package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/readout"
	"github.com/hdlgen/hdlgen/tune"
)

type searchOptions struct {
	data, dataset, arch string
	grid                string
	seed                uint64
	seeds               int
	reg                 string
	json                bool
	bits                int
	win                 string
	winGen              model.WinGen
	shard               string
	csv                 csvOptions
	solver              solverFlags
	// CSV only.
	parts   string // keep every finished part of the search here
	workers int    // parts scored at once
	extendN int    // extend N beyond the grid up to this
	ga      string // also choose between the rounded and the GA readout
	gaSeed  uint64
}

// searchCSVFlags are search's flags for a CSV file only.
var searchCSVFlags = []string{"seeds", "parts", "extend-n", "ga", "ga-seed"}

func newSearchCmd(app *App) *cobra.Command {
	o := &searchOptions{}
	cmd := &cobra.Command{
		Use:   "search --data DIR --dataset NAME | --data FILE.csv [--test FILE.csv] --arch " + networkUsage() + " [--json] [-o result.json]",
		Short: "Grid-search N, λ (and κ) on validation splits of the training data",
		Long: `Search runs the protocol's hyperparameter grid search: N ∈ {50,…,1500} step 50,
λ ∈ 2^{−10…5}, and κ ∈ {1,3,7,15} for the intRVFL (--grid paper; wide extends λ
to 2^15), scored by validation accuracy. Ties go to the smallest N, then the
largest λ (cheapest, most regularised), then the smallest κ. It prints the best
configuration and its validation accuracy.

On a dataset of the UCI-121 collection (--data DIR --dataset NAME) it scores
the networks of seed 0 on the train/validation split of conxuntos.dat, as the
paper's protocol does; the penalty defaults to the authors' variance form.

On your own CSV file (--data FILE.csv: a header row, numeric features, the class
label in the last column) it scores every grid point on the validation splits of
that file's rows only: stratified k-fold (--folds, default 4) or one stratified
holdout split (--holdout 0.25), drawn from --split-seed, with the networks of
seeds --seed … --seed+S−1 (--seeds S, default 1), and chooses the configuration
with the most correct validation predictions in total. The penalty defaults to
the identity form, the one that rounds well to the integer readout of the
hardware. With --test FILE.csv the chosen configuration is then trained on all
rows of --data and its accuracy on the test file reported; the test file plays
no part in the choice. --json prints, and -o writes, the result as a JSON
document for the commands that build a design from it (docs/protocol.md,
"Tuning on your own CSV"), with the accuracy-against-N curve.

On a CSV the search runs in parts (one fold, seed and N each; --workers at once)
and prints each finished part with an estimate of the time left; --parts DIR keeps
them, so that an interrupted search run again resumes where it stopped.
--extend-n MAX scores larger N (×1.25) while the best N is the largest scored;
--ga rounded also validates the GA-refined readout of the chosen configuration on
the same folds; --arch linear is the baseline, a ridge classifier on the
normalised features (docs/build.md).

With --bits B (intRVFL only) every grid point is scored by the validation accuracy
of its readout rounded to B bits, the integer model the hardware runs, rather
than by the float readout: the λ best for the float readout can be too weak for
the rounded one (docs/semantics.md). On a CSV, --bits also makes the wide grid the
default (λ up to 2^15: the strong penalties a rounded readout needs; over the
collection the 5-bit readout chosen this way averages 0.8071 against 0.7751 on
the paper's grid, results/uci121-identity-wide-5bit-ga); give --grid paper for
the paper's.`,
		Example: `  hdlgen search --data ../shared/uci121 --dataset abalone --arch intrvfl
  hdlgen search --data ../shared/uci121 --dataset tic-tac-toe --arch intrvfl --regularizer identity --bits 5
  hdlgen search --data mine.csv --test mine-test.csv --arch intrvfl --bits 5 --grid wide -o tuned.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.arch == tune.Linear {
				if o.dataset != "" {
					return usagef("--arch %s: the linear baseline is for a CSV file", tune.Linear)
				}
				return o.runLinear(cmd, app)
			}
			nw, err := protocol.ParseNetwork(o.arch)
			if err != nil {
				return usagef("--arch: %v", err)
			}
			if o.bits != 0 && (o.bits < quant.MinBits || o.bits > quant.MaxBits) {
				return usagef("--bits %d: want %d…%d, or 0 for the float readout", o.bits, quant.MinBits, quant.MaxBits)
			}
			if o.bits != 0 && nw != protocol.IntRVFL {
				return usagef("--bits: the integer-readout search is for --arch intrvfl, not %s", nw)
			}
			arch := model.IntRVFL
			if nw != protocol.IntRVFL {
				arch = model.RVFL // any network without a generated W_in
			}
			if o.winGen, err = parseWin(o.win, arch); err != nil {
				return err
			}
			if o.dataset == "" && o.bits != 0 && !cmd.Flags().Changed("grid") {
				// The hardware's search: the wide grid is what lets the rounded
				// readout reach its float accuracy (docs/protocol.md, retune study).
				o.grid = "wide"
			}
			g, err := parseGrid(o.grid)
			if err != nil {
				return err
			}
			sv, err := o.solver.solver()
			if err != nil {
				return err
			}
			if o.dataset == "" { // a CSV file
				return o.runCSV(cmd, app, nw, g, sv)
			}
			if err := rejectFlags(cmd, "with a collection dataset", append(csvFlagNames, searchCSVFlags...)...); err != nil {
				return err
			}
			if o.reg == "" {
				o.reg = string(model.RegVariance)
			}
			u, err := dataset.LoadUCI(o.data, o.dataset)
			if err != nil {
				return err
			}
			reg, err := model.ParseRegularizer(o.reg)
			if err != nil {
				return usagef("--regularizer: %v", err)
			}
			so := protocol.SearchOptions{Grid: g, Seed: o.seed, Regularizer: reg, Solver: sv, Bits: o.bits, Win: o.winGen, Workers: o.workers}
			if o.shard != "" {
				shard, err := jobs.ParseShard(o.shard)
				if err != nil {
					return usagef("--shard: %v", err)
				}
				// Balanced by the cost of an N, about N² (the hidden layer and the Gram matrix).
				if so.Ns = jobs.Select(shard, g.Ns, func(n int) float64 { return float64(n) * float64(n) }); len(so.Ns) == 0 {
					return usagef("--shard %s: the grid has only %d values of N", o.shard, len(g.Ns))
				}
			}
			res, err := protocol.Search(cmd.Context(), u, nw, so)
			if err != nil {
				return err
			}
			if o.shard != "" { // the counts and where they come from, for search merge
				shard, _ := jobs.ParseShard(o.shard)
				res.Shard = &protocol.ShardInfo{Index: shard.Index, Count: shard.Count, Ns: g.Ns, Seed: o.seed,
					Regularizer: reg, Data: protocol.DataFingerprint(u)}
				return json.NewEncoder(app.Out).Encode(res)
			}
			return printSearch(app, res, o.json)
		},
	}
	cmd.AddCommand(newSearchMergeCmd(app))
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder (with --dataset), or a CSV file")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside the collection")
	f.StringVar(&o.arch, "arch", "intrvfl", "network: "+protocol.NetworksHelp()+"; on a CSV also linear (the baseline: ridge on the normalised features)")
	f.StringVar(&o.grid, "grid", "paper", "grid (a CSV with --bits: wide unless given): paper (the protocol's), wide (the paper's with λ up to 2^15) or small (N ∈ {50,100,150}, λ ∈ 2^{−2,0,2}, κ ∈ {1,3}; for quick tests)")
	f.Uint64Var(&o.seed, "seed", defaultSeed, "seed of the networks scored in the search (CSV: the first of --seeds)")
	f.IntVar(&o.seeds, "seeds", 1, "CSV: number of network seeds scored on every split (--seed …)")
	f.StringVar(&o.reg, "regularizer", "", "ridge penalty: variance (λ·diag(var H), the authors' form; the collection's default) or identity (λ·I; a CSV's default)")
	f.BoolVar(&o.json, "json", false, "print the result as JSON")
	f.IntVar(&o.bits, "bits", 0, "intRVFL: score the grid by the validation accuracy of the readout rounded to this many bits (2…16; 0: the float readout)")
	f.StringVar(&o.shard, "shard", "", "collection: score only shard i of n of the grid's N values (i/n, 0 ≤ i < n) and print its counts as JSON, for search merge")
	o.csv.bind(f)
	f.StringVar(&o.parts, "parts", "", "CSV: keep every finished part of the search (one split, seed and N) in this folder and reuse it when the search runs again with the same data and settings (an interrupted search resumes)")
	intIn(f, &o.workers, "workers", 2, 1, maxThreads, "CPU workers (the result does not depend on it): a CSV's parts of the search scored at once; on a collection dataset the intrvfl's grid points (an N with its κ) side by side, each worker with its own hidden layers, or the other networks' linear algebra")
	intIn(f, &o.extendN, "extend-n", 0, 0, model.MaxHidden, "CSV, intrvfl: while the best N is the largest scored, score larger N (×1.25, rounded up to 50) up to this one (0: the grid only)")
	f.StringVar(&o.ga, "ga", "", "CSV, intrvfl with --bits: also validate the GA-refined readout of the chosen configuration (rounded: the GA of quantize --ga rounded) on the same splits, and record which of it and plain rounding validates better")
	f.Uint64Var(&o.gaSeed, "ga-seed", defaultSeed, "CSV, with --ga: the GA's seed (quantize --seed)")
	bindWin(f, &o.win)
	o.solver.add(f)
	_ = cmd.MarkFlagRequired("data")
	markInputs(cmd, "data", "test")
	markOutput(cmd, "out", outputFile)
	markOutput(cmd, "parts", outputDir)
	return cmd
}

func newSearchMergeCmd(app *App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge SHARD.json...",
		Short: "Combine the shards of a search (search --shard i/n) into the whole grid's search",
		Long: `Merge reads the JSON that each shard of one search printed (hdlgen search
--shard i/n … > shard-i.json), combines their validation counts into those of
the whole grid and prints the search result exactly as one search would: the
same best configuration by the same tie rule.`,
		Example: `  for i in 0 1 2; do hdlgen search --data ../shared/uci121 --dataset letter --shard $i/3 > s$i.json & done; wait
  hdlgen search merge s0.json s1.json s2.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			var parts []*protocol.SearchResult
			for _, p := range args {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				r, err := protocol.ReadShard(data)
				if err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
				parts = append(parts, r)
			}
			res, err := protocol.MergeSearches(parts)
			if err != nil {
				return err
			}
			return printSearch(app, res, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	argsAreInputs(cmd, "SHARD.json")
	return cmd
}

// printSearch prints a search's best configuration, or the result as JSON
// (without the counts).
func printSearch(app *App, res *protocol.SearchResult, asJSON bool) error {
	if asJSON {
		res.Correct = nil
		return json.NewEncoder(app.Out).Encode(res)
	}
	b := res.Best
	fmt.Fprintf(app.Out, "%s %s: N=%d λ=%g", res.Dataset, res.Network, b.N, b.Lambda)
	if b.Kappa != 0 {
		fmt.Fprintf(app.Out, " κ=%d", b.Kappa)
	}
	readout := ""
	if res.Bits != 0 {
		readout = fmt.Sprintf(" (%d-bit rounded readout)", res.Bits)
	}
	if res.Win != model.WinStored {
		fmt.Fprintf(app.Out, " W_in %s", res.Win.Flag())
	}
	if !res.Solver.Exact() {
		fmt.Fprintf(app.Out, " solver %s", res.Solver)
	}
	fmt.Fprintf(app.Out, " validation accuracy%s %.4f (%d/%d) in %.1fs\n", readout, b.ValAccuracy, b.Correct, b.ValRows, res.Seconds)
	return nil
}

// parseGrid maps a --grid name to a grid.
func parseGrid(name string) (protocol.Grid, error) {
	switch name {
	case "paper":
		return protocol.PaperGrid(), nil
	case "wide":
		return protocol.WideGrid(), nil
	case "small":
		return protocol.Grid{Ns: []int{50, 100, 150}, Lambdas: []float64{0.25, 1, 4}, Kappas: []int{1, 3}}, nil
	}
	return protocol.Grid{}, usagef("--grid %q: want paper, wide or small", name)
}

// runCSV is search on a CSV file: the grid scored on the validation splits
// of its rows (tune.Task.SearchMore, in parts kept in --parts), extended
// beyond the grid with --extend-n, the GA readout validated with --ga, then,
// with --test, the chosen configuration's test accuracy.
func (o *searchOptions) runCSV(cmd *cobra.Command, app *App, nw protocol.Network, g protocol.Grid, sv model.Solver) error {
	if err := rejectFlags(cmd, "with a CSV file", "shard"); err != nil {
		return err
	}
	if o.seeds < 1 {
		return usagef("--seeds %d: want at least 1", o.seeds)
	}
	if o.extendN != 0 {
		if nw != protocol.IntRVFL {
			return usagef("--extend-n: extending N is for --arch intrvfl, not %s", nw)
		}
		if last := g.Ns[len(g.Ns)-1]; o.extendN < last {
			return usagef("--extend-n %d: want at least the grid's largest N, %d (0: no extension)", o.extendN, last)
		}
	}
	gaOpt, err := o.gaOptions(nw)
	if err != nil {
		return err
	}
	reg, err := csvRegularizer(o.reg)
	if err != nil {
		return err
	}
	seeds := make([]uint64, o.seeds)
	for i := range seeds {
		seeds[i] = o.seed + uint64(i)
	}
	task, res, err := o.csv.task(cmd, app, o.data, seeds)
	if err != nil {
		return err
	}
	task.Store, task.Workers = o.parts, o.workers
	so := protocol.SearchOptions{Grid: g, Regularizer: reg, Solver: sv, Bits: o.bits, Win: o.winGen}
	s, err := task.SearchMore(cmd.Context(), nw, so, seeds, tune.Extension{MaxN: o.extendN})
	if err != nil {
		return err
	}
	sum := s.Sum
	b := sum.Best
	cfg := nw.Config(b.N, b.Lambda, b.Kappa)
	cfg.Regularizer, cfg.Solver, cfg.ReadoutBits, cfg.Win = reg, sv, o.bits, o.winGen
	res.Command, res.Search, res.Config, res.Validated = "search", tune.DescribeSearch(o.grid, sum), tune.DescribeConfig(cfg), s.Accuracy
	res.Curve = tune.Curve(sum)
	if o.extendN > 0 {
		res.Extension = &tune.ExtensionInfo{MaxN: o.extendN, Extended: s.Extended, Stopped: s.Stopped}
	}
	if gaOpt != nil {
		if res.Readout, err = task.ChooseReadout(cmd.Context(), cfg, quant.BoundForBits(o.bits), *gaOpt, seeds); err != nil {
			return err
		}
	}
	if task.Test != nil {
		if res.Tested, err = task.TestAccuracy(cmd.Context(), cfg, seeds); err != nil {
			return err
		}
	}
	return o.csv.emit(app, res, o.json)
}

// gaOptions checks --ga and returns the GA's options (nil without --ga).
func (o *searchOptions) gaOptions(nw protocol.Network) (*quant.GAOptions, error) {
	return csvGA(o.ga, o.gaSeed, nw == protocol.IntRVFL, o.bits)
}

// csvGA checks --ga (with --ga-seed, for an intRVFL or not, with --bits
// bits) and returns the GA's options, those of quantize --ga rounded with
// --seed seed; nil without --ga.
func csvGA(ga string, seed uint64, intRVFL bool, bits int) (*quant.GAOptions, error) {
	switch ga {
	case "", string(readout.None):
		return nil, nil
	case string(readout.GARounded):
	default:
		return nil, usagef("--ga %q: want rounded (the GA seeded with the rounded readout) or none", ga)
	}
	if !intRVFL || bits == 0 {
		return nil, usagef("--ga: the GA refines the intrvfl's integer readout: give --arch intrvfl and --bits")
	}
	opt := quant.DefaultGAOptions()
	opt.Seed = seed
	return &opt, nil
}

// runLinear is search --arch linear on a CSV file: the linear baseline
// (tune.Task.Linear), λ chosen on the validation splits, and its accuracy on
// --test.
func (o *searchOptions) runLinear(cmd *cobra.Command, app *App) error {
	for _, n := range []string{"bits", "regularizer", "extend-n", "ga", "seeds", "win", "grid", "shard", "parts"} {
		if cmd.Flags().Changed(n) {
			return usagef("--%s does not apply to --arch %s (a ridge classifier on the normalised features, λ from 2^-10 to 2^10)", n, tune.Linear)
		}
	}
	task, res, err := o.csv.task(cmd, app, o.data, []uint64{o.seed})
	if err != nil {
		return err
	}
	lambdas := tune.LinearLambdas()
	lr, err := task.Linear(cmd.Context(), lambdas)
	if err != nil {
		return err
	}
	res.Validation.Seeds = nil
	res.Command = "search"
	res.Search = &tune.SearchInfo{Grid: "linear", Points: len(lambdas)}
	res.Config = tune.Config{Network: tune.Linear, Arch: tune.Linear, Lambda: lr.Lambda, Regularizer: string(model.RegIdentity)}
	res.Validated, res.Tested = lr.Validated, lr.Tested
	return o.csv.emit(app, res, o.json)
}

// csvOptions are the flags of search and eval on a CSV file.
type csvOptions struct {
	test      string
	folds     int
	holdout   float64
	splitSeed uint64
	out       string
	labelCol  string
}

// csvFlagNames are the flags csvOptions binds.
var csvFlagNames = []string{"test", "folds", "holdout", "split-seed", "out", "label-column"}

func (c *csvOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&c.test, "test", "", "CSV: a separate test file (same columns), for the final accuracy only")
	intIn(f, &c.folds, "folds", tune.DefaultFolds, 2, maxFolds, "CSV: validate by stratified k-fold cross-validation with this many folds")
	f.Float64Var(&c.holdout, "holdout", 0, "CSV: validate on one stratified holdout split of this share of the rows instead of k-fold (0 < share < 1)")
	f.Uint64Var(&c.splitSeed, "split-seed", defaultSeed, "CSV: seed of the validation split")
	f.StringVarP(&c.out, "out", "o", "", "CSV: write the result as a JSON document to this file (atomically)")
	f.StringVar(&c.labelCol, "label-column", "", "CSV: the class label column of --data and --test, a header name or a 1-based number (default: the last column)")
}

// task loads the CSV files and splits the training rows; res is the result
// document with the data and validation filled in.
func (c *csvOptions) task(cmd *cobra.Command, app *App, data string, seeds []uint64) (*tune.Task, *tune.Result, error) {
	if cmd.Flags().Changed("folds") && cmd.Flags().Changed("holdout") {
		return nil, nil, usagef("--folds and --holdout are two ways to validate: give one")
	}
	v := tune.Validation{Folds: c.folds, Holdout: c.holdout, Seed: c.splitSeed}
	if err := v.Check(); err != nil {
		return nil, nil, usagef("--folds/--holdout: %v", err)
	}
	res := &tune.Result{Format: tune.FormatVersion, Validation: tune.DescribeValidation(v, seeds)}
	train, info, err := loadCSV(data, c.labelCol)
	if err != nil {
		return nil, nil, err
	}
	res.Data = info
	var test *dataset.Dataset
	if c.test != "" {
		var ti tune.DataInfo
		if test, ti, err = loadCSV(c.test, c.labelCol); err != nil {
			return nil, nil, fmt.Errorf("--test: %w", err)
		}
		res.Test = &ti
	}
	if _, err := v.Splits(train); err != nil {
		return nil, nil, usagef("--folds/--holdout on %s: %v", data, err)
	}
	task, err := tune.NewTask(train, test, v)
	if err != nil {
		return nil, nil, err
	}
	task.Progress = func(format string, args ...any) { fmt.Fprintf(app.Err, format+"\n", args...) }
	return task, res, nil
}

// loadCSV loads labelled data from a CSV file or an embedded example and
// describes it (with the SHA-256 of a file's bytes); labelCol is
// --label-column ("" the last column).
func loadCSV(path, labelCol string) (*dataset.Dataset, tune.DataInfo, error) {
	d, err := loadLabelledColumn(path, "", labelCol)
	if err != nil {
		return nil, tune.DataInfo{}, err
	}
	var content []byte
	if !strings.HasPrefix(path, examplePrefix) {
		if content, err = os.ReadFile(path); err != nil {
			return nil, tune.DataInfo{}, err
		}
	}
	return d, tune.DescribeData(path, content, d), nil
}

// emit prints the result (one line, or the JSON document) and writes the
// document to --out.
func (c *csvOptions) emit(app *App, res *tune.Result, asJSON bool) error {
	doc, err := res.Marshal()
	if err != nil {
		return err
	}
	if c.out != "" {
		if err := app.writeFile("-o", c.out, doc); err != nil {
			return err
		}
		fmt.Fprintf(app.Err, "wrote %s\n", c.out)
	}
	if asJSON {
		_, err = app.Out.Write(doc)
		return err
	}
	_, err = fmt.Fprintln(app.Out, res.Summary())
	return err
}

// csvRegularizer resolves --regularizer for a CSV file: identity unless given.
func csvRegularizer(flag string) (model.Regularizer, error) {
	if flag == "" {
		return model.RegIdentity, nil
	}
	reg, err := model.ParseRegularizer(flag)
	if err != nil {
		return "", usagef("--regularizer: %v", err)
	}
	return reg, nil
}

// rejectFlags returns a usage error naming the first of the flags that was
// set: they do not apply (why says where).
func rejectFlags(cmd *cobra.Command, why string, names ...string) error {
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return usagef("--%s does not apply %s", n, why)
		}
	}
	return nil
}
