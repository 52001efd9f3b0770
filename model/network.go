package model

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

// netType is one network type's entry points that need no value of it yet:
// drawing its hidden layer for training and reading its model.json section.
type netType struct {
	arch Arch
	// check validates the type-specific parts of a training configuration.
	check func(c *Config) error
	// build draws the hidden layer for K features from the configuration.
	build func(k int, c Config) Network
	// decode reads and validates the type's model.json section (an object
	// node of the strict reader, at field path string(arch)) for K features
	// and N neurons.
	decode func(d *decoder, sec *node, k, n int) (Network, error)
}
