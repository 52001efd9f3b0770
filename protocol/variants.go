package protocol

import (
	"context"
	"fmt"
	"slices"

	"github.com/hdlgen/hdlgen/internal/registry"
	"github.com/hdlgen/hdlgen/model"
)

// variant is one network variant of the studies: a network type of the model
// package and the options that make the variant.
type variant struct {
	name Network
	arch model.Arch
	// about says what sets the variant apart, for help texts ("" for a
	// network type's own variant).
	about string
	// options sets the variant's options on a configuration of its type.
	options func(c *model.Config)
}

// optionVariants are the variants beyond one per network type: the float
// RVFL with quantised inputs and with direct links, the two variants of the
// paper's footnote.
var optionVariants = []variant{
	{RVFLQuant, model.RVFL, "quantised inputs", func(c *model.Config) { c.QuantizedInputs = true }},
	{RVFLDirect, model.RVFL, "direct links", func(c *model.Config) { c.DirectLinks = true }},
}

// variants returns every variant in order: each network type of the model
// package (model.Archs), named after it, followed by its option variants.
// A network type added to the model package is a variant of the studies
// without a line here.
func variants() []variant {
	var out []variant
	for _, a := range model.Archs() {
		out = append(out, variant{name: Network(a), arch: a, options: func(*model.Config) {}})
		for _, v := range optionVariants {
			if v.arch == a {
				out = append(out, v)
			}
		}
	}
	return out
}

// lookup returns the variant named nw.
func lookup(nw Network) (variant, bool) {
	for _, v := range variants() {
		if v.name == nw {
			return v, true
		}
	}
	return variant{}, false
}

// Networks returns the names of every variant, in order.
func Networks() []Network {
	var out []Network
	for _, v := range variants() {
		out = append(out, v.name)
	}
	return out
}

// NetworksHelp lists the variants for a help text, with what sets the
// option variants apart: "intrvfl, rvfl, rvfl-qin (quantised inputs), … or rvfl8".
func NetworksHelp() string {
	var names []string
	for _, v := range variants() {
		if v.about != "" {
			names = append(names, fmt.Sprintf("%s (%s)", v.name, v.about))
		} else {
			names = append(names, string(v.name))
		}
	}
	return registry.Join(names)
}

// Arch returns the network type of the variant ("" for an unknown one).
func (nw Network) Arch() model.Arch {
	v, _ := lookup(nw)
	return v.arch
}

// Traits returns the traits of the variant's network type (none for an
// unknown one).
func (nw Network) Traits() model.Traits {
	t, _ := model.TraitsOf(nw.Arch())
	return t
}

// searchEach fills res.Correct for a variant whose search has no shortcut:
// every grid point (κ where the variant has it, N) is its own network drawn
// from seed, as training draws it, with its own hidden matrix; grid scores
// the point's λ. It is the search of a network type the protocol knows
// nothing more about (Search's specialised ones reuse hidden layers across
// N and κ, and give the same counts).
func searchEach(ctx context.Context, sp *Split, nw Network, g Grid, seed uint64, res *SearchResult,
	grid func(htr, hva []float64, cols int, prefixes []int) ([][]int, error), hidden func(func())) error {
	kappas := nw.Traits().Kappas(g.Kappas) // the grid's κ, or the type's own
	if len(kappas) == 0 {
		kappas = []int{0}
	}
	res.Correct = make([][][]int, len(kappas))
	for ki, kappa := range kappas {
		res.Correct[ki] = make([][]int, len(g.Ns))
		for ni, n := range g.Ns {
			if err := ctx.Err(); err != nil {
				return err
			}
			cfg := nw.Config(n, 1, kappa)
			cfg.Seed, cfg.Win, cfg.Select = seed, res.Win, res.Select
			var htr, hva []float64
			var cols int
			var err error
			hidden(func() {
				var net model.Network
				// chosen on the split's training rows with Select, drawn otherwise
				if net, err = model.NewFittedNetwork(sp.K, cfg, sp.XTrain, sp.YTrain, sp.L); err != nil {
					return
				}
				cols = net.Columns()
				htr, hva = net.HiddenMatrix(sp.XTrain, sp.MTrain), net.HiddenMatrix(sp.XVal, sp.MVal)
			})
			if err != nil {
				return fmt.Errorf("grid point N=%d κ=%d: %w", n, kappa, err)
			}
			c, err := grid(htr, hva, cols, []int{cols})
			if err != nil {
				return fmt.Errorf("grid point N=%d κ=%d: %w", n, kappa, err)
			}
			res.Correct[ki][ni] = slices.Clone(c[0])
		}
	}
	return nil
}
