package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/protocol"
)

// The stages of `hdlgen reproduce`, in the order they run.
const (
	StageAccuracy = "accuracy" // the paper's Fig. 5 (RunAccuracy)
	StageReadout  = "readout"  // Fig. 6 (RunReadout), from the accuracy stage's intRVFL results
	StageRetune   = "retune"   // λ re-chosen for the integer readout (RunRetune), from them too
	StageBudget   = "budget"   // Fig. 7 (RunBudget)
	StageRace     = "race"     // the hardware networks' race under a LUT budget (RunRace)
)

// Stages are the stages in the order Reproduce runs them.
var Stages = []string{StageAccuracy, StageReadout, StageRetune, StageBudget, StageRace}

// ReproduceOptions configures Reproduce: the settings of `hdlgen reproduce`.
type ReproduceOptions struct {
	DataDir, OutDir string
	Datasets        []string // subset; nil = every dataset of the collection
	Stages          []string // of Stages, any order
	Networks        []protocol.Network
	Grid            protocol.Grid
	Seeds           []uint64
	Workers         int
	TestNorm        protocol.TestNorm
	Fixed           map[string]protocol.Best // see AccuracyOptions.Fixed
	Regularizer     model.Regularizer
	Solver          model.Solver     // accuracy stage only (the other stages solve exactly)
	Win             model.WinGen     // accuracy stage, intrvfl only: the W_in source
	Budgets         []Budget         // budget stage
	ReadoutGA       bool             // readout stage: also the two GA strategies
	RetuneBits      int              // retune stage
	RetuneGA        bool             // retune stage: the GA lever (RetuneOptions.GA)
	RaceBits        []int            // race stage: readout widths (RaceOptions.Bits)
	RaceBudget      float64          // race stage: budget factor (RaceOptions.Budget)
	RaceMemberNs    map[string][]int // race stage: N beyond the grid's for one member (RaceOptions.MemberNs)
	RaceMembers     []RaceMember     // race stage: the members (RaceOptions.Members; nil: the default)
	// Shard runs this share of every stage's jobs and writes no report (the
	// merge does); the zero value runs everything.
	Shard jobs.Shard
	// Merge gathers the stored jobs of these shard folders into OutDir (a
	// folder the shards shared may be named too, or OutDir itself), then runs
	// the stages computing nothing — every job must be stored — and writes the
	// reports, the same as one run's.
	Merge []string
	// Command is the command line recorded in the reports and the run log.
	Command string
	// Out receives the results (a few lines per stage), Progress the progress.
	Out, Progress io.Writer
}

// ParseStages validates a list of stage names.
func ParseStages(names []string) ([]string, error) {
	for _, s := range names {
		if !slices.Contains(Stages, s) {
			return nil, fmt.Errorf("unknown stage %q (want %s)", s, strings.Join(Stages, ", "))
		}
	}
	return names, nil
}

// Reproduce runs the chosen stages one after the other into OutDir: each
// resumes from the jobs stored there, logs its invocation in the run log, and
// writes its report, also when it was interrupted (then it returns the error,
// and a rerun of the same command resumes).
func Reproduce(ctx context.Context, o ReproduceOptions) error {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if !o.Solver.Exact() && slices.ContainsFunc(o.Stages, func(s string) bool { return s != StageAccuracy }) {
		return fmt.Errorf("reproduce: solver %s is an option of the accuracy stage only (the readout, retune and budget stages solve exactly)", o.Solver)
	}
	if o.Win != model.WinStored && slices.ContainsFunc(o.Stages, func(s string) bool { return s != StageAccuracy }) {
		return fmt.Errorf("reproduce: a generated W_in (%s) is an option of the accuracy stage only", o.Win)
	}
	if slices.Contains(o.Stages, StageRace) && slices.Contains(o.Stages, StageAccuracy) {
		return fmt.Errorf("reproduce: the race writes its own accuracy.tsv and summary into --out; run it into a folder of its own, not with the accuracy stage")
	}
	if len(o.Merge) > 0 && o.Shard.Count > 1 {
		return fmt.Errorf("reproduce: a merge is not a shard's run")
	}
	lock, err := jobs.LockDir(o.OutDir, o.Shard, o.Command)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	reuseOnly := len(o.Merge) > 0
	if reuseOnly {
		n, err := Gather(o.OutDir, o.Merge)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.Progress, "merge: %d stored jobs gathered into %s\n", n, o.OutDir)
	}
	run := map[string]bool{}
	for _, s := range o.Stages {
		run[s] = true
	}
	if run[StageAccuracy] {
		opt := AccuracyOptions{DataDir: o.DataDir, OutDir: o.OutDir, Datasets: o.Datasets, Networks: o.Networks,
			Grid: o.Grid, Seeds: o.Seeds, Workers: o.Workers, TestNorm: o.TestNorm, Progress: o.Progress,
			Fixed: o.Fixed, Regularizer: o.Regularizer, Solver: o.Solver, Win: o.Win, Shard: o.Shard, ReuseOnly: reuseOnly}
		if err := o.accuracy(ctx, opt); err != nil {
			return err
		}
	}
	if run[StageReadout] {
		opt := ReadoutOptions{DataDir: o.DataDir, OutDir: o.OutDir, Datasets: o.Datasets, Seeds: o.Seeds,
			NoGA: !o.ReadoutGA, Workers: o.Workers, TestNorm: o.TestNorm, Progress: o.Progress, Shard: o.Shard, ReuseOnly: reuseOnly}
		if err := o.readout(ctx, opt); err != nil {
			return err
		}
	}
	if run[StageRetune] {
		opt := RetuneOptions{DataDir: o.DataDir, OutDir: o.OutDir, Datasets: o.Datasets, Bits: o.RetuneBits, GA: o.RetuneGA, Seeds: o.Seeds,
			Workers: o.Workers, TestNorm: o.TestNorm, Progress: o.Progress, Shard: o.Shard, ReuseOnly: reuseOnly}
		if err := o.retune(ctx, opt); err != nil {
			return err
		}
	}
	if run[StageBudget] {
		opt := BudgetOptions{DataDir: o.DataDir, OutDir: o.OutDir, Datasets: o.Datasets, Budgets: o.Budgets, Grid: o.Grid,
			Seeds: o.Seeds, Workers: o.Workers, TestNorm: o.TestNorm, Regularizer: o.Regularizer, Progress: o.Progress,
			Shard: o.Shard, ReuseOnly: reuseOnly}
		if err := o.budget(ctx, opt); err != nil {
			return err
		}
	}
	if run[StageRace] {
		opt := RaceOptions{DataDir: o.DataDir, OutDir: o.OutDir, Datasets: o.Datasets, Bits: o.RaceBits, Budget: o.RaceBudget, MemberNs: o.RaceMemberNs, Members: o.RaceMembers,
			Grid: o.Grid, Regularizer: o.Regularizer, Seeds: o.Seeds, Workers: o.Workers, TestNorm: o.TestNorm, Progress: o.Progress,
			Shard: o.Shard, ReuseOnly: reuseOnly}
		if err := o.race(ctx, opt); err != nil {
			return err
		}
	}
	return nil
}

// race runs the race stage and writes its report.
func (o ReproduceOptions) race(ctx context.Context, opt RaceOptions) error {
	var res *RaceStudy
	return o.stage(StageRace, o.OutDir, func() (r *stageRun, err error) { res, err = RunRace(ctx, opt); return res.run(), err },
		func(failed bool) error {
			sum, err := WriteRaceReport(o.OutDir, res, o.Command, time.Now())
			if err != nil || failed {
				return err
			}
			for _, w := range sum.Widths {
				fmt.Fprintf(o.Out, "race, %d-bit readout, %d datasets: %.4f at %.0f LUT-equivalents (oracle %.4f)\n", w.Bits, w.Datasets, w.Accuracy, w.LUTs, w.Oracle)
			}
			fmt.Fprintf(o.Out, "report: %s/summary.md\n", o.OutDir)
			return nil
		})
}

// stageRun is what a stage's run did, for finish.
type stageRun struct {
	wall            float64
	datasets        int
	results, reused int
	skipped         []Skipped
}

func (s *Study[R, O]) run() *stageRun {
	if s == nil {
		return nil
	}
	return &stageRun{s.WallSeconds, s.Datasets, len(s.Results), s.Reused, s.Skipped}
}

// stage runs one stage whose folder (run log, report) is dir. A run in which
// every dataset was skipped fails with nothing written; otherwise the
// invocation is logged and — except in a shard's run, which only says what it
// did — report writes the report, also after an interruption or a failed job
// (the finished jobs are reported), and prints the result unless the run
// failed; the run's error is returned with a hint to resume.
func (o ReproduceOptions) stage(name, dir string, run func() (*stageRun, error), report func(failed bool) error) error {
	start := time.Now()
	r, runErr := run()
	if r == nil {
		return runErr
	}
	if r.datasets > 0 && len(r.skipped) >= r.datasets {
		return fmt.Errorf("%s stage: every dataset was skipped (%d; %s: %s)", name, len(r.skipped), r.skipped[0].Dataset, r.skipped[0].Reason)
	}
	logged := name
	if o.Shard.Count > 1 {
		logged += " shard " + o.Shard.String()
	}
	if err := jobs.AppendRunLog(dir, logged, o.Command, start, r.wall, r.results-r.reused, r.reused); err != nil {
		return err
	}
	if o.Shard.Count > 1 {
		fmt.Fprintf(o.Out, "%s stage, shard %s: %d jobs run, %d reused; when every shard is done, merge with the same command, --merge and without --shard\n",
			name, o.Shard, r.results-r.reused, r.reused)
	} else if err := report(runErr != nil); err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (the finished results are stored; rerun the same command to resume)", runErr)
	}
	return nil
}

// accuracy runs the accuracy stage and writes its report.
func (o ReproduceOptions) accuracy(ctx context.Context, opt AccuracyOptions) error {
	var res *AccuracyStudy
	return o.stage(StageAccuracy, o.OutDir, func() (r *stageRun, err error) { res, err = RunAccuracy(ctx, opt); return res.run(), err },
		func(failed bool) error {
			sum, err := WriteAccuracyReport(o.OutDir, res, opt.Networks, o.Command, time.Now())
			if err != nil || failed {
				return err
			}
			for _, n := range sum.Networks {
				fmt.Fprintf(o.Out, "%-12s mean accuracy %.4f over %d datasets\n", n.Network, n.MeanAccuracy, n.Datasets)
			}
			if c := sum.IntVsRVFL; c != nil {
				fmt.Fprintf(o.Out, "intrvfl vs rvfl: Pearson %.3f, paired t p=%.3g, two-sample t p=%.3g, wins/ties/losses %d/%d/%d\n",
					c.Pearson, c.PairedT, c.TwoSampleT, c.Wins, c.Ties, c.Losses)
			}
			fmt.Fprintf(o.Out, "report: %s/summary.md\n", o.OutDir)
			return nil
		})
}

// readout runs the readout stage and writes its report.
func (o ReproduceOptions) readout(ctx context.Context, opt ReadoutOptions) error {
	var res *ReadoutStudy
	return o.stage(StageReadout, o.OutDir, func() (r *stageRun, err error) { res, err = RunReadout(ctx, opt); return res.run(), err },
		func(failed bool) error {
			sum, err := WriteReadoutReport(o.OutDir, res, o.Command, time.Now())
			if err != nil || failed {
				return err
			}
			fmt.Fprintf(o.Out, "readout study over %d datasets: float %.4f; rounded B=1 %.4f, B=15 (5 bits) %.4f\n",
				sum.Datasets, sum.Float, sum.Round[0], sum.Round[len(sum.Round)-2])
			fmt.Fprintf(o.Out, "report: %s/readout-summary.md\n", o.OutDir)
			return nil
		})
}

// retune runs the retune stage and writes its report.
func (o ReproduceOptions) retune(ctx context.Context, opt RetuneOptions) error {
	var res *RetuneStudy
	return o.stage(StageRetune, o.OutDir, func() (r *stageRun, err error) { res, err = RunRetune(ctx, opt); return res.run(), err },
		func(failed bool) error {
			sum, err := WriteRetuneReport(o.OutDir, res, o.Command, time.Now())
			if err != nil || failed {
				return err
			}
			fmt.Fprintf(o.Out, "retune study over %d datasets: float %.4f; %d-bit rounded %.4f (%+.2f points), with λ retuned %.4f (%+.2f points)\n",
				sum.Datasets, sum.FloatOriginal, sum.Bits, sum.Original.Mean, sum.Original.MeanPoints, sum.Retuned.Mean, sum.Retuned.MeanPoints)
			fmt.Fprintf(o.Out, "report: %s/retune-summary.md\n", o.OutDir)
			return nil
		})
}

// budget runs the budget stage and writes its report.
func (o ReproduceOptions) budget(ctx context.Context, opt BudgetOptions) error {
	var res *BudgetStudy
	dir := BudgetDir(o.OutDir)
	return o.stage(StageBudget, dir, func() (r *stageRun, err error) { res, err = RunBudget(ctx, opt); return res.run(), err },
		func(failed bool) error {
			sum, err := WriteBudgetReport(o.OutDir, res, o.Command, time.Now())
			if err != nil || failed {
				return err
			}
			for _, lv := range sum.Budgets {
				fmt.Fprintf(o.Out, "budget %s (%s):", lv.Budget.Label, power.FormatEnergy(lv.Budget.J))
				for _, n := range lv.Networks {
					if n.MeanAccuracy != nil {
						fmt.Fprintf(o.Out, " %s %.4f (N median %g)", n.Network, *n.MeanAccuracy, n.N.Median)
					}
				}
				if c := lv.Comparison; c != nil {
					fmt.Fprintf(o.Out, "; %d datasets, two-sample t p=%.3g, paired t p=%.3g, wins/ties/losses %d/%d/%d",
						c.N, c.TwoSampleT, c.PairedT, lv.Wins, lv.Ties, lv.Losses)
				}
				fmt.Fprintln(o.Out)
			}
			fmt.Fprintf(o.Out, "report: %s/summary.md\n", dir)
			return nil
		})
}

// Gather copies the stored jobs of the shard folders dirs (their runs/ and
// budget/<budget>/runs/ files) into the study folder out and returns how many
// it copied. A job present in out and in a shard folder must be the same
// bytes; a folder named twice, or out itself, is read once.
func Gather(out string, dirs []string) (int, error) {
	seen := map[string]bool{}
	if abs, err := filepath.Abs(out); err == nil {
		seen[abs] = true
	}
	n := 0
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return n, err
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if _, err := os.Stat(d); err != nil {
			return n, fmt.Errorf("merge: shard folder: %w", err)
		}
		err = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			rel, err := filepath.Rel(d, p)
			if err != nil {
				return err
			}
			parts := strings.Split(filepath.ToSlash(rel), "/")
			if !(parts[0] == "runs" || (parts[0] == "budget" && len(parts) > 2 && parts[2] == "runs")) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(out, rel)
			switch old, err := os.ReadFile(dst); {
			case err == nil && bytes.Equal(old, data):
				return nil
			case err == nil:
				return fmt.Errorf("merge: %s and %s are different results of one job", p, dst)
			case !errors.Is(err, fs.ErrNotExist):
				return err
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			n++
			return atomicfile.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
