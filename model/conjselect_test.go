package model

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConjSelectKeepsClassDependentUnits builds data whose class is the
// first feature's half and checks that the chosen layer keeps the units
// that test that feature more often than the drawn layer has them, keeps
// the candidates' terms in candidate order with the constant unit last,
// and chooses the same layer twice.
func TestConjSelectKeepsClassDependentUnits(t *testing.T) {
	const k, rows = 6, 400
	x := make([]float64, rows*k)
	y := make([]int, rows)
	state := uint64(7)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	for r := range y {
		for i := 0; i < k; i++ {
			x[r*k+i] = next()
		}
		if x[r*k] >= 0.5 {
			y[r] = 1
		}
	}
	cfg := Config{Arch: Conj, N: 41, Kappa: 1, Lambda: 1, Seed: 3, Select: 4}
	net, err := NewFittedNetwork(k, cfg, x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	chosen := net.(*ConjNet)
	drawn := NewConjNet(k, cfg.N, 1, cfg.Seed)
	onFirst := func(c *ConjNet) int {
		n := 0
		for j := 0; j < c.N-1; j++ {
			if c.Feature[j] == 0 {
				n++
			}
		}
		return n
	}
	if got, base := onFirst(chosen), onFirst(drawn); got < 2*base || got < 10 {
		t.Errorf("%d of the chosen units test the class's feature, %d of the drawn ones: want many more", got, base)
	}
	if j := chosen.N - 1; chosen.Threshold[j] != 0 || chosen.Negate[j] {
		t.Errorf("the last chosen unit is not the constant unit: t=%d negate=%v", chosen.Threshold[j], chosen.Negate[j])
	}
	// Every chosen unit is a candidate, in the candidates' order.
	cands := NewConjNet(k, (cfg.N-1)*cfg.Select+1, 1, cfg.Seed)
	at := 0
	for j := 0; j < chosen.N-1; j++ {
		for at < cands.N-1 && (cands.Feature[at] != chosen.Feature[j] || cands.Threshold[at] != chosen.Threshold[j] || cands.Negate[at] != chosen.Negate[j]) {
			at++
		}
		if at == cands.N-1 {
			t.Fatalf("chosen unit %d is no later candidate", j)
		}
		at++
	}
	again, err := NewFittedNetwork(k, cfg, x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(net, again); diff != "" {
		t.Errorf("a second choice differs:\n%s", diff)
	}
}

// TestConjSelectTrainsAndRecords checks that training with Select stores
// the chosen layer and the option in model.json (which round-trips), that
// the model evaluates as its stored terms say, and the option's errors.
func TestConjSelectTrainsAndRecords(t *testing.T) {
	d := blobs(120, 5, 3, 1)
	m, err := Train(context.Background(), d, Config{Arch: Conj, N: 30, Kappa: 2, Lambda: 1, Seed: 2, Select: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m.Training.Select != 3 {
		t.Errorf("training info select %d, want 3", m.Training.Select)
	}
	norm := m.Norm.Apply(d.X, len(d.Y))
	want, err := NewFittedNetwork(d.K(), Config{Arch: Conj, N: 30, Kappa: 2, Lambda: 1, Seed: 2, Select: 3}, norm, d.Y, 3)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, m.Net); diff != "" {
		t.Errorf("the trained layer is not NewFittedNetwork's:\n%s", diff)
	}
	b := checkRoundTrip(t, m)
	if !strings.Contains(string(b), `"select": 3`) {
		t.Errorf("model.json has no select field")
	}
	checkFieldErrors(t, string(b), []fieldEdit{
		{"select one", `"select": 3`, `"select": 1`, "field training.select: 1 outside [2, 64]"},
		{"select large", `"select": 3`, `"select": 65`, "field training.select: 65 outside [2, 64]"},
	})
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Arch: IntRVFL, N: 30, Kappa: 3, Lambda: 1, Select: 4}, "option of the conj only"},
		{Config{Arch: Conj, N: 30, Kappa: 2, Lambda: 1, Select: MaxSelect + 1}, "select M=65 outside"},
	} {
		if _, err := Train(context.Background(), d, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one with %q", c.cfg, err, c.want)
		}
	}
	if _, err := NewFittedNetwork(d.K(), Config{Arch: Conj, N: 30, Kappa: 2, Lambda: 1, Select: 3}, norm[:5], d.Y, 3); err == nil {
		t.Errorf("NewFittedNetwork took 5 values for %d rows", len(d.Y))
	}
}
