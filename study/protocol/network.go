package protocol

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// Network names a network variant of the studies.
type Network string

// The variants. The three RVFL variants are the paper's baseline and the two
// variants of its footnote.
const (
	IntRVFL    Network = "intrvfl"     // density-encoded intRVFL (float readout)
	RVFL       Network = "rvfl"        // conventional sigmoid RVFL
	RVFLQuant  Network = "rvfl-qin"    // RVFL whose inputs are quantised to N levels
	RVFLDirect Network = "rvfl-direct" // RVFL with direct input→output links
	RVFL8      Network = "rvfl8"       // 8-bit fixed-point RVFL (hardware baseline)
)

// AccuracyNetworks are the variants of the accuracy study (Fig. 5 and footnote).
var AccuracyNetworks = []Network{IntRVFL, RVFL, RVFLQuant, RVFLDirect}

// ParseNetwork validates a network name.
func ParseNetwork(s string) (Network, error) {
	switch n := Network(s); n {
	case IntRVFL, RVFL, RVFLQuant, RVFLDirect, RVFL8:
		return n, nil
	}
	return "", fmt.Errorf("unknown network %q (want %s, %s, %s, %s or %s)", s, IntRVFL, RVFL, RVFLQuant, RVFLDirect, RVFL8)
}

// Config returns the training configuration of the variant for hyperparameters
// (n, λ, κ) with the authors' variance regulariser.
func (nw Network) Config(n int, lambda float64, kappa int) model.Config {
	c := model.Config{N: n, Lambda: lambda, Regularizer: model.RegVariance, Threads: 1}
	switch nw {
	case IntRVFL:
		c.Arch, c.Kappa = model.IntRVFL, kappa
	case RVFL:
		c.Arch = model.RVFL
	case RVFLQuant:
		c.Arch, c.QuantizedInputs = model.RVFL, true
	case RVFLDirect:
		c.Arch, c.DirectLinks = model.RVFL, true
	case RVFL8:
		c.Arch = model.RVFL8
	default:
		panic("protocol: unknown network " + string(nw))
	}
	return c
}

// HasKappa reports whether κ is a hyperparameter of the variant.
func (nw Network) HasKappa() bool { return nw == IntRVFL }
