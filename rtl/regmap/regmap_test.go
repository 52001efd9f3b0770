package regmap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// TestTableInvariants checks the register table: address order, alignment,
// inside the window, unique names, fields inside 32 bits and disjoint.
func TestTableInvariants(t *testing.T) {
	names := map[string]bool{}
	for i, r := range Registers {
		if r.Offset%4 != 0 || r.Offset >= 1<<AddrW {
			t.Errorf("%s: offset 0x%x not aligned or outside the window", r.Name, r.Offset)
		}
		if i > 0 && r.Offset <= Registers[i-1].Offset {
			t.Errorf("%s: offset 0x%x not after %s", r.Name, r.Offset, Registers[i-1].Name)
		}
		if names[r.Name] {
			t.Errorf("register %s twice", r.Name)
		}
		names[r.Name] = true
		var used uint32
		for _, f := range r.Fields {
			if f.Width < 1 || f.LSB < 0 || f.LSB+f.Width > 32 {
				t.Errorf("%s.%s: bits [%d +: %d] outside the register", r.Name, f.Name, f.LSB, f.Width)
			}
			if used&f.Mask() != 0 {
				t.Errorf("%s.%s overlaps another field", r.Name, f.Name)
			}
			used |= f.Mask()
		}
	}
	if Offset("ID") != 0 || Offset("VERSION") != 4 {
		t.Error("ID and VERSION moved")
	}
}

// TestDocRegisterTable: docs/system-interface.md holds the generated table.
func TestDocRegisterTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "system-interface.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), Markdown()) {
		t.Errorf("docs/system-interface.md does not contain the register table of regmap.Markdown():\n%s", Markdown())
	}
}

func TestIdentityValues(t *testing.T) {
	m := testmodel.Random(testmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}, "median", 1)
	pl, err := plan.New(m, plan.Options{Parallel: 8})
	if err != nil {
		t.Fatal(err)
	}
	json := []byte(`{"x":1}`) // sha256 = 5041bf1f713df204784353e82f6a4a535931cb64f1f4b4a5aeaffcb720918b22
	id, err := NewIdentity(pl, json, 100, 64, true, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := id.Values()
	if err != nil {
		t.Fatal(err)
	}
	want := []Value{
		{"ID", 0x48444C47}, {"VERSION", 2}, {"MODEL_HASH_LO", 0x5041bf1f}, {"MODEL_HASH_HI", 0x713df204},
		{"SHAPE0", 16 | 4<<16}, {"SHAPE1", 512}, {"SHAPE2", 8 | 3<<16 | 5<<24},
		{"SHAPE3", 1 | 10<<8 | 1<<16 | 1<<17}, {"TIMING", 100 | 64<<16},
		{"FRAMING", 6 | 3<<16}, {"READOUT", 64 | 5<<16 | 5<<24},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("identification values (-want +got):\n%s", diff)
	}
	id.K = 1 << 16
	if _, err := id.Values(); err == nil || !strings.Contains(err.Error(), "SHAPE0.K") {
		t.Errorf("K = 65536: err %v, want one naming SHAPE0.K", err)
	}
}

func TestFraming(t *testing.T) {
	tests := []struct{ k, lw, perBeat, beats int }{
		{16, 10, 3, 6}, {1, 1, 30, 1}, {30, 1, 30, 1}, {31, 1, 30, 2}, {65, 8, 3, 22}, {2, 30, 1, 2},
	}
	for _, tc := range tests {
		fpb, b, ok := Framing(tc.k, tc.lw)
		if !ok || fpb != tc.perBeat || b != tc.beats {
			t.Errorf("Framing(%d, %d) = %d, %d, %v; want %d, %d", tc.k, tc.lw, fpb, b, ok, tc.perBeat, tc.beats)
		}
	}
	if _, _, ok := Framing(3, 31); ok {
		t.Error("LW = 31 fits a beat")
	}
}

// TestReadoutImage packs a small readout by hand: P=2, L=2, N=3, QW=3.
func TestReadoutImage(t *testing.T) {
	pl := &plan.Plan{K: 1, N: 3, L: 2, P: 2, Groups: 2, QW: 3}
	q := []int32{1, -1, 2, -3, 3, 0} // Q[0] = 1 −1 2; Q[1] = −3 3 0
	// word 0: fields (l·P+p): f0 = Q[0][0]=1, f1 = Q[0][1]=−1 (7), f2 = Q[1][0]=−3 (5), f3 = Q[1][1]=3
	// word 1: f0 = Q[0][2]=2, f1 = 0 (no neuron 3), f2 = Q[1][2]=0, f3 = 0
	want := []uint32{1 | 7<<3 | 5<<6 | 3<<9, 2}
	if diff := cmp.Diff(want, ReadoutImage(pl, q)); diff != "" {
		t.Errorf("image (-want +got):\n%s", diff)
	}
	// A 40-bit word spans two chunks.
	pl = &plan.Plan{K: 1, N: 4, L: 2, P: 4, Groups: 1, QW: 5}
	q = []int32{-1, -1, -1, -1, -1, -1, -1, -1}
	if diff := cmp.Diff([]uint32{0xffffffff, 0xff}, ReadoutImage(pl, q)); diff != "" {
		t.Errorf("two-chunk image (-want +got):\n%s", diff)
	}
}
