package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHiddenDiffs: the first difference of each kind between two hidden
// layers of one shape, in the names given, through each network type's diff
// (or, for a type without one, its model.json section), and none between
// equal layers.
func TestHiddenDiffs(t *testing.T) {
	intA := NewIntNet(5, 4, 3, 1)
	intKappa := NewIntNet(5, 4, 2, 1)
	intSign := NewIntNet(5, 4, 3, 1)
	intSign.Signs.Row(2)[0] ^= 1 << 3 // W_in[2][3] flips
	r8A, r8B := QuantizeFloatNet(NewFloatNet(3, 4, 1)), QuantizeFloatNet(NewFloatNet(3, 4, 1))
	r8B.Win[1*3+2]++
	r8B.Bias[3]--
	r8B.LUT[200]--
	rvA, rvB := NewFloatNet(3, 4, 1), NewFloatNet(3, 4, 1)
	rvB.Bias[0] += 0.5
	tests := []struct {
		name string
		a, b Network
		want []string
	}{
		{"intrvfl equal", intA, NewIntNet(5, 4, 3, 1), nil},
		{"intrvfl κ", intA, intKappa, []string{"κ: design 3, model 2"}},
		{"intrvfl sign", intA, intSign, []string{fmt.Sprintf("W_in[2][3]: design %+d, model %+d (seeds)",
			intA.Signs.Weight(2, 3), -intA.Signs.Weight(2, 3))}},
		{"rvfl8 equal", r8A, QuantizeFloatNet(NewFloatNet(3, 4, 1)), nil},
		{"rvfl8", r8A, r8B, []string{
			fmt.Sprintf("W_in[1][2]: design %d, model %d (seeds)", r8A.Win[5], r8A.Win[5]+1),
			fmt.Sprintf("bias[3]: design %d, model %d (seeds)", r8A.Bias[3], r8A.Bias[3]-1),
			fmt.Sprintf("sigmoid LUT[200]: design %d, model %d", r8A.LUT[200], r8A.LUT[200]-1),
		}},
		{"rvfl equal", rvA, NewFloatNet(3, 4, 1), nil},
		{"rvfl by its section", rvA, rvB, []string{`the rvfl hidden layers (model.json section "rvfl") differ (seeds)`}},
		{"architectures", intA, r8A, []string{"architecture: design intrvfl, model rvfl8"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, HiddenDiffs(tc.a, tc.b, [2]string{"design", "model"}, " (seeds)")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestTraitsQueries: ArchsWith lists the network types that have a trait
// (and not those that do not), and Alternatives joins them for a message.
func TestTraitsQueries(t *testing.T) {
	for _, tc := range []struct {
		trait     string
		has       func(Traits) bool
		with, not []Arch
	}{
		{"κ", func(t Traits) bool { return t.Kappa }, []Arch{IntRVFL}, []Arch{RVFL, RVFL8}},
		{"readout bits", Traits.ReadoutBits, []Arch{IntRVFL}, []Arch{RVFL, RVFL8}},
		{"generated W_in", func(t Traits) bool { return t.GeneratedWin }, []Arch{IntRVFL}, []Arch{RVFL, RVFL8}},
		{"input options", func(t Traits) bool { return t.InputOptions }, []Arch{RVFL}, []Arch{IntRVFL, RVFL8}},
		{"required readout", func(t Traits) bool { return t.Readout.Required }, []Arch{RVFL8}, []Arch{IntRVFL, RVFL}},
	} {
		got := ArchsWith(tc.has)
		for _, a := range tc.with {
			if !slices.Contains(got, a) {
				t.Errorf("%s: %v without %s", tc.trait, got, a)
			}
		}
		for _, a := range tc.not {
			if slices.Contains(got, a) {
				t.Errorf("%s: %v with %s", tc.trait, got, a)
			}
		}
	}
	for _, tc := range []struct {
		archs []Arch
		want  string
	}{{nil, "none"}, {[]Arch{IntRVFL}, "intrvfl"}, {[]Arch{IntRVFL, RVFL, RVFL8}, "intrvfl, rvfl or rvfl8"}} {
		if got := Alternatives(tc.archs); got != tc.want {
			t.Errorf("Alternatives(%v) = %q, want %q", tc.archs, got, tc.want)
		}
	}
	if _, err := TraitsOf("mlp"); err == nil {
		t.Error("TraitsOf(mlp) without an error")
	}
}
