package protocol

import (
	"fmt"

	"github.com/hdlgen/hdlgen/internal/registry"
	"github.com/hdlgen/hdlgen/model"
)

// Network names a network variant of the studies: a network type of the
// model package (its name) or one of its option variants (variants.go).
type Network string

// The variants the studies name. The three RVFL variants are the paper's
// baseline and the two variants of its footnote. Every other network type of
// the model package is a variant too, under its own name.
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
	if v, ok := lookup(Network(s)); ok {
		return v.name, nil
	}
	var names []string
	for _, nw := range Networks() {
		names = append(names, string(nw))
	}
	return "", fmt.Errorf("unknown network %q (want %s)", s, registry.Join(names))
}

// Config returns the training configuration of the variant for hyperparameters
// (n, λ, κ) with the authors' variance regulariser; κ is kept where the
// variant's network type has it.
func (nw Network) Config(n int, lambda float64, kappa int) model.Config {
	v, ok := lookup(nw)
	if !ok {
		panic("protocol: unknown network " + string(nw))
	}
	c := model.Config{Arch: v.arch, N: n, Lambda: lambda, Regularizer: model.RegVariance, Threads: 1}
	if nw.HasKappa() {
		c.Kappa = kappa
	}
	v.options(&c)
	return c
}

// HasKappa reports whether κ is a hyperparameter of the variant.
func (nw Network) HasKappa() bool { return nw.Traits().Kappa }
