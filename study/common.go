package study

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/protocol"
)

// Skipped is a dataset a study could not use, with the reason.
type Skipped = jobs.Skipped

// runPath is where a job of the accuracy, readout or retune study is stored in
// its study folder: runs/<network>/<dataset>.<kind>.json.
func runPath(kind string, nw protocol.Network, ds string) string {
	return filepath.Join("runs", string(nw), ds+"."+kind+".json")
}

// runDefaults fills the settings every study shares: the protocol's seeds, two
// workers, the published test-file normalisation, and no progress output.
func runDefaults(seeds *[]uint64, workers *int, tn *protocol.TestNorm, progress *io.Writer) {
	if len(*seeds) == 0 {
		*seeds = protocol.DefaultSeeds
	}
	if *workers < 1 {
		*workers = 2
	}
	if *tn == "" {
		*tn = protocol.TestNormOwn
	}
	if *progress == nil {
		*progress = io.Discard
	}
}

// intRVFLAccuracyResults loads the stored intRVFL accuracy result of each named
// dataset (every dataset of the collection when names is empty), the starting
// point of the studies that reuse the accuracy study's selection; datasets
// without one, or whose data changed since (DataHash), are returned as skipped.
func intRVFLAccuracyResults(st jobs.Store, dataDir string, names []string) ([]*RunResult, []Skipped, error) {
	if len(names) == 0 {
		var err error
		if names, err = dataset.ListUCI(dataDir); err != nil {
			return nil, nil, err
		}
	}
	var found []*RunResult
	var skipped []Skipped
	for _, name := range names {
		acc := new(RunResult)
		ok, err := st.LoadAny(runPath("result", protocol.IntRVFL, name), acc)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			skipped = append(skipped, Skipped{Dataset: name, Reason: "no stored intrvfl accuracy result (run the accuracy stage first)"})
			continue
		}
		data, err := DataHash(dataDir, name)
		switch {
		case err != nil:
		case acc.Data != data:
			err = fmt.Errorf("its intrvfl accuracy result was computed from other data (rerun the accuracy stage)")
		case !acc.Solver.Exact():
			err = fmt.Errorf("its intrvfl accuracy result was solved with %s; the readout and retune stages solve exactly only", acc.Solver)
		}
		if err != nil {
			skipped = append(skipped, Skipped{Dataset: name, Reason: err.Error()})
			continue
		}
		acc.Dataset = name
		found = append(found, acc)
	}
	return found, skipped, nil
}

// usable reads a dataset's metadata, checks that its data files are there and
// hashes them (DataHash), before any job of it starts.
func usable(dir, name string) (*dataset.UCIMeta, string, error) {
	meta, err := dataset.ReadUCIMeta(dir, name)
	if err != nil {
		return nil, "", err
	}
	if err := dataFilesPresent(dir, meta); err != nil {
		return nil, "", err
	}
	data, err := DataHash(dir, name)
	return meta, data, err
}

// dataFilesPresent reports a missing data file of a dataset before any job starts.
func dataFilesPresent(dir string, meta *dataset.UCIMeta) error {
	for _, f := range []string{meta.TrainFile, meta.TestFile} {
		if f == "" {
			continue
		}
		p := filepath.Join(dir, meta.Name, f)
		if _, err := os.Stat(p); err != nil {
			return &dataset.MissingDataError{Dataset: meta.Name, Path: p, Err: err}
		}
	}
	return nil
}

// List splits a comma-separated list (--datasets, --networks, --stages,
// --budgets), trimming spaces and dropping empty items.
func List(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func kappaText(k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf(" κ=%d", k)
}

// kappaTextOf is kappaText under the name network nw gives its κ
// (model.Traits.KappaLabel: " D=2" for the conj).
func kappaTextOf(nw protocol.Network, k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf(" %s=%d", nw.Traits().KappaLabel(), k)
}

// kappaPrefix labels a reason with its κ ("" for networks without κ).
func kappaPrefix(k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("κ=%d: ", k)
}

// Study is what a stage's Run function returns: each finished job's result
// (R), the datasets it had to skip and the options it ran with (O).
type Study[R, O any] struct {
	Results     []*R
	Skipped     []Skipped
	WallSeconds float64 // this invocation
	Datasets    int     // datasets the study was asked for
	Reused      int     // jobs whose results were already stored
	Options     O
}

// The studies of the four stages.
type (
	AccuracyStudy = Study[RunResult, AccuracyOptions]
	ReadoutStudy  = Study[ReadoutResult, ReadoutOptions]
	RetuneStudy   = Study[RetuneResult, RetuneOptions]
	BudgetStudy   = Study[BudgetResult, BudgetOptions]
)

// Provenance heads every summary: how, when and where it was made.
type Provenance struct {
	Command     string  `json:"command"`
	Date        string  `json:"date"`
	Machine     string  `json:"machine"`
	WallSeconds float64 `json:"wall_seconds"`
}

// newProvenance describes a summary of command written at now after a run
// of wall seconds on this machine.
func newProvenance(command string, now time.Time, wall float64) Provenance {
	return Provenance{Command: command, Date: now.UTC().Format("2006-01-02"), Machine: machine(), WallSeconds: wall}
}

// markdown is the summary's opening list items; reused counts what the run
// took from the store, in unit ("stored jobs" or "datasets").
func (p Provenance) markdown(reused int, unit string) string {
	return fmt.Sprintf("- command: `%s`\n- date: %s\n- machine: %s\n- wall time of this invocation: %s (%d %s reused)\n",
		p.Command, p.Date, p.Machine, (time.Duration(p.WallSeconds) * time.Second).String(), reused, unit)
}

// machine describes the computer a report was written on.
func machine() string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d logical CPUs, %s %s/%s", cpu, runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// unloadable tells, in a merge, a job that is not stored because its dataset
// cannot be loaded — a job a single run reports as skipped, with the same
// reason — from one that a shard has not run: it records the dataset as
// skipped (once) and returns true.
func unloadable(dir, name string, skipped *[]Skipped) bool {
	_, err := dataset.LoadUCI(dir, name)
	if err == nil {
		return false
	}
	if !slices.ContainsFunc(*skipped, func(s Skipped) bool { return s.Dataset == name }) {
		*skipped = append(*skipped, Skipped{Dataset: name, Reason: err.Error()})
	}
	return true
}

// reuse loads the job stored at rel with fingerprint fp and data hash data
// and, when it is there, appends it to *results and counts it in *reused.
func reuse[R any](st jobs.Store, rel, fp, data string, results *[]*R, reused *int) (bool, error) {
	r := new(R)
	ok, err := st.Load(rel, fp, data, r)
	if ok {
		*results = append(*results, r)
		*reused++
	}
	return ok, err
}
