package rtl_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Generate the design of a small intRVFL (K=4, N=16, L=3, κ=3, 5-bit readout)
// at P=4 in memory: its exact latency and the Verilog it consists of. Emit
// writes the same files to a directory.
func ExampleGenerate() {
	m := randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 4, N: 16, L: 3, Kappa: 3, Bits: 5}, "demo", 1)
	files, rep, err := rtl.Generate(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 4}, Vectors: 20, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Plan.LatencyFormula)
	fmt.Println(strings.Join(rep.RTLFiles, "\n"))
	fmt.Println(len(files), "files,", rep.Vectors, "test vectors")
	// Output:
	// G + F + T_argmax + 2 = 4 + 3 + 0 + 2 = 9 (F = 3 flight stages: stage_a 1 + hidden_tree 0 + hidden 1 + mac_products 1 + lane_tree 0)
	// rtl/hdlgen_delay.v
	// rtl/hdlgen_rom.v
	// rtl/hdlgen_addtree.v
	// rtl/hdlgen_argmax.v
	// rtl/hdlgen_issue.v
	// rtl/hdlgen_outreg.v
	// rtl/hdlgen_level_offset.v
	// rtl/hdlgen_intrvfl_hidden.v
	// rtl/hdlgen_mac.v
	// rtl/demo_core.v
	// rtl/demo_top.v
	// 32 files, 20 test vectors
}
