package power

import "math"

// ROM placement, as Yosys 0.23's memory_libmap decides it for xc7 (calibrated
// against `debug memory_libmap` on ROMs of 32…4096 words × 1…1088 bits; see
// docs/energy-model.md): a ROM goes to block RAM when the cheapest block-RAM
// configuration costs less than its soft-logic cost depth·width/64
// (synth_xilinx passes -logic-cost-rom 1/64 for xc7), else to LUTs.
//
// Block-RAM cost of one configuration: cell cost (RAMB18 129, RAMB36 257) ×
// cells + ½ per output bit per extra depth slice (the read multiplexer) + 2.
// A cell of c bits of address space and data width w holds c/w words; a ROM
// deeper than that is split into k slices folded into the width.

type bramCell struct {
	cost   float64
	abits  int   // log2 of the address space in bits (incl. parity)
	widths []int // usable read widths
	ramb36 bool
}

var bramCells = []bramCell{
	{cost: 129, abits: 14, widths: []int{1, 2, 4, 9, 18, 36}, ramb36: false},    // RAMB18E1 (36 = SDP)
	{cost: 257, abits: 15, widths: []int{1, 2, 4, 9, 18, 36, 72}, ramb36: true}, // RAMB36E1 (72 = SDP)
}

// romMapping is where one ROM goes and what it costs.
type romMapping struct {
	BRAM           bool
	RAMB18, RAMB36 int
	LUTs           float64 // estimated LUT6 sites (logic ROMs)
	Columns        float64 // expected distinct non-constant columns (logic ROMs): read-register FFs
}

// bramConfig is one block-RAM configuration mapROM weighs: a cell at one
// read width, holding 2^wordsLog2 words.
type bramConfig struct {
	cost      float64
	width     int
	wordsLog2 int
	ramb36    bool
}

// bramConfigs are the configurations of bramCells, their word counts worked
// out once (the sizer's table maps ROMs for every N and P it considers).
var bramConfigs = func() []bramConfig {
	var out []bramConfig
	for _, c := range bramCells {
		for _, w := range c.widths {
			out = append(out, bramConfig{cost: c.cost, width: w, wordsLog2: c.abits - clog2(pow2Floor(w)), ramb36: c.ramb36})
		}
	}
	return out
}()

// mapROM places a ROM of depth words × width bits by the rule above. block
// forces block RAM (the rom_style "block" attribute of hdlgen emit
// --rom-style block): the cheapest configuration, whatever the logic cost.
func mapROM(depth, width int, block bool) romMapping {
	logic := float64(depth*width) / 64
	if !block && logic <= bramCells[0].cost+2 { // cheaper than any block RAM: skip the search
		return logicROM(depth, width)
	}
	best := math.Inf(1)
	var bm romMapping
	for _, c := range bramConfigs {
		k := (depth + 1<<c.wordsLog2 - 1) >> c.wordsLog2 // depth slices
		cells := (width*k + c.width - 1) / c.width
		cost := c.cost*float64(cells) + 0.5*float64(width*(k-1)) + 2
		if cost < best {
			best = cost
			bm = romMapping{BRAM: true}
			if c.ramb36 {
				bm.RAMB36 = cells
			} else {
				bm.RAMB18 = cells
			}
		}
	}
	if block || best < logic {
		return bm
	}
	return logicROM(depth, width)
}

// logicROM is the cost of a ROM in LUTs.
func logicROM(depth, width int) romMapping {
	cols := distinctColumns(depth, width)
	return romMapping{LUTs: cols * logicROMLUTsPerBit(depth), Columns: cols}
}

// distinctColumns is the expected number of distinct non-constant columns of
// a ROM of the given depth and width whose bits are independent fair coins:
// a column is one of 2^depth patterns, two of them constant; Yosys merges equal
// columns (one LUT and one read-register FF each) and drops constant ones.
func distinctColumns(depth, width int) float64 {
	if depth >= 40 {
		return float64(width) // 2^depth ≫ width: all distinct, constants negligible
	}
	patterns := math.Exp2(float64(depth))
	hit := 1 - math.Pow(1-1/patterns, float64(width))
	return (patterns - 2) * hit
}

// pow2Floor maps the parity widths 9, 18, 36, 72 to 8, 16, 32, 64 for the word count.
func pow2Floor(w int) int {
	p := 1
	for p*2 <= w {
		p *= 2
	}
	return p
}

// logicROMLUTsPerBit is the LUT6 sites of one output bit of a ROM of the given
// depth with random contents: a function of a = ⌈log2 depth⌉ address bits:
// ½ site for a ≤ 4 (a LUT4 pairs with another), 1 for a = 5, 6, and for a > 6
// ⌈depth/64⌉ LUT6s joined by MUXF7/MUXF8 (free) and, beyond 256 words, 4:1 LUT
// multiplexers (one per three MUXF8 outputs).
func logicROMLUTsPerBit(depth int) float64 {
	a := clog2(max(depth, 1))
	switch {
	case a <= 4:
		return 0.5
	case a <= 6:
		return 1
	case a <= 8:
		return math.Ceil(float64(depth) / 64)
	}
	return math.Ceil(float64(depth)/64) + math.Ceil(float64(depth)/256-1)/3
}
