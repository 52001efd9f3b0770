package protocol

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/registry"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/ridge"
)

// TestVariants: one variant per network type of the model package, named
// after it and followed by its option variants, and each variant's
// configuration.
func TestVariants(t *testing.T) {
	var want []Network
	for _, a := range model.Archs() {
		want = append(want, Network(a))
		if a == model.RVFL {
			want = append(want, RVFLQuant, RVFLDirect)
		}
	}
	if diff := cmp.Diff(want, Networks()); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	base := model.Config{N: 50, Lambda: 4, Regularizer: model.RegVariance, Threads: 1}
	with := func(f func(c *model.Config)) model.Config {
		c := base
		f(&c)
		return c
	}
	for _, tc := range []struct {
		nw       Network
		want     model.Config
		hasKappa bool
	}{
		{IntRVFL, with(func(c *model.Config) { c.Arch, c.Kappa = model.IntRVFL, 3 }), true},
		{RVFL, with(func(c *model.Config) { c.Arch = model.RVFL }), false},
		{RVFLQuant, with(func(c *model.Config) { c.Arch, c.QuantizedInputs = model.RVFL, true }), false},
		{RVFLDirect, with(func(c *model.Config) { c.Arch, c.DirectLinks = model.RVFL, true }), false},
		{RVFL8, with(func(c *model.Config) { c.Arch = model.RVFL8 }), false},
	} {
		if diff := cmp.Diff(tc.want, tc.nw.Config(50, 4, 3)); diff != "" {
			t.Errorf("%s: config (-want +got):\n%s", tc.nw, diff)
		}
		if got := tc.nw.HasKappa(); got != tc.hasKappa {
			t.Errorf("%s: HasKappa %v, want %v", tc.nw, got, tc.hasKappa)
		}
		if got, err := ParseNetwork(string(tc.nw)); err != nil || got != tc.nw {
			t.Errorf("ParseNetwork(%s) = %q, %v", tc.nw, got, err)
		}
	}
	var names []string
	for _, nw := range want {
		names = append(names, string(nw))
	}
	_, err := ParseNetwork("mlp")
	if want := `unknown network "mlp" (want ` + registry.Join(names) + `)`; err == nil || err.Error() != want {
		t.Errorf("ParseNetwork(mlp): %v, want %s", err, want)
	}
	help := NetworksHelp()
	for _, nw := range want {
		if !strings.Contains(help, string(nw)) {
			t.Errorf("NetworksHelp() = %q: no %s", help, nw)
		}
	}
	for _, about := range []string{"rvfl-qin (quantised inputs)", "rvfl-direct (direct links)"} {
		if !strings.Contains(help, about) {
			t.Errorf("NetworksHelp() = %q: no %q", help, about)
		}
	}
}

// TestSearchEachMatchesSearch: the search of a network type the protocol
// knows nothing about — every grid point its own network — gives every
// variant's counts of Search, which reuses hidden layers across N and κ.
func TestSearchEachMatchesSearch(t *testing.T) {
	u := syntheticUCI("each", 160, 5, 3, 0, 7, false)
	g := Grid{Ns: []int{4, 11, 20}, Lambdas: []float64{0.25, 4, 64}, Kappas: []int{1, 3, 9}}
	const seed = 5
	sp := NewSplit(u)
	solver := model.Solver{}.Ridge(model.RegVariance, 1)
	grid := func(htr, hva []float64, cols int, prefixes []int) ([][]int, error) {
		gr, err := solver.Grid(ridge.Data{H: htr, Rows: sp.MTrain, Cols: cols, Labels: sp.YTrain},
			ridge.Data{H: hva, Rows: sp.MVal, Cols: cols, Labels: sp.YVal}, sp.L, g.Lambdas, prefixes)
		if err != nil {
			return nil, err
		}
		return gr.Correct, nil
	}
	for _, nw := range Networks() {
		want, err := Search(context.Background(), u, nw, SearchOptions{Grid: g, Seed: seed, Regularizer: model.RegVariance})
		if err != nil {
			t.Fatalf("%s: %v", nw, err)
		}
		got := &SearchResult{}
		if err := searchEach(context.Background(), sp, nw, g, seed, got, grid, func(f func()) { f() }); err != nil {
			t.Fatalf("%s: %v", nw, err)
		}
		if len(got.Correct) == 0 || len(got.Correct[0]) != len(g.Ns) || len(got.Correct[0][0]) != len(g.Lambdas) {
			t.Fatalf("%s: counts of shape %d×…, want κ×%d×%d", nw, len(got.Correct), len(g.Ns), len(g.Lambdas))
		}
		if diff := cmp.Diff(want.Correct, got.Correct); diff != "" {
			t.Errorf("%s: counts (-Search +searchEach):\n%s", nw, diff)
		}
	}
}
