package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/templates"
)

// TestLayerPrimitives: each network type's hidden-layer primitives, with
// the variant its options take, and every source is a file of rtl/templates.
func TestLayerPrimitives(t *testing.T) {
	r8 := testmodel.Shape{Arch: model.RVFL8, K: 4, N: 9, L: 3}
	in := testmodel.Shape{Arch: model.IntRVFL, K: 4, N: 9, L: 3, Kappa: 3, Bits: 5}
	gen := in
	gen.Win = model.WinPRBS31
	intrvfl := []Primitive{Same("hdlgen_level_offset.v"), Same("hdlgen_intrvfl_hidden.v")}
	tests := []struct {
		name string
		s    testmodel.Shape
		o    Options
		want []Primitive
	}{
		{"intrvfl", in, Options{Parallel: 2}, intrvfl},
		{"intrvfl block", in, Options{Parallel: 2, ROMStyle: ROMStyleBlock}, intrvfl},
		{"intrvfl generated W_in", gen, Options{Parallel: 2}, append(intrvfl, Same("hdlgen_win_lfsr.v"))},
		{"rvfl8", r8, Options{Parallel: 2}, []Primitive{Same("hdlgen_rvfl8_hidden.v")}},
		{"rvfl8 block", r8, Options{Parallel: 2, ROMStyle: ROMStyleBlock}, []Primitive{{"hdlgen_rvfl8_hidden.v", "hdlgen_rvfl8_hidden_block.v"}}},
	}
	for _, tc := range tests {
		pl := mustPlan(t, tc.s, tc.o)
		got := pl.Layer().Primitives(pl)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: primitives (-want +got):\n%s", tc.name, diff)
		}
		for _, p := range got {
			if _, err := templates.FS.ReadFile(p.Source); err != nil {
				t.Errorf("%s: %s: %v", tc.name, p.Name, err)
			}
		}
	}
}

// TestArchCodes: the SHAPE3.ARCH codes of docs/system-interface.md, and one
// code per network type.
func TestArchCodes(t *testing.T) {
	got := map[model.Arch]int{}
	seen := map[int]model.Arch{}
	for _, a := range Archs() {
		c := LayerOf(a).ArchCode()
		got[a] = c
		if b, dup := seen[c]; dup {
			t.Errorf("%s and %s share the code %d", a, b, c)
		}
		seen[c] = a
	}
	for a, want := range map[model.Arch]int{model.IntRVFL: 1, model.RVFL8: 2} {
		if got[a] != want {
			t.Errorf("%s: code %d, want %d", a, got[a], want)
		}
	}
}
