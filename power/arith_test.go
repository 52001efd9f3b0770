package power

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

func TestCarryChains(t *testing.T) {
	tests := []struct {
		name string
		f    func(int) int
		w    []int
		want []int
	}{
		// arith_map.v: $alu/$lcu of width ≤ 2 stay in LUTs, else ⌈w/4⌉ CARRY4.
		{"adder", carryChain, []int{0, 1, 2, 3, 4, 5, 8, 9, 14, 19}, []int{0, 0, 0, 1, 1, 2, 2, 3, 4, 5}},
		// cmp2lcu: 3 bit pairs per LUT6 (Yosys: AW = 16 → $lcu of 6, 19 → 7, 8 → 3).
		{"compare", cmpChain, []int{6, 8, 9, 16, 19, 28}, []int{0, 1, 1, 2, 2, 3}},
		// 6 bits against a constant per LUT6 (Yosys: the clip of SW = 6 → $lcu of 1, SW = 7 → 2).
		{"compare with constant", cmpConstChain, []int{4, 6, 7, 12, 13, 24}, []int{0, 0, 0, 0, 1, 1}},
	}
	for _, tc := range tests {
		var got []int
		for _, w := range tc.w {
			got = append(got, tc.f(w))
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s over widths %v (-want +got):\n%s", tc.name, tc.w, d)
		}
	}
}

// TestTreeSums pins the multi-operand sums of adder trees to the $alu/$macc
// cells Yosys 0.23 built for them in the calibration designs (synth_xilinx
// -run :fine, then counting the cells by source line). A sum is written as its
// operand count, "L" when one operand is the last leaf alone, "f" when it is
// in the first segment.
func TestTreeSums(t *testing.T) {
	tests := []struct {
		name         string
		leaves, from int
		want         string
		inFabric     int // productTreeSums: sums left in the fabric over products
	}{
		{"one leaf", 1, 0, "", 0},
		{"P=2 LUT products", 2, 0, "2f", 1},
		{"P=2 DSP products: one post-adder", 2, 1, "", 0},
		{"P=3 DSP products: both adders are post-adders", 3, 1, "2Lf", 0},
		{"P=6 DSP products", 6, 1, "3f", 1},
		{"P=8: one sum of 8", 8, 0, "8f", 1},
		{"P=8 DSP products: sum of 4 post-adder outputs", 8, 1, "4f", 1},
		{"P=16: depth 4, no cut", 16, 0, "16f", 1},
		{"P=32: cut at level 4", 32, 0, "16f 16f 2", 3},
		{"P=64", 64, 0, "16f 16f 16f 16f 4", 5},
		{"P=32 DSP products", 32, 1, "8f 8f 2", 3},
		// rvfl8 pre-activation trees: K products and the bias, first level in DSP48E1s.
		{"rvfl8 K=4", 5, 1, "3Lf", -1},
		{"rvfl8 K=10", 11, 1, "6Lf", -1},
		{"rvfl8 K=16: bias alone at the cut", 17, 1, "8f 2L", -1},
		{"rvfl8 K=32", 33, 1, "8f 8f 3L", -1},
		{"odd last node without partner", 17, 0, "16f 2L", -1},
	}
	for _, tc := range tests {
		var got []string
		eachTreeSum(tc.leaves, 4, tc.from, func(s treeSum) {
			w := fmt.Sprint(s.operands)
			if s.loneLast {
				w += "L"
			}
			if s.first {
				w += "f"
			}
			got = append(got, w)
		})
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: eachTreeSum(%d, 4, %d) gives %q, want %q", tc.name, tc.leaves, tc.from, g, tc.want)
		}
		if tc.inFabric >= 0 {
			if n := productTreeSums(tc.leaves, 4, tc.from); n != tc.inFabric {
				t.Errorf("%s: productTreeSums = %d, want %d", tc.name, n, tc.inFabric)
			}
		}
	}
}

// TestHiddenSubWidth pins the width of the intRVFL's s = K − 2·popcount
// subtractor to what Yosys 0.23 leaves after opt_expr (the $alu's Y_WIDTH
// before techmap, hdlgen_intrvfl_hidden alone and in the calibration designs).
func TestHiddenSubWidth(t *testing.T) {
	want := map[int]int{2: 1, 3: 1, 4: 3, 5: 3, 6: 1, 7: 1, 8: 4, 9: 4, 10: 3, 11: 3, 12: 4, 13: 4, 14: 1, 15: 1,
		16: 5, 17: 5, 20: 5, 24: 5, 31: 1, 32: 6, 33: 6, 48: 6, 63: 1, 64: 7, 100: 7}
	got := map[int]int{}
	for k := range want {
		got[k] = hiddenSubWidth(k, clog2(k+1))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("K → width (-Yosys +model):\n%s", d)
	}
}

// TestBlocksMatchYosys compares the FF and CARRY4 counts of every block with
// Yosys 0.23's synthesis of calibration designs (hwstudy.CalibrationMatrix,
// seed 1), attributed to blocks by each cell's source: FFs by
// scripts/ff-blocks.py on the netlists of `hdlgen power calibrate` (its src
// attribute, else the net its Q drives; re-measured 2026-11-26 with the
// synthesis script that maps no SRL16E, synth/script), CARRY4 by the
// $alu/$macc/$lcu cells before technology mapping (synth_xilinx -run :fine;
// summed with carryChain they give each design's CARRY4 count). rom = the ROM read
// registers; front = hdlgen_issue, the stage-A registers and tags, the level
// offsets; lanes = the hidden layer's registers other than its tree cuts, the
// sigmoid read register, the tags up to stage H; preact = the pre-activation
// tree cuts; mac = the product registers and LUT multipliers; lanetree = the
// lane-sum cuts and the readout's tag; acc = the accumulators and done flag;
// argmax = the argmax tree and output register. CARRY4 must be exact; FFs
// within 2 per block (the intRVFL's tag registers: Yosys sometimes merges a
// tag's first/last bits). -1 marks a count not measured.
func TestBlocksMatchYosys(t *testing.T) {
	blocks := []string{"rom", "front", "lanes", "preact", "mac", "lanetree", "acc", "argmax"}
	tests := []struct {
		d         Design
		ff, carry [nComp]int
	}{
		// Measured with a register every 4 adder levels (the default rule for
		// every P before P ≥ 16 took 3).
		{Design{Shape: Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}, N: 4096, Options: plan.Options{Parallel: 64, AdderLevelsPerStage: 4}},
			[nComp]int{-1, -1, -1, -1, -1, -1, -1, -1}, [nComp]int{0, 2, 128, 0, 512, 80, 20, 6}},
		{Design{Shape: Shape{Arch: model.IntRVFL, K: 32, L: 2, Kappa: 15, Bits: 4}, N: 512, Options: plan.Options{Parallel: 8}},
			[nComp]int{320, 528, 132, 0, 0, 3, 35, 36}, [nComp]int{0, 2, 16, 0, 0, 6, 10, 2}},
		{Design{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4}, N: 512, Options: plan.Options{Parallel: 8}},
			[nComp]int{1344, 144, 149, 192, 0, 3, 101, 103}, [nComp]int{0, 2, 0, 80, 0, 20, 28, 9}},
		{Design{Shape: Shape{Arch: model.RVFL8, K: 16, L: 4}, N: 4096, Options: plan.Options{Parallel: 4}}, // ROMs in block RAM
			[nComp]int{0, 152, 93, 96, 0, 3, 113, 115}, [nComp]int{0, 3, 0, 40, 0, 20, 28, 9}},
		{Design{Shape: Shape{Arch: model.RVFL8, K: 32, L: 2}, N: 256, Options: plan.Options{Parallel: 2}},
			[nComp]int{560, 274, 55, 104, 0, 3, 49, 50}, [nComp]int{0, 2, 0, 36, 0, 0, 12, 2}},
		// P = 3 (the lane trees are all in DSP48E1s), L = 5 (an argmax cut).
		{Design{Shape: Shape{Arch: model.RVFL8, K: 12, L: 5}, N: 200, Options: plan.Options{Parallel: 3}},
			[nComp]int{432, 114, 61, 0, 0, 3, 121, 271}, [nComp]int{0, 2, 0, 15, 0, 0, 30, 8}},
	}
	for _, tc := range tests {
		comps, _ := componentsOf(tc.d, newStructure(tc.d))
		for i, c := range comps {
			if got := int(c.RawCarry); got != tc.carry[i] {
				t.Errorf("%s: %s CARRY4 %d, Yosys %d", tc.d, blocks[i], got, tc.carry[i])
			}
			if want := tc.ff[i]; want >= 0 && (c.RawFF < float64(want)-2 || c.RawFF > float64(want)+2) {
				t.Errorf("%s: %s FF %g, Yosys %d", tc.d, blocks[i], c.RawFF, want)
			}
		}
	}
}
