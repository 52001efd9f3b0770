package power

import "math/bits"

// Carry chains. Yosys 0.23's synth_xilinx turns every addition, subtraction
// and magnitude comparison into a coarse cell before mapping:
//
//   - alumacc makes each adder or subtractor an $alu and each sum of three or
//     more operands (all the adders of an adder tree between two register
//     cuts, a LUT multiplier's partial products) a $macc; maccmap later
//     reduces a $macc to full adders in LUTs and one final $alu of the
//     $macc's width;
//   - cmp2lcu splits a comparison into LUT-sized chunks (3 bit pairs of two
//     variables, 6 bits against a constant, per LUT6) and chains the chunks'
//     propagate/generate bits in an $lcu of one bit per chunk;
//   - xilinx/arith_map.v maps an $alu of Y_WIDTH > 2 bits and an $lcu of
//     WIDTH > 2 bits onto ⌈width/4⌉ CARRY4; narrower ones stay in LUTs
//     (_TECHMAP_FAIL_).
//
// So the CARRY4 count of a design is a sum of ⌈w/4⌉ over its adders, sums and
// comparisons, with the widths Yosys leaves after wreduce and opt_expr. The
// functions below give those counts from the structure; over the calibration
// matrix they reproduce Yosys's CARRY4 count of every design exactly
// (results/hardware/calibration.md), so CARRY4 needs no fitted factor.

// carryChain is the CARRY4 count of one $alu (or $macc) of width w, or of one
// $lcu of w chunks.
func carryChain(w int) int {
	if w <= 2 {
		return 0
	}
	return ceilDiv(w, 4)
}

// cmpChain is the CARRY4 count of a w-bit comparison of two variables.
func cmpChain(w int) int { return carryChain(ceilDiv(w, 3)) }

// cmpConstChain is the CARRY4 count of a w-bit comparison with a constant.
func cmpConstChain(w int) int { return carryChain(ceilDiv(w, 6)) }

// treeSum is one multi-operand sum Yosys builds for an adder tree.
type treeSum struct {
	operands int
	// loneLast: one operand is the tree's last leaf alone, passed through
	// from level 0 (an odd last node): the rvfl8 bias, or a lone product.
	loneLast bool
	// first: the sum is in the tree's first segment (no register between
	// its operands and the leaves).
	first bool
}

// eachTreeSum calls visit with each sum of one balanced adder tree of
// `leaves` operands (rtl/templates/hdlgen_addtree.v: a register after every
// levelsPerStage levels, none after the last) as Yosys builds them: alumacc
// merges the adders between two register cuts into one sum, so there is one
// sum per node at a segment's top level that combines at least two nodes of
// the segment's bottom level (an odd last node that only passes through adds
// nothing). Levels below from are not in the fabric: from = 1 when the first
// level's adders are DSP48E1 post-adders. (A visitor rather than a list: the
// sizer's table walks these trees for every N and P it considers.)
func eachTreeSum(leaves, levelsPerStage, from int, visit func(treeSum)) {
	depth := clog2(leaves)
	if depth <= from {
		return
	}
	nodes := func(lv int) int { return (leaves + 1<<lv - 1) >> lv }
	bottom := from
	for lv := from + 1; lv <= depth; lv++ {
		if lv < depth && lv%levelsPerStage != 0 {
			continue
		}
		span := 1 << (lv - bottom) // bottom-level nodes under one top-level node
		for n := 0; n < nodes(lv); n++ {
			first, end := n*span, min((n+1)*span, nodes(bottom))
			if end-first < 2 {
				continue
			}
			// The last bottom node holds the last leaf alone, passed through
			// from level 0, when it covers one leaf.
			lastAlone := bottom > 0 && end == nodes(bottom) && leaves-(end-1)<<bottom == 1
			visit(treeSum{operands: end - first, loneLast: lastAlone, first: bottom == from})
		}
		bottom = lv
	}
}

// productTreeSums counts the sums in the fabric of one adder tree over
// DSP48E1 products (from = 1) or LUT products (from = 0). xilinx_dsp runs
// before alumacc and packs the first adder after each product into that
// product's DSP48E1 post-adder: the first level's pairs, and, for an odd
// number of products, the adder the lone last product first meets (its
// operand drops out of that sum; with P = 3 the whole tree is in the DSPs).
func productTreeSums(leaves, levelsPerStage, from int) int {
	n := 0
	eachTreeSum(leaves, levelsPerStage, from, func(s treeSum) {
		ops := s.operands
		if from == 1 && s.loneLast && s.first {
			ops--
		}
		if ops >= 2 {
			n++
		}
	})
	return n
}

// hiddenSubWidth is the width of the intRVFL's s = K − 2·popcount after
// Yosys's opt_expr: the subtrahend's zero LSB passes through (PcW bits
// remain), and the low bits of the constant K/2 that are ones subtract
// without borrow (~popcount), so only the bits above them need an adder.
func hiddenSubWidth(k, pcW int) int {
	return max(0, pcW-bits.TrailingZeros(^uint(k>>1)))
}
