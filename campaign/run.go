package campaign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/verify"
)

// Config is one campaign.
type Config struct {
	Designs        int    // N: designs 0…N−1 are drawn
	Vectors        int    // V: test vectors per design
	Seed           uint64 // S
	Out            string // DIR: designs/, results.tsv, summary.md
	GateLevelEvery int    // M: designs with Index%M == M−1 also run the gate-level steps (0: none)
	Workers        int    // designs verified at once (0 means 1)
	// Only restricts the run to these indices (a reproducer); nil means all.
	Only []int
	// Networks restricts the run to the drawn designs of these networks
	// (model.Arch names, e.g. "intrvfl2"); nil means all. The draw is the
	// same: design i is Draw(Seed, i) whatever the filter, so the run is a
	// subset of the unfiltered campaign's.
	Networks []string
	// KeepWork keeps every work directory (they are kept on failure anyway).
	KeepWork bool
	// WorkDir is where the temporary work directories go ("" means os.TempDir()).
	WorkDir string
	// Command is the command line recorded in summary.md.
	Command string
	// Progress receives one line per design started and finished (nil: none).
	Progress io.Writer
	// Log, if non-nil, receives the tools' output (verify.Options.Log).
	Log io.Writer
}

// GateLevel reports whether design i runs the gate-level steps.
func (c Config) GateLevel(i int) bool {
	return c.GateLevelEvery > 0 && i%c.GateLevelEvery == c.GateLevelEvery-1
}

// Selects reports whether the run includes the drawn design d: its index
// is in Only and its network in Networks (each when set).
func (c Config) Selects(d Design) bool {
	return (c.Only == nil || slices.Contains(c.Only, d.Index)) &&
		(c.Networks == nil || slices.Contains(c.Networks, string(d.Shape.Arch)))
}

// StepRecord is one verify step of a design.
type StepRecord struct {
	Name       string   `json:"name"`
	Passed     bool     `json:"passed"`
	Vectors    int      `json:"vectors,omitempty"`
	Cycles     int      `json:"cycles,omitempty"`
	Latency    int      `json:"latency,omitempty"`
	Mismatches []string `json:"mismatches,omitempty"`
	Seconds    float64  `json:"seconds"`
}

// Record is the outcome of one design: DIR/designs/dNNNN.json.
type Record struct {
	Design    Design       `json:"design"`
	Vectors   int          `json:"vectors"`
	GateLevel bool         `json:"gate_level"`
	Latency   int          `json:"latency,omitempty"` // the plan's latency in cycles
	II        int          `json:"ii,omitempty"`
	Steps     []StepRecord `json:"steps"`
	Passed    bool         `json:"passed"`
	// Mismatches counts the MISMATCH and TIMEOUT lines of every step.
	Mismatches int     `json:"mismatches"`
	Seconds    float64 `json:"seconds"` // wall time of emit and verify
	// CPUSeconds is the CPU time (user + system) of emit and verify, the
	// tools included; 0 when unknown or when several workers shared the process.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	Error      string  `json:"error,omitempty"`
	// WorkDir is the kept work directory (a failure, or Config.KeepWork).
	WorkDir string `json:"work_dir,omitempty"`
}

func (r *Record) matches(d Design, c Config) bool {
	return r.Design == d && r.Vectors == c.Vectors && r.GateLevel == c.GateLevel(d.Index)
}

// Summary counts a campaign's records.
type Summary struct {
	Records    []Record // in index order
	Passed     int
	Failed     int
	Mismatches int
	Missing    int // drawn designs without a record
}

// recordPath is the JSON file of design i.
func recordPath(out string, i int) string {
	return filepath.Join(out, "designs", fmt.Sprintf("d%04d.json", i))
}

// Run runs the campaign: every drawn design without a matching record in
// DIR/designs is emitted and verified, its record written as soon as it is
// done; then results.tsv and summary.md are written from all records. A design
// that fails is recorded and does not stop the others. Run returns an error
// only when it cannot go on (DIR not writable, ctx ended: designs done so far
// stay recorded); the Summary says whether designs failed.
func Run(ctx context.Context, c Config) (*Summary, error) {
	if c.Designs < 1 || c.Vectors < 1 {
		return nil, fmt.Errorf("campaign: %d designs × %d vectors, want ≥ 1 each", c.Designs, c.Vectors)
	}
	if c.Workers < 1 {
		c.Workers = 1
	}
	if err := os.MkdirAll(filepath.Join(c.Out, "designs"), 0o755); err != nil {
		return nil, fmt.Errorf("campaign: %w", err)
	}
	started := time.Now()
	var todo []Design
	kept := 0
	for i := 0; i < c.Designs; i++ {
		d := Draw(c.Seed, i)
		if !c.Selects(d) {
			continue
		}
		if r, err := readRecord(recordPath(c.Out, i)); err == nil && r.matches(d, c) {
			kept++
			continue
		}
		todo = append(todo, d)
	}
	if len(todo) > 0 {
		// A missing simulator would fail every design: stop before the first.
		gate := slices.ContainsFunc(todo, func(d Design) bool { return c.GateLevel(d.Index) })
		if err := verify.CheckTools(designSteps(gate)); err != nil {
			return nil, fmt.Errorf("campaign: %w", err)
		}
	}
	progress(c, "campaign: seed %d, %d designs × %d vectors: %d recorded already, %d to run with %d worker(s)\n",
		c.Seed, c.Designs, c.Vectors, kept, len(todo), c.Workers)

	// One worker pool (internal/jobs): a design's record is written as soon
	// as it is done; a failure to write one stops the feeding of further
	// designs, as an interrupt does.
	var (
		done, failed int
		runErr       error
	)
	feed, stop := context.WithCancel(ctx)
	defer stop()
	jobs.Run(feed, c.Workers, todo, func(d Design) (*Record, error) {
		// Another campaign in the same DIR (an --only run) may have
		// recorded the design since the list was made.
		if r, err := readRecord(recordPath(c.Out, d.Index)); err == nil && r.matches(d, c) {
			return nil, nil
		}
		rec, err := runDesign(ctx, c, d)
		if err == nil {
			err = writeRecord(recordPath(c.Out, d.Index), rec)
		}
		return rec, err
	}, func(d Design, rec *Record, err error) {
		if err != nil {
			if runErr == nil {
				runErr = err
			}
			stop()
			return
		}
		done++
		if rec == nil {
			progress(c, "campaign: [%d/%d] %s recorded meanwhile, skipped\n", done, len(todo), d.Name())
			return
		}
		status := "pass"
		if !rec.Passed {
			status = "FAIL"
			failed++
		}
		progress(c, "campaign: [%d/%d] %s %s %s%s: %s %.1fs (CPU %.1fs; failed so far %d, ETA %s)\n",
			done, len(todo), d.Name(), d.Shape, d.OptionString(), gateTag(rec.GateLevel), status, rec.Seconds, rec.CPUSeconds, failed,
			jobs.TimeLeft(started, float64(done), float64(len(todo))))
		if !rec.Passed {
			progress(c, "campaign:   %s: %s\n", d.Name(), firstLine(rec.Error))
		}
	})
	sum, err := Collect(c.Out, c.Seed, c.Designs)
	if err != nil {
		return nil, err
	}
	if err := WriteReports(c, sum); err != nil {
		return sum, err
	}
	if runErr == nil {
		runErr = ctx.Err()
	}
	if runErr != nil {
		return sum, fmt.Errorf("campaign: stopped after %d of %d designs: %w", done, len(todo), runErr)
	}
	return sum, nil
}

func gateTag(g bool) string {
	if g {
		return " +gate"
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func progress(c Config, format string, a ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format, a...)
	}
}

// runDesign emits and verifies one design in a temporary work directory. It
// returns an error only when the campaign cannot go on (ctx ended); a design
// that cannot be emitted or verified gives a failed Record.
func runDesign(ctx context.Context, c Config, d Design) (*Record, error) {
	rec := &Record{Design: d, Vectors: c.Vectors, GateLevel: c.GateLevel(d.Index)}
	t0 := time.Now()
	cpu0, cpuOK := cpuSeconds()
	setCPU := func() {
		if cpu1, ok := cpuSeconds(); ok && cpuOK && c.Workers == 1 {
			rec.CPUSeconds = round(cpu1 - cpu0)
		}
	}
	work, err := os.MkdirTemp(c.WorkDir, "hdlgen-campaign-"+d.Name()+"-")
	if err != nil {
		return nil, fmt.Errorf("campaign: %s: %w", d.Name(), err)
	}
	fail := func(err error) (*Record, error) {
		if ctx.Err() != nil {
			os.RemoveAll(work)
			return nil, fmt.Errorf("campaign: %s: %w", d.Name(), ctx.Err())
		}
		rec.Error = err.Error()
		rec.Seconds = round(time.Since(t0).Seconds())
		setCPU()
		rec.WorkDir = work
		return rec, nil
	}
	dir := filepath.Join(work, "hw")
	rep, err := rtl.Emit(ctx, d.Model(), d.EmitOptions(c.Vectors), dir)
	if err != nil {
		return fail(fmt.Errorf("emit: %w", err))
	}
	rec.Latency, rec.II = rep.Plan.Latency, rep.Plan.II
	vrep, err := verify.Run(ctx, dir, verify.Options{Steps: designSteps(rec.GateLevel), Log: c.Log})
	if err != nil {
		return fail(fmt.Errorf("verify: %w", err))
	}
	for _, s := range vrep.Steps {
		rec.Steps = append(rec.Steps, StepRecord{Name: s.Name, Passed: s.Passed, Vectors: s.Vectors,
			Cycles: s.Cycles, Latency: s.Latency, Mismatches: s.Mismatches, Seconds: round(s.Duration.Seconds())})
		rec.Mismatches += len(s.Mismatches)
	}
	rec.Seconds = round(time.Since(t0).Seconds())
	setCPU()
	if err := vrep.Err(); err != nil {
		return fail(err)
	}
	rec.Passed = true
	if c.KeepWork {
		rec.WorkDir = work
	} else if err := os.RemoveAll(work); err != nil {
		return nil, fmt.Errorf("campaign: remove %s: %w", work, err)
	}
	return rec, nil
}

// designSteps are the verify steps of a design: every step, and the
// gate-level ones when gate is set.
func designSteps(gate bool) []verify.Step {
	steps := slices.Clone(verify.AllSteps)
	if gate {
		steps = append(steps, verify.GateSteps...)
	}
	return steps
}

func round(s float64) float64 { return float64(int64(s*10+0.5)) / 10 }

// readRecord reads a design's record (jobs.Store's format).
func readRecord(path string) (*Record, error) {
	var r Record
	ok, err := recordStore(path).LoadAny(filepath.Base(path), &r)
	if err != nil {
		return nil, fmt.Errorf("campaign: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("campaign: %s: %w", path, os.ErrNotExist)
	}
	return &r, nil
}

// writeRecord writes r atomically (jobs.Store), so an interrupted campaign
// never leaves half a record.
func writeRecord(path string, r *Record) error {
	if err := recordStore(path).Save(filepath.Base(path), r); err != nil {
		return fmt.Errorf("campaign: %w", err)
	}
	return nil
}

// recordStore is the store of the records in path's folder (two-space
// JSON, the format of the committed campaigns).
func recordStore(path string) jobs.Store { return jobs.Store{Dir: filepath.Dir(path), Indent: "  "} }

// Collect reads the records of designs 0…n−1 of the campaign with seed seed
// from DIR/designs; a record of another draw (seed) counts as missing.
func Collect(out string, seed uint64, n int) (*Summary, error) {
	s := &Summary{}
	for i := 0; i < n; i++ {
		r, err := readRecord(recordPath(out, i))
		if errors.Is(err, os.ErrNotExist) || (err == nil && r.Design != Draw(seed, i)) {
			s.Missing++
			continue
		}
		if err != nil {
			return nil, err
		}
		s.Records = append(s.Records, *r)
		s.Mismatches += r.Mismatches
		if r.Passed {
			s.Passed++
		} else {
			s.Failed++
		}
	}
	return s, nil
}
