package cli

import (
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/protocol"
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
	shard     string
	merge     string
	solver    solverFlags
	retuneGA  bool
	win       string
	raceBits  string
	raceBudg  float64
	raceNs    []string
	// raceMembers is --race-members (empty: the default members).
	raceMembers string
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
OUT/budget/fig7-<label>.svg (docs/protocol.md).

The retune stage (--stages retune) keeps each dataset's intRVFL N and κ from
the accuracy stage and chooses λ again, from the same grid and on the same
validation split, by the validation accuracy of the rounded --retune-bits
readout that the hardware runs; it evaluates the float and rounded readouts at
both λ and writes OUT/runs/intrvfl/<dataset>.retune.json, OUT/retune.tsv and
OUT/retune-summary.{json,md}.

The race stage (--stages race, a folder of its own) lets every hardware network
of the registries (each protocol variant whose type has a power model, with
each W_in source it offers) choose N, κ and λ under a LUT-equivalent budget
(--race-budget times the plain intRVFL with N=1500, κ=15, at P=1) by
validation on the training folds only, for each --race-bits width; the one
with the most correct validation predictions wins. It writes
OUT/runs/race/<dataset>.json, OUT/accuracy.tsv (every member's choice, its
test accuracy and LUT-equivalents, the winner marked), OUT/summary.{json,md}
and OUT/accuracy-vs-luts-<bits>bit.svg.

A second run into the same OUT fails at once and says who holds it (an
advisory lock on OUT/.hdlgen.lock). To spread a study over machines, run
each stage as shards with --shard i/n (a balanced share of the jobs each, no
report), then merge them with the same flags and --merge SHARD_DIR,… instead
of --shard: the merge computes nothing and writes the reports of one run
(docs/cluster.md). Every stored job records the hash of its dataset's files,
so a changed dataset is computed again, not reused.`,
		Example: `  hdlgen reproduce --data ../shared/uci121 --out results/uci121
  hdlgen reproduce --data ../shared/uci121 --out /tmp/r --datasets iris,wine,seeds --grid small
  hdlgen reproduce --data ../shared/uci121 --out results/uci121-identity --stages budget --budgets 3.2uJ,median --regularizer identity
  hdlgen reproduce --data ../shared/uci121 --out results/uci121-identity-wide --stages retune
  hdlgen reproduce --data ../shared/uci121 --out results/accuracy-race --stages race --grid wide --regularizer identity --test-norm auto
  hdlgen reproduce --data ../shared/uci121 --out /shared/r --stages accuracy --shard 0/8   # one of 8 shards
  hdlgen reproduce --data ../shared/uci121 --out /shared/r --stages accuracy --merge /shared/r`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd, app) },
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder")
	f.StringVarP(&o.out, "out", "o", "results/uci121", "output folder")
	f.StringVar(&o.datasets, "datasets", "", "comma-separated subset of datasets (default: all)")
	f.StringVar(&o.networks, "networks", "", "comma-separated networks of the accuracy stage, of "+protocol.NetworksHelp()+" (default: "+networkList(protocol.AccuracyNetworks)+")")
	f.StringVar(&o.stages, "stages", "accuracy,readout", "comma-separated stages: accuracy (Fig. 5), readout (Fig. 6, needs the intrvfl accuracy results), retune (λ re-chosen for the integer readout, needs them too), budget (Fig. 7), race (hardware networks under a LUT budget; not with accuracy)")
	f.IntVar(&o.bits, "retune-bits", study.DefaultRetuneBits, "retune stage: bits of the rounded readout λ is chosen for")
	f.StringVar(&o.budgets, "budgets", study.DefaultBudgets, "budget stage: comma-separated energies per classification with a unit (3.2uJ, 4nJ) or median (the energy of the median intRVFL, K=16 N=512 L=4 κ=3 5-bit, at its best P)")
	f.StringVar(&o.grid, "grid", "paper", "grid: paper, wide (the paper's with λ up to 2^15) or small")
	f.BoolVar(&o.readoutGA, "readout-ga", true, "readout stage: also run the two GA strategies (hours on the whole collection; false: float and rounded readouts only, minutes)")
	f.StringVar(&o.reg, "regularizer", string(model.RegVariance), "ridge penalty of the accuracy and budget stages: variance (the authors' λ·diag(var H)) or identity (λ·I, the paper's printed formula)")
	f.StringVar(&o.hyper, "hyperparameters", "", "TSV of fixed (dataset, n, lambda, kappa) to evaluate instead of searching (e.g. study/testdata/intrvfl-published-hyperparameters.tsv)")
	f.IntVar(&o.seeds, "seeds", 5, "random initialisations for the final accuracy")
	intIn(f, &o.workers, "workers", 2, 1, maxThreads, "jobs run in parallel")
	f.StringVar(&o.testNorm, "test-norm", string(protocol.TestNormOwn), testNormHelp)
	f.StringVar(&o.shard, "shard", "", "run only shard i of n of every stage's jobs (i/n, 0 ≤ i < n; balanced by estimated cost) and write no report; docs/cluster.md")
	f.StringVar(&o.merge, "merge", "", "comma-separated shard folders: gather their stored jobs into --out, compute nothing, and write the reports of one run (give the shards' other flags, without --shard)")
	f.BoolVar(&o.retuneGA, "retune-ga", false, "retune stage: also refine the rounded readout at the retuned λ with the GA (seeded with it) where that validates better (issue 15's 5-bit lever; docs/protocol.md)")
	f.StringVar(&o.raceBits, "race-bits", "5", "race stage: comma-separated readout widths of the networks that take one (a race per width)")
	f.Float64Var(&o.raceBudg, "race-budget", study.DefaultRaceBudget, "race stage: LUT-equivalent budget, times the plain intRVFL with N=1500, κ=15 and the race's width at P=1")
	f.StringArrayVar(&o.raceNs, "race-member-n", nil, "race stage: MEMBER=N[,N…] adds N beyond the grid's to one member (e.g. conj=6000; repeatable); a stored race keeps the other members' entries and runs that member again")
	f.StringVar(&o.raceMembers, "race-members", "", "race stage: comma-separated members by name, \"default\" for every member (e.g. intrvfl,conj+sel4; default: every member); a stored race with fewer keeps their entries and runs the others")
	f.StringVar(&o.win, "win", "stored", "accuracy stage, --networks intrvfl only: "+winHelp)
	o.solver.add(f)
	_ = cmd.MarkFlagRequired("data")
	// --merge names shard stores whose records are copied into --out, which may be
	// one of them: the job store only adds records, so it is not an input to guard.
	markInputs(cmd, "data", "hyperparameters")
	markOutput(cmd, "out", outputDir)
	return cmd
}

func (o *reproduceOptions) run(cmd *cobra.Command, app *App) error {
	g, err := parseGrid(o.grid)
	if err != nil {
		return err
	}
	tn, err := protocol.ParseTestNorm(o.testNorm)
	if err != nil {
		return usagef("--test-norm: %v", err)
	}
	var nets []protocol.Network
	for _, s := range study.List(o.networks) {
		nw, err := protocol.ParseNetwork(s)
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
	stages, err := study.ParseStages(study.List(o.stages))
	if err != nil {
		return usagef("--stages: %v", err)
	}
	if slices.Contains(stages, study.StageRetune) && (o.bits < quant.MinBits || o.bits > quant.MaxBits) {
		return usagef("--retune-bits %d: want %d…%d", o.bits, quant.MinBits, quant.MaxBits)
	}
	var raceBits []int
	if slices.Contains(stages, study.StageRace) {
		for _, b := range study.List(o.raceBits) {
			v, err := strconv.Atoi(b)
			if err != nil || v < quant.MinBits || v > quant.MaxBits {
				return usagef("--race-bits %q: want widths %d…%d", b, quant.MinBits, quant.MaxBits)
			}
			raceBits = append(raceBits, v)
		}
		if len(raceBits) == 0 {
			return usagef("--race-bits %q names no width", o.raceBits)
		}
		if !(o.raceBudg > 0) {
			return usagef("--race-budget %v: want > 0", o.raceBudg)
		}
		if slices.Contains(stages, study.StageAccuracy) {
			return usagef("--stages: the race writes its own accuracy.tsv; run it into a folder of its own, not with the accuracy stage")
		}
	}
	var memberNs map[string][]int
	for _, spec := range o.raceNs {
		name, list, ok := strings.Cut(spec, "=")
		if !ok || name == "" {
			return usagef("--race-member-n %q: want MEMBER=N[,N…]", spec)
		}
		if memberNs == nil {
			memberNs = map[string][]int{}
		}
		if _, dup := memberNs[name]; dup {
			return usagef("--race-member-n: member %s given twice", name)
		}
		for _, f := range study.List(list) {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 {
				return usagef("--race-member-n %q: N %q, want an integer ≥ 1", spec, f)
			}
			memberNs[name] = append(memberNs[name], n)
		}
		if len(memberNs[name]) == 0 {
			return usagef("--race-member-n %q names no N", spec)
		}
	}
	var members []study.RaceMember
	if o.raceMembers != "" {
		if members, err = study.ParseRaceMembers(o.raceMembers); err != nil {
			return usagef("--race-members: %v", err)
		}
	}
	reg, err := model.ParseRegularizer(o.reg)
	if err != nil {
		return usagef("--regularizer: %v", err)
	}
	sv, err := o.solver.solver()
	if err != nil {
		return err
	}
	if !sv.Exact() && slices.ContainsFunc(stages, func(s string) bool { return s != study.StageAccuracy }) {
		return usagef("--solver %s: an option of the accuracy stage only (give --stages accuracy; the readout, retune and budget stages solve exactly)", sv)
	}
	win, err := model.ParseWinGen(o.win)
	if err != nil {
		return usagef("--win: %v", err)
	}
	if win != model.WinStored {
		if slices.ContainsFunc(stages, func(s string) bool { return s != study.StageAccuracy }) {
			return usagef("--win %s: an option of the accuracy stage only (give --stages accuracy)", o.win)
		}
		if len(nets) != 1 || !nets[0].Traits().GeneratedWin {
			gen := model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.GeneratedWin }))
			return usagef("--win %s: a generated W_in is an option of the %s (give --networks %s)", o.win, gen, gen)
		}
	}
	var budgets []study.Budget
	if slices.Contains(stages, study.StageBudget) {
		if budgets, err = study.ParseBudgets(o.budgets, power.Params{}); err != nil {
			return usagef("--budgets: %v", err)
		}
	}
	datasets, err := checkCollection(o.data, o.datasets)
	if err != nil {
		return err
	}
	var shard jobs.Shard
	if o.shard != "" {
		if shard, err = jobs.ParseShard(o.shard); err != nil {
			return usagef("--shard: %v", err)
		}
	}
	var merge []string
	if cmd.Flags().Changed("merge") {
		if merge = study.List(o.merge); len(merge) == 0 {
			return usagef("--merge %q names no shard folder", o.merge)
		}
		if o.shard != "" {
			return usagef("--merge and --shard: a merge runs after the shards, not as one")
		}
	}
	var fixed map[string]protocol.Best
	if o.hyper != "" {
		if fixed, err = protocol.ReadHyperparameters(o.hyper); err != nil {
			return err
		}
	}
	return study.Reproduce(cmd.Context(), study.ReproduceOptions{DataDir: o.data, OutDir: o.out,
		Datasets: datasets, Stages: stages, Shard: shard, Merge: merge, Networks: nets, Grid: g, Seeds: seeds, Workers: o.workers,
		TestNorm: tn, Fixed: fixed, Regularizer: reg, Solver: sv, Win: win, Budgets: budgets, ReadoutGA: o.readoutGA, RetuneBits: o.bits, RetuneGA: o.retuneGA,
		RaceBits: raceBits, RaceBudget: o.raceBudg, RaceMemberNs: memberNs, RaceMembers: members,
		Command: "hdlgen reproduce " + strings.Join(quoteArgs(cmd), " "), Out: app.Out, Progress: app.Err})
}

// quoteArgs renders the flags that were set, for the record in the summary;
// --merge is left out, so that a merge records the command of the one run it
// stands for.
func quoteArgs(cmd *cobra.Command) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch v := f.Value.(type) {
		case pflag.SliceValue: // a repeatable flag: once per value, as typed
			for _, s := range v.GetSlice() {
				out = append(out, "--"+f.Name+" "+s)
			}
		default:
			if f.Name != "merge" {
				out = append(out, "--"+f.Name+" "+f.Value.String())
			}
		}
	})
	return out
}

// checkCollection checks --data and --datasets before any work: the folder
// must be a readable collection, and every named dataset one of it. It returns
// the named datasets (nil: all).
func checkCollection(dir, list string) ([]string, error) {
	all, err := dataset.ListUCI(dir)
	if err != nil {
		return nil, usagef("--data %s: not a readable UCI-121 collection: %v", dir, err)
	}
	if len(all) == 0 {
		return nil, usagef("--data %s: no dataset in this folder (each is a folder with <name>/<name>.txt)", dir)
	}
	names := study.List(list)
	if strings.TrimSpace(list) != "" && len(names) == 0 {
		return nil, usagef("--datasets %q names no dataset", list)
	}
	var unknown []string
	for _, n := range names {
		if !slices.Contains(all, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, usagef("--datasets: %s not in the collection at %s (%d datasets, e.g. %s)",
			strings.Join(unknown, ", "), dir, len(all), strings.Join(all[:min(3, len(all))], ", "))
	}
	return names, nil
}
