package registry_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/protocol"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// TestRegistriesListTheSameNetworks: a network type with RTL is registered in
// every layer — its plan.Layer, its simulator, its part of the power model —
// and in the model package, whose every network type is a variant of the
// studies; a file forgotten in one layer fails here rather than in a command.
func TestRegistriesListTheSameNetworks(t *testing.T) {
	rtl := plan.Archs()
	if len(rtl) < 2 {
		t.Fatalf("network types with RTL: %v, want at least the intrvfl and the rvfl8", rtl)
	}
	for _, tc := range []struct {
		layer string
		archs []model.Arch
	}{
		{"rtl/sim", sim.Archs()},
		{"power", power.Networks()},
	} {
		if diff := cmp.Diff(rtl, tc.archs); diff != "" {
			t.Errorf("%s's network types differ from rtl/plan's (-plan +%s):\n%s", tc.layer, tc.layer, diff)
		}
	}
	all := model.Archs()
	variants := protocol.Networks()
	for _, a := range rtl {
		if !slices.Contains(all, a) {
			t.Errorf("rtl/plan's %s is not a network type of the model package (%v)", a, all)
		}
	}
	for _, a := range all {
		if !slices.Contains(variants, protocol.Network(a)) {
			t.Errorf("the model's %s is not a variant of the studies (%v)", a, variants)
		}
	}
	for _, nw := range variants {
		if !slices.Contains(all, nw.Arch()) {
			t.Errorf("the studies' %s is of network type %q, not one of the model package (%v)", nw, nw.Arch(), all)
		}
	}
}

// TestTraitsAgreeWithNetworks: every network type's traits agree with its
// values' readout rule, and one with RTL has an integer datapath and takes an
// integer readout.
func TestTraitsAgreeWithNetworks(t *testing.T) {
	for _, a := range model.Archs() {
		net, err := model.NewNetwork(3, model.Config{Arch: a, N: 4, Kappa: 2, Lambda: 1})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		tr, err := model.TraitsOf(a)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tr.Readout, net.Readout()); diff != "" {
			t.Errorf("%s: the traits' readout rule differs from its network's (-traits +network):\n%s", a, diff)
		}
		if !slices.Contains(plan.Archs(), a) {
			continue
		}
		if _, ok := net.(model.IntegerNetwork); !ok {
			t.Errorf("%s has RTL but no integer datapath", a)
		}
		if !tr.Readout.Allowed {
			t.Errorf("%s has RTL but takes no integer readout", a)
		}
	}
}
