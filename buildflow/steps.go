package buildflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/jobs"
)

// Step is one finished step of a build.
type Step struct {
	Name    string
	Command string  // the command line; for a step done by build itself, what it stands for
	Skipped bool    // unchanged since the last run
	Seconds float64 // wall time (0 when skipped)
	Rerun   string  // why a step with a record ran again ("" for none)
}

// stepFormat versions the step records: a record of another version runs
// its step again.
const stepFormat = "hdlgen-build-step/1"

// stepRecord is DIR/.build/steps/<step>.json.
type stepRecord struct {
	Fingerprint string       `json:"fingerprint"`
	Data        string       `json:"data_sha256"` // unused ("")
	Command     string       `json:"command"`
	Seconds     float64      `json:"seconds"`
	Outputs     jobs.Outputs `json:"outputs"`
}

// stepDef is a step to run.
type stepDef struct {
	name    string   // unique: "search", "score float-train", …
	line    string   // the command line shown in the report
	deps    []string // fingerprints of the steps whose outputs it reads
	outputs []string // files and folders it writes, relative to DIR
	skip    func(rel string) bool
	do      func(ctx context.Context) error
}

// runner carries a build's state from step to step; its methods may be
// called from several goroutines.
type runner struct {
	o     *Options
	store jobs.Store
	total int // steps in total, for "[i/n]"

	mu    sync.Mutex
	index map[string]int // step group → its number
	steps []Step
}

func newRunner(o *Options, total int) *runner {
	r := &runner{o: o, store: jobs.Store{Dir: filepath.Join(o.Dir, stampDir)}, total: total, index: map[string]int{}}
	for i, g := range stepGroups {
		r.index[g] = i + 1
	}
	return r
}

// stepGroups are the steps' groups (a step name's first word) in the order
// the flow runs them: the progress lines' numbers.
var stepGroups = []string{"split", "search", "baseline", "design", "validate", "train", "quantize", "score", "sizes", "emit", "verify", "synth", "power"}

// stepOrder is every step's place in the report's command list (the steps
// that run at once finish in any order).
var stepOrder = []string{"split", "search", "baseline", "design", "validate", "train", "quantize", "score float-train", "score float-holdout", "score int-train",
	"score int-holdout", "sizes", "emit", "emit icarus", "verify verilator", "verify icarus", "synth", "power"}

// sortedSteps returns the steps in stepOrder.
func (r *runner) sortedSteps() []Step {
	r.mu.Lock()
	defer r.mu.Unlock()
	steps := slices.Clone(r.steps)
	slices.SortStableFunc(steps, func(a, b Step) int { return slices.Index(stepOrder, a.Name) - slices.Index(stepOrder, b.Name) })
	return steps
}

// progress prints one line for step name (numbered by its group, the first
// word of its name).
func (r *runner) progress(name, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	group := strings.Fields(name)[0]
	i, ok := r.index[group]
	if !ok {
		i = len(r.index) + 1
		r.index[group] = i
	}
	fmt.Fprintf(r.o.Progress, "[%d/%d] %s%s\n", i, r.total, name, fmt.Sprintf(format, args...))
}

// step runs def unless its record says it is done with the same
// fingerprint and unchanged outputs; it returns the step's fingerprint.
func (r *runner) step(ctx context.Context, def stepDef) (string, error) {
	fp := jobs.Fingerprint(stepFormat, def.name, def.line, def.deps)
	rel := filepath.Join("steps", strings.ReplaceAll(def.name, " ", "-")+".json")
	var rec stepRecord
	ok, err := r.store.Load(rel, fp, "", &rec)
	if err != nil {
		ok = false // an unreadable record: run the step again
	}
	rerun := ""
	if ok {
		path, why := rec.Outputs.Changed(r.o.Dir)
		if path == "" {
			r.progress(def.name, ": unchanged, skipped")
			markStarted(ctx)
			r.add(Step{Name: def.name, Command: def.line, Skipped: true})
			return fp, nil
		}
		rerun = path + " " + why
		r.progress(def.name, ": its output %s: running it again", rerun)
	}
	if err := os.Remove(r.store.Path(rel)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("buildflow: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	r.progress(def.name, " …")
	markStarted(ctx)
	t0 := time.Now()
	stop := r.heartbeat(def.name, t0)
	err = def.do(ctx)
	stop()
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	sec := time.Since(t0).Seconds()
	outs, err := jobs.HashOutputs(r.o.Dir, def.outputs, def.skip)
	if err != nil {
		return "", fmt.Errorf("buildflow: step %s: %w", def.name, err)
	}
	if err := r.store.Save(rel, stepRecord{Fingerprint: fp, Command: def.line, Seconds: sec, Outputs: outs}); err != nil {
		return "", fmt.Errorf("buildflow: %w", err)
	}
	r.progress(def.name, ": done in %.1fs", sec)
	r.add(Step{Name: def.name, Command: def.line, Seconds: sec, Rerun: rerun})
	return fp, nil
}

// heartbeatEvery is how often a step without progress lines of its own
// says that it is still running (a variable for the tests).
var heartbeatEvery = 30 * time.Second

// ownProgress are the steps that print their own progress with the time
// left (the search's parts, the baseline's folds, the GA's parts and
// generations).
var ownProgress = map[string]bool{"search": true, "baseline": true, "validate": true, "quantize": true}

// heartbeat prints, every heartbeatEvery until stop is called, that step
// name (started at t0) is still running and for how long — for the steps
// whose tools (Verilator, Icarus, Yosys) say nothing about how far they
// are, so that no step is silent for minutes. stop waits for a line being
// printed.
func (r *runner) heartbeat(name string, t0 time.Time) (stop func()) {
	if ownProgress[name] || r.o.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(heartbeatEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				r.progress(name, ": running, %s so far", time.Since(t0).Round(time.Second))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func (r *runner) add(s Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, s)
}

// commandLine is the report's form of a command: the program, the quoted
// arguments, and "> FILE" when its standard output is kept.
func (r *runner) commandLine(args []string, stdoutFile string) string {
	line := r.o.Program + " " + quoteArgs(args)
	if stdoutFile != "" {
		line += " > " + quoteArgs([]string{filepath.Join(r.o.Dir, filepath.FromSlash(stdoutFile))})
	}
	return line
}

// command returns the definition of a step that runs an hdlgen command: its
// standard output goes to stdoutFile (relative to DIR, written atomically
// after success) or to its log, its standard error to its log (and, for
// long steps, to the progress stream).
func (r *runner) command(name string, args []string, stdoutFile string, deps []string, outputs ...string) stepDef {
	line := r.commandLine(args, stdoutFile)
	if stdoutFile != "" {
		outputs = append(outputs, stdoutFile)
	}
	return stepDef{name: name, line: line, deps: deps, outputs: outputs, do: func(ctx context.Context) error {
		logPath := filepath.Join(r.o.Dir, logDir, strings.ReplaceAll(name, " ", "-")+".log")
		logf, err := os.Create(logPath)
		if err != nil {
			return fmt.Errorf("buildflow: %w", err)
		}
		defer logf.Close()
		var out bytes.Buffer
		stdout := io.Writer(&out)
		if stdoutFile == "" {
			stdout = logf
		}
		stderr := io.Writer(logf)
		if name == "search" || name == "validate" || name == "quantize" {
			// Minutes on a large grid, or the GA: show their progress.
			stderr = io.MultiWriter(logf, &lockedWriter{mu: &r.mu, w: r.o.Progress})
		}
		if err := r.o.Run(ctx, args, stdout, stderr); err != nil {
			return fmt.Errorf("buildflow: step %s failed (%s; log %s): %w", name, line, logPath, err)
		}
		if stdoutFile != "" {
			return atomicfile.WriteFile(filepath.Join(r.o.Dir, stdoutFile), out.Bytes(), 0o644)
		}
		return nil
	}}
}

// lockedWriter serialises writes to w with the runner's progress lines.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// quoteArgs joins args for a shell, quoting those that need it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// parallel runs fs at once and returns the first error (all finish first).
func parallel(ctx context.Context, fs ...func(ctx context.Context) error) error {
	errs := make([]error, len(fs))
	var wg sync.WaitGroup
	for i, f := range fs {
		// Each starts once the one before has printed its first progress
		// line (or ended), so that the lines come in the steps' order.
		started := make(chan struct{})
		var once sync.Once
		mark := func() { once.Do(func() { close(started) }) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer mark()
			errs[i] = f(context.WithValue(ctx, startedKey{}, mark))
		}()
		<-started
	}
	wg.Wait()
	return errors.Join(errs...)
}

// startedKey holds, in the context of a step run by parallel, the function
// that lets the next one start.
type startedKey struct{}

// markStarted tells parallel that the step of ctx has printed its first line.
func markStarted(ctx context.Context) {
	if f, ok := ctx.Value(startedKey{}).(func()); ok {
		f()
	}
}
