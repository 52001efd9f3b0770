package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/protocol"
)

// FormatVersion names the format of Result documents; it changes when a
// field changes meaning or disappears.
const FormatVersion = "hdlgen-tuning/1"

// Result is what `hdlgen search` and `hdlgen eval` report for a CSV file, as
// JSON: the data, the validation, the configuration (chosen by the search,
// or given to eval) and its accuracies. It holds no timings, so the same
// inputs give the same bytes.
type Result struct {
	Format     string         `json:"format"`  // FormatVersion
	Command    string         `json:"command"` // "search" or "eval"
	Data       DataInfo       `json:"data"`
	Test       *DataInfo      `json:"test,omitempty"`
	Validation ValidationInfo `json:"validation"`
	Search     *SearchInfo    `json:"search,omitempty"` // search only
	Config     Config         `json:"config"`
	// Validated is the configuration's accuracy on the validation splits.
	Validated Accuracy `json:"validation_accuracy"`
	// Tested is its accuracy on the test file (with a test file only).
	Tested *Accuracy `json:"test_accuracy,omitempty"`
	// Curve is a search's accuracy-versus-size curve: each scored N's best
	// grid point (search only).
	Curve []CurvePoint `json:"curve,omitempty"`
	// Extension is what a search scored beyond its grid (search --extend-n).
	Extension *ExtensionInfo `json:"extension,omitempty"`
	// Readout is the choice between the rounded and the GA-refined integer
	// readout, made on the validation splits (--ga).
	Readout *ReadoutChoice `json:"readout,omitempty"`
}

// ExtensionInfo describes the extension of a search beyond its grid.
type ExtensionInfo struct {
	MaxN     int    `json:"max_n"`
	Extended []int  `json:"extended,omitempty"` // the N scored beyond the grid
	Stopped  string `json:"stopped"`            // why it stopped
}

// DataInfo describes a data file.
type DataInfo struct {
	File       string   `json:"file"`
	SHA256     string   `json:"sha256,omitempty"` // of the file's bytes
	Rows       int      `json:"rows"`
	Features   int      `json:"features"`
	Classes    int      `json:"classes"`
	ClassNames []string `json:"class_names"`
	Label      string   `json:"label"` // name of the label column
}

// DescribeData describes d read from file, whose bytes are content (nil: no
// hash).
func DescribeData(file string, content []byte, d *dataset.Dataset) DataInfo {
	info := DataInfo{File: file, Rows: d.M(), Features: d.K(), Classes: d.L(), ClassNames: d.ClassNames, Label: d.LabelName}
	if content != nil {
		sum := sha256.Sum256(content)
		info.SHA256 = hex.EncodeToString(sum[:])
	}
	return info
}

// ValidationInfo describes the validation splits and the network seeds.
type ValidationInfo struct {
	Method    string   `json:"method"` // "4-fold" or "holdout 0.25"
	Folds     int      `json:"folds,omitempty"`
	Holdout   float64  `json:"holdout,omitempty"`
	SplitSeed uint64   `json:"split_seed"`
	Seeds     []uint64 `json:"seeds"` // the networks' seeds
}

// DescribeValidation describes v with the network seeds.
func DescribeValidation(v Validation, seeds []uint64) ValidationInfo {
	info := ValidationInfo{Method: v.Method(), Holdout: v.Holdout, SplitSeed: v.Seed, Seeds: seeds}
	if v.Holdout == 0 {
		info.Folds = v.Folds
	}
	return info
}

// SearchInfo describes a search: the grid and the totals at the chosen
// point.
type SearchInfo struct {
	Grid    string `json:"grid"`    // its name: paper, wide or small
	Points  int    `json:"points"`  // grid points scored
	Correct int    `json:"correct"` // correct validation predictions at the chosen point, all splits and seeds
	ValRows int    `json:"val_rows"`
}

// DescribeSearch describes the summed search res over the grid named grid.
func DescribeSearch(grid string, res *protocol.SearchResult) *SearchInfo {
	points := len(res.Grid.Ns) * len(res.Grid.Lambdas) * max(1, len(res.Grid.Kappas))
	return &SearchInfo{Grid: grid, Points: points, Correct: res.Best.Correct, ValRows: res.Best.ValRows}
}

// Config is a training configuration in the terms of `hdlgen train`'s flags.
type Config struct {
	Network         string  `json:"network"` // protocol network: intrvfl, rvfl, rvfl-qin, rvfl-direct, rvfl8
	Arch            string  `json:"arch"`    // model architecture: intrvfl, rvfl, rvfl8
	N               int     `json:"n"`
	Lambda          float64 `json:"lambda"`
	Kappa           int     `json:"kappa,omitempty"` // a network type with κ (model.Traits.Kappa)
	Regularizer     string  `json:"regularizer"`
	Bits            int     `json:"bits,omitempty"` // the rounded readout's width (model.Traits.ReadoutBits)
	DirectLinks     bool    `json:"direct_links,omitempty"`
	QuantizedInputs bool    `json:"quantized_inputs,omitempty"`
	// Win is the intRVFL's W_in source when generated ("lfsr"); absent for a stored W_in.
	Win string `json:"w_in,omitempty"`
	// Select is the candidates per unit of units chosen on the training rows
	// (`hdlgen train --select`); absent for drawn units.
	Select int `json:"select,omitempty"`
	// Solver of the ridge readout (absent: exact; `hdlgen train --solver`).
	model.Solver
}

// DescribeConfig describes cfg.
func DescribeConfig(cfg model.Config) Config {
	c := Config{Network: string(cfg.Arch), Arch: string(cfg.Arch), N: cfg.N, Lambda: cfg.Lambda,
		Regularizer: string(cfg.Regularizer), Bits: cfg.ReadoutBits, DirectLinks: cfg.DirectLinks, QuantizedInputs: cfg.QuantizedInputs,
		Select: cfg.Select, Solver: cfg.Solver}
	if c.Regularizer == "" {
		c.Regularizer = string(model.RegVariance)
	}
	if cfg.Win != model.WinStored {
		c.Win = cfg.Win.Flag()
	}
	if t, _ := model.TraitsOf(cfg.Arch); t.Kappa {
		c.Kappa = cfg.Kappa
	}
	switch {
	case cfg.DirectLinks:
		c.Network = string(protocol.RVFLDirect)
	case cfg.QuantizedInputs:
		c.Network = string(protocol.RVFLQuant)
	}
	return c
}

// Accuracy is an accuracy over validation splits (or a test file) and
// seeds.
type Accuracy struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"` // sample standard deviation over all values
	// PerSeed[s][i] is the accuracy on validation split i (or the test
	// file, i = 0) with the s-th seed.
	PerSeed [][]float64 `json:"per_seed"`
}

// StdErr is one standard error of a's mean: its standard deviation over
// all its values / √(the number of values), and that number; ok is false
// with fewer than 2 values (no spread measured). It is the build's default
// tolerance (buildflow) and the extension's stop rule (SearchMore).
func (a Accuracy) StdErr() (se float64, n int, ok bool) {
	for _, s := range a.PerSeed {
		n += len(s)
	}
	if n < 2 {
		return 0, n, false
	}
	return a.Std / math.Sqrt(float64(n)), n, true
}

// accuracyOf summarises per[seed][split].
func accuracyOf(per [][]float64) Accuracy {
	var all []float64
	for _, v := range per {
		all = append(all, v...)
	}
	return Accuracy{Mean: protocol.Mean(all), Std: protocol.StdDev(all), PerSeed: per}
}

// Marshal returns r as indented JSON with a final newline.
func (r *Result) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteFile writes r to path atomically.
func (r *Result) WriteFile(path string) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b, 0o644)
}

// Summary is r in one line of text.
func (r *Result) Summary() string {
	var b strings.Builder
	c := r.Config
	if c.Network == Linear {
		fmt.Fprintf(&b, "%s %s: λ=%g (ridge on the normalised features): validation accuracy %.4f ± %.4f (%s)", r.Data.File, c.Network, c.Lambda,
			r.Validated.Mean, r.Validated.Std, r.Validation.Method)
		if r.Tested != nil {
			fmt.Fprintf(&b, ", test accuracy %.4f (%s)", r.Tested.Mean, r.Test.File)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s %s: N=%d λ=%g", r.Data.File, c.Network, c.N, c.Lambda)
	if c.Kappa != 0 {
		fmt.Fprintf(&b, " %s=%d", protocol.Network(c.Network).Traits().KappaLabel(), c.Kappa)
	}
	if c.Select != 0 {
		fmt.Fprintf(&b, " select %d", c.Select)
	}
	fmt.Fprintf(&b, " (%s penalty", c.Regularizer)
	if !c.Solver.Exact() {
		fmt.Fprintf(&b, ", %s solver", c.Solver)
	}
	if c.Bits != 0 {
		fmt.Fprintf(&b, ", %d-bit readout", c.Bits)
	}
	v := r.Validation
	fmt.Fprintf(&b, "): validation accuracy %.4f ± %.4f (%s, %s)", r.Validated.Mean, r.Validated.Std, v.Method, seedCount(len(v.Seeds)))
	if r.Tested != nil {
		fmt.Fprintf(&b, ", test accuracy %.4f ± %.4f (%s, %s)", r.Tested.Mean, r.Tested.Std, r.Test.File, seedCount(len(v.Seeds)))
	}
	return b.String()
}

func seedCount(n int) string {
	if n == 1 {
		return "1 seed"
	}
	return fmt.Sprintf("%d seeds", n)
}
