package model

import (
	"context"
	"fmt"
	"math"

	"github.com/hdlgen/hdlgen/quant"
)

// Config holds the hyperparameters of one training run.
type Config struct {
	Arch        Arch
	N           int         // hidden neurons
	Kappa       int         // intRVFL clip threshold
	Lambda      float64     // ridge regularisation
	Regularizer Regularizer // "" means RegVariance
	// Solver is how the ridge system is solved (zero value: exact).
	Solver Solver
	Seed   uint64
	// DirectLinks adds input→output links to the float RVFL.
	DirectLinks bool
	// QuantizedInputs feeds the float RVFL the intRVFL's N input levels.
	QuantizedInputs bool
	// ReadoutBits, when > 0, stores a rounded integer readout of that width with an
	// intRVFL (the rvfl8 readout is always 8 bits).
	ReadoutBits int
	// Threads bounds the parallelism of the linear algebra (0 means 1).
	Threads int
	// Win is the intRVFL's W_in source (zero value: stored, drawn from the
	// PCG stream; WinPRBS31: the on-chip generator's rows).
	Win WinGen
	// Select, when M > 1, has a type whose traits have Selects choose its
	// hidden units on the training rows: it draws M candidates per unit and
	// keeps the most class-dependent (docs/semantics.md §3c.2). 0 or 1: the
	// units are drawn from the seed alone.
	Select int
}

// Data is a labelled training set in memory.
type Data struct {
	Name         string
	X            []float64 // M×K raw features, row-major
	Y            []int     // M labels in [0, L)
	ClassNames   []string  // L names
	FeatureNames []string  // K names, or nil
	LabelName    string    // name of the label column, or ""
}

// K returns the number of features of d.
func (d Data) K() int {
	if len(d.Y) == 0 {
		return 0
	}
	return len(d.X) / len(d.Y)
}

func (c *Config) check() error {
	t := typeOf(c.Arch)
	if t == nil {
		_, err := ParseArch(string(c.Arch))
		return err
	}
	if c.N < 1 || c.N > MaxHidden {
		return fmt.Errorf("hidden neurons N=%d outside [1, %d]", c.N, MaxHidden)
	}
	if err := t.check(c); err != nil {
		return err
	}
	if !(c.Lambda > 0) || math.IsInf(c.Lambda, 0) {
		return fmt.Errorf("λ=%v, want a finite positive value", c.Lambda)
	}
	if c.Regularizer == "" {
		c.Regularizer = RegVariance
	}
	if _, err := ParseRegularizer(string(c.Regularizer)); err != nil {
		return err
	}
	if err := c.Solver.Check(); err != nil {
		return err
	}
	if c.Win != WinStored && c.Win != WinPRBS31 {
		return fmt.Errorf("unknown W_in source %q (want %q or %q)", c.Win, WinStored, WinPRBS31)
	}
	if c.Win != WinStored && !t.traits.GeneratedWin {
		return fmt.Errorf("a generated W_in (%s) is an option of the %s only, not %s", c.Win,
			Alternatives(ArchsWith(func(t Traits) bool { return t.GeneratedWin })), c.Arch)
	}
	if !t.traits.InputOptions && (c.DirectLinks || c.QuantizedInputs) {
		return fmt.Errorf("direct links and quantised inputs are options of the %s only, not %s",
			Alternatives(ArchsWith(func(t Traits) bool { return t.InputOptions })), c.Arch)
	}
	if c.Select < 0 || c.Select > MaxSelect {
		return fmt.Errorf("select M=%d outside [0, %d]", c.Select, MaxSelect)
	}
	if c.Select > 1 && !t.traits.Selects {
		return fmt.Errorf("choosing the hidden units on the training rows (select) is an option of the %s only, not %s",
			Alternatives(ArchsWith(func(t Traits) bool { return t.Selects })), c.Arch)
	}
	if c.ReadoutBits != 0 && (c.ReadoutBits < quant.MinBits || c.ReadoutBits > quant.MaxBits) {
		return fmt.Errorf("readout bits %d outside [%d, %d]", c.ReadoutBits, quant.MinBits, quant.MaxBits)
	}
	return nil
}

// Train fits the min-max normaliser on d, normalises it and trains a network.
// It returns ctx's error when ctx is cancelled during training.
func Train(ctx context.Context, d Data, cfg Config) (*Model, error) {
	if len(d.Y) == 0 {
		return nil, fmt.Errorf("train: no rows")
	}
	if len(d.X)%len(d.Y) != 0 {
		return nil, fmt.Errorf("train: %d values for %d rows", len(d.X), len(d.Y))
	}
	if k := d.K(); k > MaxFeatures {
		return nil, fmt.Errorf("train: %d features, model.json holds at most %d", k, MaxFeatures)
	}
	norm := FitNormalizer(d.X, len(d.Y), d.K())
	return TrainNormalized(ctx, d, norm.Apply(d.X, len(d.Y)), norm, cfg)
}

// hiddenChunk is the number of rows whose hidden activations are computed
// between two checks of the context.
const hiddenChunk = 1024

// TrainNormalized trains on already normalised rows xnorm (M×K) and records norm
// as the model's normaliser. It returns ctx's error when ctx is cancelled.
func TrainNormalized(ctx context.Context, d Data, xnorm []float64, norm Normalizer, cfg Config) (*Model, error) {
	m, k, l := len(d.Y), d.K(), len(d.ClassNames)
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if k < 1 || k > MaxFeatures || len(xnorm) != m*k || norm.Features() != k {
		return nil, fmt.Errorf("train: %d normalised values, %d-feature normaliser, for %d rows of %d features", len(xnorm), norm.Features(), m, k)
	}
	if l < 2 || l > MaxClasses {
		return nil, fmt.Errorf("train: %d classes outside [2, %d]", l, MaxClasses)
	}
	for r, y := range d.Y {
		if y < 0 || y >= l {
			return nil, fmt.Errorf("train: row %d: label %d outside [0, %d)", r, y, l)
		}
	}
	mod := &Model{Name: d.Name, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames,
		Seed: cfg.Seed, Norm: norm,
		Training: TrainingInfo{Lambda: cfg.Lambda, Regularizer: cfg.Regularizer, Rows: m, Data: d.Name, LabelName: d.LabelName}}
	mod.Net = hiddenLayer(k, cfg, xnorm, d.Y, l) // cfg was checked above
	if cfg.Select > 1 {
		mod.Training.Select = cfg.Select
	}
	if rule := mod.Net.Readout(); cfg.ReadoutBits != 0 && (!rule.Allowed || rule.Bits != 0) {
		return nil, fmt.Errorf("train: --bits applies to the %s only, not %s (%s)", Alternatives(ArchsWith(Traits.ReadoutBits)), cfg.Arch, rule)
	}
	// The hidden matrix row block by row block (each row's values do not
	// depend on the blocking), checking ctx in between.
	c := mod.Columns()
	h := make([]float64, 0, m*c)
	for r := 0; r < m; r += hiddenChunk {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		rows := min(hiddenChunk, m-r)
		h = append(h, mod.Net.HiddenMatrix(xnorm[r*k:(r+rows)*k], rows)...)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	w, info, err := SolveReadout(h, m, c, d.Y, l, cfg.Lambda, cfg.Regularizer, cfg.Solver, cfg.Threads)
	if err != nil {
		return nil, fmt.Errorf("train %s N=%d λ=%g: %w", cfg.Arch, cfg.N, cfg.Lambda, err)
	}
	mod.Wout = w
	mod.Training.Jitter = info.Jitter
	mod.Training.Solver = cfg.Solver.Resolved(c)
	mod.Training.PinvDropped = info.Dropped
	bits := cfg.ReadoutBits
	if rule := mod.Net.Readout(); rule.Bits != 0 {
		bits = rule.Bits
	}
	if bits > 0 {
		r, err := quant.QuantizeBits(w, l, c, bits)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		mod.Readout = ReadoutFromQuant(r)
	}
	return mod, nil
}

// ReadoutFromQuant converts a quant.Readout into the model's integer readout.
func ReadoutFromQuant(r quant.Readout) *IntReadout {
	return &IntReadout{Bits: r.Bits, Bound: r.Bound, Scale: r.Scale, Method: r.Method,
		Q: append([]int32(nil), r.Weights...)}
}

// QuantReadout converts the model's integer readout into a quant.Readout.
func (m *Model) QuantReadout() quant.Readout {
	r := m.Readout
	return quant.Readout{Classes: m.L(), Neurons: m.Columns(), Bound: r.Bound, Bits: r.Bits,
		Scale: r.Scale, Weights: append([]int32(nil), r.Q...), Method: r.Method}
}

// NewNetwork draws the hidden layer of cfg.Arch for k features from cfg (N,
// κ, seed and the float RVFL's options), as training does before it solves
// the readout.
func NewNetwork(k int, cfg Config) (Network, error) {
	if err := checkNetwork(k, &cfg); err != nil {
		return nil, err
	}
	return typeOf(cfg.Arch).build(k, cfg), nil
}

// checkNetwork checks K and the configuration of a hidden layer.
func checkNetwork(k int, cfg *Config) error {
	if k < 1 || k > MaxFeatures {
		return fmt.Errorf("model: %d features outside [1, %d]", k, MaxFeatures)
	}
	if err := cfg.check(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	return nil
}

// NewFittedNetwork is NewNetwork for a configuration whose hidden layer may
// depend on the training rows (Config.Select > 1): the normalised rows xnorm
// (M×K) with labels y in [0, l), as training builds it. Without Select it
// draws the layer from the seed alone, as NewNetwork does.
func NewFittedNetwork(k int, cfg Config, xnorm []float64, y []int, l int) (Network, error) {
	if err := checkNetwork(k, &cfg); err != nil {
		return nil, err
	}
	if len(y) == 0 || len(xnorm) != len(y)*k {
		return nil, fmt.Errorf("model: %d normalised values for %d rows of %d features", len(xnorm), len(y), k)
	}
	for r, c := range y {
		if c < 0 || c >= l {
			return nil, fmt.Errorf("model: row %d: label %d outside [0, %d)", r, c, l)
		}
	}
	return hiddenLayer(k, cfg, xnorm, y, l), nil
}

// hiddenLayer is the hidden layer of a checked configuration: chosen on the
// training rows with Select > 1, drawn from the seed otherwise.
func hiddenLayer(k int, cfg Config, xnorm []float64, y []int, l int) Network {
	t := typeOf(cfg.Arch)
	if cfg.Select > 1 {
		return t.fit(k, cfg, xnorm, y, l)
	}
	return t.build(k, cfg)
}
