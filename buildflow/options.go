package buildflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/internal/jobs"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/tune"
)

// Runner runs one hdlgen command (args without the program name), writing
// its results to stdout and its progress to stderr. Build may call it from
// several goroutines at once.
type Runner func(ctx context.Context, args []string, stdout, stderr io.Writer) error

// Objectives that choose P among the designs meeting the constraints.
const (
	OptimizeEnergy  = "energy"  // the least budgeted energy per classification (Options.BudgetOn)
	OptimizeLatency = "latency" // the shortest latency
	OptimizeArea    = "area"    // the fewest LUTs
)

// Objectives lists the objectives, the default first.
var Objectives = []string{OptimizeEnergy, OptimizeLatency, OptimizeArea}

// Readout choices.
const (
	ReadoutAuto    = "auto"    // rounded or GA, whichever validates better on the folds
	ReadoutRounded = "rounded" // the rounded readout, no GA
	ReadoutGA      = "ga"      // the GA-refined readout
)

// Readouts lists the readout choices, the default first.
var Readouts = []string{ReadoutAuto, ReadoutRounded, ReadoutGA}

// Defaults of Options.
const (
	DefaultVectors = 1000 // Verilator's test vectors
	DefaultExtendN = 3000 // the search extends N up to this
	DefaultWorkers = 2
)

// Options configure Run.
type Options struct {
	Data        string // the user's CSV file
	Source      []byte // its bytes, when the caller has read them (nil: read Data)
	LabelColumn string // its label column: name or 1-based number; "" is the last
	Dir         string // output directory
	// Name names the design (its top module is <name>_top after
	// sanitising) and the split files; "" is the data file's base name.
	Name  string
	Force bool // take over a non-empty folder that is not a build folder
	Bits  int  // readout bits (default 5)
	// Parallel fixes P; 0 lets Objective choose it among the candidates
	// that meet the constraints.
	Parallel  int
	Objective string         // OptimizeEnergy (default), OptimizeLatency or OptimizeArea
	BudgetOn  power.Budgeted // the energy BudgetJ and the energy objective mean (default dynamic)
	LatencyS  float64        // constraint: latency ≤ LatencyS seconds (0: none)
	MaxLUTs   int            // constraint: LUTs (analytic estimate) ≤ MaxLUTs (0: none); also bounds the extension of N
	BudgetJ   float64        // constraint: budgeted energy per classification ≤ BudgetJ (0: none)
	// Tolerance is the validation accuracy, in points, a smaller or
	// cheaper N may lose against the best (0: one standard error of the
	// best's validation accuracy).
	Tolerance float64
	Holdout   float64 // share of each class held out (default 0.25)
	SplitSeed uint64  // seed of the held-out split
	Seed      uint64  // seed of the network
	Win       string  // W_in source: "" or "stored" (a ROM), "lfsr" (generated on chip)
	// Select, when > 1, has the members that can choose their units on the
	// training rows (model.Traits.Selects: the conj) choose them among
	// Select candidates each (`hdlgen train --select`); 0 draws them.
	Select int
	// Family restricts the networks the build chooses among: a comma list
	// of FamilyMembers ("" every member, the first only from CoarseGridRows
	// training rows or with N, λ, κ given).
	Family string
	Grid   string // search grid: small, paper, wide, coarse or large (default: DefaultGrid of the training rows)
	Folds  int    // search: k of k-fold on the training share (default 4)
	// N, Lambda and Kappa, all given, skip the search: eval validates them.
	N      int
	Lambda float64
	Kappa  int
	// ExtendN is the largest N the search may extend to (0: DefaultExtendN;
	// negative: no extension).
	ExtendN int
	// ExtendAll, with a given ExtendN, extends while the best N is the
	// largest scored; without it (the default) the extension also stops once
	// the largest N's validation accuracy is within one standard error of a
	// smaller N's (search --extend-se), the N the design step accepts anyway.
	ExtendAll bool
	Readout   string // ReadoutAuto (default), ReadoutRounded or ReadoutGA
	GASeed    uint64 // the GA's seed (quantize --seed)
	Vectors   int    // test vectors of the design, all checked by Verilator (default 1000)
	// IcarusVectors is the vectors Icarus checks (0: IcarusVectors' count).
	IcarusVectors int
	VerifySteps   string // verify only these steps ("" all: model, lint, verilator, icarus)
	Workers       int    // parts of the search scored at once (default 2)
	Program       string // the program name in the report's commands (default hdlgen)
	Command       string // the build's own command line (for the folder's lock)
	Run           Runner
	Progress      io.Writer // step lines; nil discards
}

func (o *Options) defaults() {
	if o.Bits == 0 {
		o.Bits = 5
	}
	if o.Objective == "" {
		o.Objective = OptimizeEnergy
	}
	if o.BudgetOn == "" {
		o.BudgetOn = power.BudgetDynamic
	}
	if o.Holdout == 0 {
		o.Holdout = 0.25
	}
	if o.Folds == 0 {
		o.Folds = tune.DefaultFolds
	}
	if o.ExtendN == 0 {
		o.ExtendN = DefaultExtendN
	}
	if o.Readout == "" {
		o.Readout = ReadoutAuto
	}
	if o.Vectors == 0 {
		o.Vectors = DefaultVectors
	}
	if o.Workers == 0 {
		o.Workers = DefaultWorkers
	}
	if o.Program == "" {
		o.Program = "hdlgen"
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Name == "" {
		o.Name = DefaultName(o.Data)
	}
}

// OptionError is an error in the options (a usage error of the command).
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

func optionErrorf(format string, args ...any) error {
	return &OptionError{fmt.Errorf(format, args...)}
}

// Check returns an *OptionError for options that cannot work, before any
// work: the output folder's path, the name, a partial N/λ/κ, the objective
// and readout choices.
func (o *Options) Check() error {
	o.defaults()
	if err := CheckDir(o.Dir); err != nil {
		return err
	}
	if err := CheckName(o.Name); err != nil {
		return err
	}
	given := 0
	for _, set := range []bool{o.N != 0, o.Lambda != 0, o.Kappa != 0} {
		if set {
			given++
		}
	}
	switch {
	case given != 0 && given != 3:
		return optionErrorf("--n, --lambda and --kappa skip the search together: give all three or none")
	case given == 3 && (o.N < 1 || !(o.Lambda > 0) || o.Kappa < 1):
		return optionErrorf("--n %d --lambda %g --kappa %d: want N ≥ 1, λ > 0, κ ≥ 1", o.N, o.Lambda, o.Kappa)
	case given == 3 && o.Parallel > o.N:
		return optionErrorf("--parallel %d: the network has N=%d neurons, so P is at most %d", o.Parallel, o.N, o.N)
	case !slices.Contains(Objectives, o.Objective):
		return optionErrorf("--optimize %q: want %s", o.Objective, strings.Join(Objectives, ", "))
	case !slices.Contains(Readouts, o.Readout):
		return optionErrorf("--readout %q: want %s", o.Readout, strings.Join(Readouts, ", "))
	case o.Parallel < 0 || o.Vectors < 1 || o.IcarusVectors < 0 || o.Workers < 1:
		return optionErrorf("--parallel %d, --vectors %d, --icarus-vectors %d, --workers %d: want P ≥ 0, vectors ≥ 1, Icarus vectors ≥ 0, workers ≥ 1",
			o.Parallel, o.Vectors, o.IcarusVectors, o.Workers)
	case o.Tolerance < 0 || o.Tolerance >= 100:
		return optionErrorf("--tolerance %g: want accuracy points in [0, 100) (0: one standard error)", o.Tolerance)
	case o.IcarusVectors > o.Vectors:
		return optionErrorf("--icarus-vectors %d: at most --vectors (%d)", o.IcarusVectors, o.Vectors)
	case o.Select != 0 && (o.Select < 2 || o.Select > model.MaxSelect):
		return optionErrorf("--select %d: want 2…%d candidates per unit, or 0 to draw the units", o.Select, model.MaxSelect)
	}
	if _, err := power.ParseBudgeted(string(o.BudgetOn)); err != nil {
		return &OptionError{err}
	}
	_, err := o.members(0)
	return err
}

// searchSkipped reports whether N, λ and κ were given.
func (o *Options) searchSkipped() bool { return o.N != 0 }

// badPathChars are the characters make (and the shell lines of the design's
// Makefile) cannot take in the path of a design folder: verify refuses them
// at its step, so build refuses them before any work.
const badPathChars = " \t\n\"'$\\#%*?[]"

// CheckDir refuses an output folder whose absolute path holds a character
// make cannot work with.
func CheckDir(dir string) error {
	if dir == "" {
		return optionErrorf("-o: empty path")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &OptionError{fmt.Errorf("-o %s: %w", dir, err)}
	}
	if i := strings.IndexAny(abs, badPathChars); i >= 0 {
		return optionErrorf("-o %s: its path %q holds %q, which make (the verify and synth steps) cannot work with: choose a folder without spaces or any of %q",
			dir, abs, abs[i:i+1], badPathChars)
	}
	return nil
}

// DefaultName is the design name of a data file: its base name without the
// extension (example:iris gives iris).
func DefaultName(data string) string {
	base := data
	if i := strings.LastIndexAny(base, `/\:`); i >= 0 {
		base = base[i+1:]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// CheckName refuses a name that cannot be a file name (the split files are
// named after it).
func CheckName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`+"\x00") {
		return optionErrorf("--name %q: want a plain file name (no path), e.g. the data's name", name)
	}
	return nil
}

// checkTakeOver refuses a folder that holds something other than a build
// (DIR/.build) or a build's lock, unless force.
func checkTakeOver(dir string, force bool) error {
	all, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("buildflow: -o %s: %w", dir, err)
	}
	var entries []os.DirEntry
	for _, e := range all {
		if !strings.HasPrefix(e.Name(), jobs.LockFile) { // a build's lock (it may be running)
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(dir, stampDir)); err == nil && fi.IsDir() {
		return nil
	}
	if force {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) > 5 {
		names = append(names[:5], "…")
	}
	return optionErrorf("-o %s is not empty (%s) and was not written by hdlgen build: its files would be replaced; choose another folder or add --force",
		dir, strings.Join(names, ", "))
}
