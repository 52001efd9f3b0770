package model

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Network is the hidden layer of one network type: everything in which the
// intRVFL, the float RVFL and the 8-bit RVFL differ at the model layer. A
// Model holds exactly one, so its architecture is its Network's and cannot
// disagree with it.
type Network interface {
	// Arch names the network type (model.json's "arch" and section name).
	Arch() Arch
	// Dims returns K (features) and N (hidden neurons).
	Dims() (k, n int)
	// Columns is the number of readout inputs C (N, or K + N with direct links).
	Columns() int
	// FeaturesTo writes the C float readout inputs of one normalised row.
	FeaturesTo(dst, xnorm []float64)
	// HiddenMatrix returns the M×C float readout-input matrix of M normalised
	// rows (row-major), the matrix the ridge readout is solved on.
	HiddenMatrix(xnorm []float64, m int) []float64
	// Readout says which integer readout the network takes.
	Readout() ReadoutRule
	// describe is the network's part of Model.String (e.g. " κ=3"), or "".
	describe() string
	// section returns the network's model.json section, encodable by encoding/json.
	section() any
}

// IntegerNetwork is a network with an integer datapath, the form the RTL
// implements: integer inputs (what the hardware receives for a row) and
// integer hidden activations.
type IntegerNetwork interface {
	Network
	// InputsTo writes the K hardware input elements of one normalised row
	// (intRVFL levels in [0, N], rvfl8 8-bit codes).
	InputsTo(dst []int, xnorm []float64)
	// HiddenIntsTo writes the N integer hidden activations of one row of inputs.
	HiddenIntsTo(dst []int, inputs []int)
	// HiddenMax is the largest |h| the score bound assumes (κ, or 255).
	HiddenMax() int64
	// HiddenScale turns a HiddenMatrix value into its integer h (1, or 2^8).
	HiddenScale() float64
}

// ReadoutRule is what integer readout a network type takes.
type ReadoutRule struct {
	Allowed  bool // an integer readout may be present
	Required bool // an integer readout must be present
	Bits     int  // the readout's fixed width, or 0 for any width
}

// String describes the rule: "float readout only", "a B-bit readout" or
// "an integer readout of any width".
func (r ReadoutRule) String() string {
	switch {
	case !r.Allowed:
		return "float readout only"
	case r.Bits != 0:
		article := "a"
		if b := fmt.Sprint(r.Bits); b[0] == '8' || b == "11" || b == "18" {
			article = "an" // "an 8-bit", "an 11-bit"
		}
		return fmt.Sprintf("always %s %d-bit readout", article, r.Bits)
	default:
		return "an integer readout of any width"
	}
}

// Traits are what a network type takes, known without a value of it: the
// command line, the protocol's variants, the campaign, the random models and
// the power model ask them instead of naming architectures.
type Traits struct {
	// Kappa: κ is a hyperparameter (Config.Kappa, model.json's κ).
	Kappa bool
	// KappaName, when set, is what the type's κ hyperparameter is ("D", the
	// conj's terms per unit), for reports; "" is the clip bound κ.
	KappaName string
	// KappaGrid, when set, are the κ a search of the type tries instead of
	// its grid's (the conj's depths).
	KappaGrid []int
	// KappaMax, when set, is the largest κ the type takes (the conj's
	// ConjMaxDepth); 0 means MaxKappa.
	KappaMax int
	// Readout is the integer readout the type takes (Network.Readout of
	// every value of it).
	Readout ReadoutRule
	// GeneratedWin: a W_in from the on-chip generator (Config.Win) is an option.
	GeneratedWin bool
	// InputOptions: direct links and quantised inputs (Config.DirectLinks,
	// Config.QuantizedInputs) are options.
	InputOptions bool
	// Selects: the type can choose its hidden units on the training rows
	// among Config.Select candidates per unit (the conj, §3c.2).
	Selects bool
	// MinHidden, when > 1, is the smallest N the type takes (the intrvfl2:
	// one neuron per layer).
	MinHidden int
	// Baseline: the paper's conventional RVFL in fixed point (multipliers
	// and a sigmoid table in the hidden layer), kept as the reference the
	// multiplier-free networks are measured against; not a member of
	// `hdlgen build`'s family.
	Baseline bool
}

// LargestKappa is the largest κ the type takes: KappaMax, or MaxKappa.
func (t Traits) LargestKappa() int {
	if t.KappaMax != 0 {
		return t.KappaMax
	}
	return MaxKappa
}

// KappaLabel is how reports name the type's κ: KappaName, or "κ".
func (t Traits) KappaLabel() string {
	if t.KappaName != "" {
		return t.KappaName
	}
	return "κ"
}

// Kappas are the κ a search of the type tries on grid kappas: KappaGrid when
// the type has its own, kappas otherwise, none when κ is no hyperparameter.
func (t Traits) Kappas(kappas []int) []int {
	switch {
	case !t.Kappa:
		return nil
	case t.KappaGrid != nil:
		return t.KappaGrid
	}
	return kappas
}

// ReadoutBits reports whether a readout width (--bits) is a choice of the
// type: it takes an integer readout of any width.
func (t Traits) ReadoutBits() bool { return t.Readout.Allowed && t.Readout.Bits == 0 }

// netType is one network type's entry points that need no value of it yet:
// drawing its hidden layer for training and reading its model.json section.
type netType struct {
	arch   Arch
	traits Traits
	// check validates the type-specific parts of a training configuration.
	check func(c *Config) error
	// build draws the hidden layer for K features from the configuration.
	build func(k int, c Config) Network
	// fit, for a type whose traits have Selects, builds the hidden layer of
	// a configuration with Config.Select > 1 from the normalised training
	// rows xnorm (M×K) and their labels y in [0, l).
	fit func(k int, c Config, xnorm []float64, y []int, l int) Network
	// decode reads and validates the type's model.json section (an object
	// node of the strict reader, at field path string(arch)) for K features
	// and N neurons.
	decode func(d *decoder, sec *node, k, n int) (Network, error)
	// diff describes the first differences between two hidden layers of the
	// type and one shape (HiddenDiffs), or is nil: HiddenDiffs then compares
	// their model.json sections.
	diff func(a, b Network, names [2]string, note string) []string
}

// HiddenDiffs describes how hidden layers a and b (of one architecture and
// shape, named names[0] and names[1] in the messages) differ: the first
// differing element of each of their arrays, with note (e.g. their seeds)
// after a drawn weight's difference. It returns nil when they are equal.
func HiddenDiffs(a, b Network, names [2]string, note string) []string {
	if a.Arch() != b.Arch() {
		return []string{fmt.Sprintf("architecture: %s %s, %s %s", names[0], a.Arch(), names[1], b.Arch())}
	}
	t := typeOf(a.Arch())
	if t != nil && t.diff != nil {
		return t.diff(a, b, names, note)
	}
	ja, errA := json.Marshal(a.section())
	jb, errB := json.Marshal(b.section())
	if errA != nil || errB != nil || !bytes.Equal(ja, jb) {
		return []string{fmt.Sprintf("the %s hidden layers (model.json section %q) differ%s", a.Arch(), a.Arch(), note)}
	}
	return nil
}

// firstDiff returns the first index where a and b differ, or −1.
func firstDiff[T comparable](a, b []T) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
