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
	selectUnits         int
	shard               string
	csv                 csvOptions
	solver              solverFlags
	// CSV only.
	parts    string // keep every finished part of the search here
	workers  int    // parts scored at once
	extendN  int    // extend N beyond the grid up to this
	extendSE bool   // stop extending when the largest N is within one SE of a smaller one
	ga       string // also choose between the rounded and the GA readout
	gaSeed   uint64

	// Resolved from the flags by resolve, for the run (or a test's runF).
	linear      bool             // --arch linear: the baseline
	network     protocol.Network // the variant searched
	gridSpec    protocol.Grid
	ridgeSolver model.Solver
	penalty     model.Regularizer
	shardSel    *jobs.Shard      // collection, --shard
	gaOpt       *quant.GAOptions // CSV, --ga
	seedList    []uint64         // CSV: --seed … --seed+S−1
}

// searchCSVFlags are search's flags for a CSV file only.
var searchCSVFlags = []string{"seeds", "parts", "extend-n", "extend-se", "ga", "ga-seed"}

func newSearchCmd(app *App) *cobra.Command { return newCmdSearch(app, nil) }

// newCmdSearch builds search; runF, when not nil, receives the checked
// options instead of the search running (the flag tests' seam).
func newCmdSearch(app *App, runF func(*searchOptions) error) *cobra.Command {
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
--extend-n MAX scores larger N (×1.25) while the best N is the largest scored
(with --extend-se: and its validation accuracy is more than one standard error
above every smaller N's);
--ga rounded also validates the GA-refined readout of the chosen configuration on
the same folds; --arch linear is the baseline, a ridge classifier on the
normalised features (docs/build.md).

With --bits B (a network type whose readout width is a choice: the intRVFL)
every grid point is scored by the validation accuracy of its readout rounded to
B bits, the integer model the hardware runs, rather than by the float readout: the λ best for the float readout can be too weak for
the rounded one (docs/semantics.md). On a CSV, --bits also makes the wide grid the
default (λ up to 2^15: the strong penalties a rounded readout needs; over the
collection the 5-bit readout chosen this way averages 0.8020 against 0.7751 on
the paper's grid, results/uci121-identity-wide and results/uci121-identity); give
--grid paper for the paper's.`,
		Example: `  hdlgen search --data ../shared/uci121 --dataset abalone --arch intrvfl
  hdlgen search --data ../shared/uci121 --dataset tic-tac-toe --arch intrvfl --regularizer identity --bits 5
  hdlgen search --data mine.csv --test mine-test.csv --arch intrvfl --bits 5 --grid wide -o tuned.json`,
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
	cmd.AddCommand(newSearchMergeCmd(app))
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder (with --dataset), or a CSV file")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside the collection")
	f.StringVar(&o.arch, "arch", "intrvfl", "network: "+protocol.NetworksHelp()+"; on a CSV also linear (the baseline: ridge on the normalised features)")
	f.StringVar(&o.grid, "grid", "paper", "grid (a CSV with --bits: wide unless given): paper (the protocol's), wide (the paper's with λ up to 2^15), coarse (wide with 17 of its 30 N), large (coarse with every other λ: 2^-9, 2^-7, …, 2^15; build's grid for large data) or small (N ∈ {50,100,150}, λ ∈ 2^{−2,0,2}, κ ∈ {1,3}; for quick tests)")
	f.Uint64Var(&o.seed, "seed", defaultSeed, "seed of the networks scored in the search (CSV: the first of --seeds)")
	f.IntVar(&o.seeds, "seeds", 1, "CSV: number of network seeds scored on every split (--seed …)")
	f.StringVar(&o.reg, "regularizer", "", "ridge penalty: variance (λ·diag(var H), the authors' form; the collection's default) or identity (λ·I; a CSV's default)")
	f.BoolVar(&o.json, "json", false, "print the result as JSON")
	f.IntVar(&o.bits, "bits", 0, "a network type with a readout width of choice (intrvfl): score the grid by the validation accuracy of the readout rounded to this many bits (2…16; 0: the float readout)")
	f.StringVar(&o.shard, "shard", "", "collection: score only shard i of n of the grid's N values (i/n, 0 ≤ i < n) and print its counts as JSON, for search merge")
	o.csv.bind(f)
	f.StringVar(&o.parts, "parts", "", "CSV: keep every finished part of the search (one split, seed and N) in this folder and reuse it when the search runs again with the same data and settings (an interrupted search resumes)")
	intIn(f, &o.workers, "workers", 2, 1, maxThreads, "CPU workers (the result does not depend on it): a CSV's parts of the search scored at once; on a collection dataset the intrvfl's grid points (an N with its κ) side by side, each worker with its own hidden layers, or the other networks' linear algebra")
	intIn(f, &o.extendN, "extend-n", 0, 0, model.MaxHidden, "CSV, intrvfl: while the best N is the largest scored, score larger N (×1.25, rounded up to 50) up to this one (0: the grid only)")
	f.BoolVar(&o.extendSE, "extend-se", false, "CSV, with --extend-n: stop extending when the largest N's validation accuracy is within one standard error of a smaller N's")
	f.StringVar(&o.ga, "ga", "", "CSV, with --bits: also validate the GA-refined readout of the chosen configuration (rounded: the GA of quantize --ga rounded) on the same splits, and record which of it and plain rounding validates better")
	f.Uint64Var(&o.gaSeed, "ga-seed", defaultSeed, "CSV, with --ga: the GA's seed (quantize --seed)")
	bindWin(f, &o.win)
	bindSelect(f, &o.selectUnits)
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
		fmt.Fprintf(app.Out, " %s=%d", res.Network.Traits().KappaLabel(), b.Kappa)
	}
	readout := ""
	if res.Bits != 0 {
		readout = fmt.Sprintf(" (%d-bit rounded readout)", res.Bits)
	}
	if res.Win != model.WinStored {
		fmt.Fprintf(app.Out, " W_in %s", res.Win.Flag())
	}
	if res.Select != 0 {
		fmt.Fprintf(app.Out, " select %d", res.Select)
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
	case "coarse":
		return protocol.CoarseGrid(), nil
	case "large":
		return protocol.LargeGrid(), nil
	case "small":
		return protocol.Grid{Ns: []int{50, 100, 150}, Lambdas: []float64{0.25, 1, 4}, Kappas: []int{1, 3}}, nil
	}
	return protocol.Grid{}, usagef("--grid %q: want paper, wide, coarse, large or small", name)
}

// resolve checks the flags, without reading any file, into o's resolved
// fields.
func (o *searchOptions) resolve(cmd *cobra.Command) error {
	fl := cmd.Flags()
	if o.arch == tune.Linear {
		if o.dataset != "" {
			return usagef("--arch %s: the linear baseline is for a CSV file", tune.Linear)
		}
		for _, n := range []string{"bits", "regularizer", "extend-n", "extend-se", "ga", "seeds", "win", "select", "grid", "shard", "parts"} {
			if fl.Changed(n) {
				return usagef("--%s does not apply to --arch %s (a ridge classifier on the normalised features, λ from 2^-10 to 2^10)", n, tune.Linear)
			}
		}
		o.linear = true
		return nil
	}
	nw, err := protocol.ParseNetwork(o.arch)
	if err != nil {
		return usagef("--arch: %v", err)
	}
	o.network = nw
	if o.bits != 0 && (o.bits < quant.MinBits || o.bits > quant.MaxBits) {
		return usagef("--bits %d: want %d…%d, or 0 for the float readout", o.bits, quant.MinBits, quant.MaxBits)
	}
	if o.bits != 0 && !nw.Traits().ReadoutBits() {
		return usagef("--bits: the integer-readout search is for --arch %s, not %s",
			model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits)), nw)
	}
	if o.winGen, err = parseWin(o.win, nw.Arch()); err != nil {
		return err
	}
	if err := checkSelect(o.selectUnits, nw.Arch()); err != nil {
		return err
	}
	if o.dataset == "" && o.bits != 0 && !fl.Changed("grid") {
		// The hardware's search: the wide grid is what lets the rounded
		// readout reach its float accuracy (docs/protocol.md, retune study).
		o.grid = "wide"
	}
	if o.gridSpec, err = parseGrid(o.grid); err != nil {
		return err
	}
	if o.ridgeSolver, err = o.solver.solver(); err != nil {
		return err
	}
	if o.dataset == "" { // a CSV file
		return o.resolveCSV(cmd)
	}
	if err := rejectFlags(cmd, "with a collection dataset", append(csvFlagNames, searchCSVFlags...)...); err != nil {
		return err
	}
	if o.reg == "" {
		o.reg = string(model.RegVariance)
	}
	if o.penalty, err = model.ParseRegularizer(o.reg); err != nil {
		return usagef("--regularizer: %v", err)
	}
	if o.shard != "" {
		shard, err := jobs.ParseShard(o.shard)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		if len(tune.ShardNs(shard, o.gridSpec)) == 0 {
			return usagef("--shard %s: the grid has only %d values of N", o.shard, len(o.gridSpec.Ns))
		}
		o.shardSel = &shard
	}
	return nil
}

// resolveCSV checks the flags of a search on a CSV file.
func (o *searchOptions) resolveCSV(cmd *cobra.Command) error {
	if err := rejectFlags(cmd, "with a CSV file", "shard"); err != nil {
		return err
	}
	if o.seeds < 1 {
		return usagef("--seeds %d: want at least 1", o.seeds)
	}
	if o.extendSE && o.extendN == 0 {
		return usagef("--extend-se: applies to an extension (--extend-n)")
	}
	if o.extendN != 0 {
		if o.network != protocol.IntRVFL { // the extension's scorers are the intRVFL's (tune.SearchMore)
			return usagef("--extend-n: extending N is for --arch intrvfl, not %s", o.network)
		}
		if last := o.gridSpec.Ns[len(o.gridSpec.Ns)-1]; o.extendN < last {
			return usagef("--extend-n %d: want at least the grid's largest N, %d (0: no extension)", o.extendN, last)
		}
	}
	var err error
	if o.gaOpt, err = csvGA(o.ga, o.gaSeed, o.network.Arch(), o.bits); err != nil {
		return err
	}
	if o.penalty, err = csvRegularizer(o.reg); err != nil {
		return err
	}
	o.seedList = make([]uint64, o.seeds)
	for i := range o.seedList {
		o.seedList[i] = o.seed + uint64(i)
	}
	return nil
}

// run runs the search the resolved options describe and prints its result.
func (o *searchOptions) run(cmd *cobra.Command, app *App) error {
	if o.linear {
		return o.runLinear(cmd, app)
	}
	so := protocol.SearchOptions{Grid: o.gridSpec, Regularizer: o.penalty, Solver: o.ridgeSolver, Bits: o.bits, Win: o.winGen, Select: o.selectUnits}
	if o.dataset == "" { // a CSV file: tune.Task.SearchCSV, its parts kept in --parts
		task, res, err := o.csv.task(cmd, app, o.data, o.seedList)
		if err != nil {
			return err
		}
		task.Store, task.Workers = o.parts, o.workers
		s := tune.CSVSearch{Network: o.network, GridName: o.grid, Options: so, Seeds: o.seedList, ExtendN: o.extendN, ExtendSE: o.extendSE, GA: o.gaOpt}
		if err := task.SearchCSV(cmd.Context(), s, res); err != nil {
			return err
		}
		return o.csv.emit(app, res, o.json)
	}
	so.Seed, so.Workers = o.seed, o.workers
	res, err := tune.SearchCollection(cmd.Context(), tune.CollectionSearch{Dir: o.data, Dataset: o.dataset, Network: o.network, Options: so, Shard: o.shardSel})
	if err != nil {
		return err
	}
	if res.Shard != nil { // the counts and where they come from, for search merge
		return json.NewEncoder(app.Out).Encode(res)
	}
	return printSearch(app, res, o.json)
}

// csvGA checks --ga (with --ga-seed, for network type arch with --bits
// bits) and returns the GA's options, those of quantize --ga rounded with
// --seed seed; nil without --ga.
func csvGA(ga string, seed uint64, arch model.Arch, bits int) (*quant.GAOptions, error) {
	switch ga {
	case "", string(readout.None):
		return nil, nil
	case string(readout.GARounded):
	default:
		return nil, usagef("--ga %q: want rounded (the GA seeded with the rounded readout) or none", ga)
	}
	if t, _ := model.TraitsOf(arch); !t.ReadoutBits() || bits == 0 {
		return nil, usagef("--ga: the GA refines an integer readout of a chosen width: give --arch %s and --bits",
			model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits)))
	}
	opt := quant.DefaultGAOptions()
	opt.Seed = seed
	return &opt, nil
}

// runLinear is search --arch linear on a CSV file: the linear baseline
// (tune.Task.Linear), λ chosen on the validation splits, and its accuracy on
// --test.
func (o *searchOptions) runLinear(cmd *cobra.Command, app *App) error {
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
