package quant_test

import (
	"fmt"

	"github.com/hdlgen/hdlgen/quant"
)

// ExampleQuantize rounds a 2×3 float readout to 3-bit integers (levels −3…3):
// the largest magnitude, 1.5, maps to ±3, so the scale is 0.5.
func ExampleQuantize() {
	w := []float64{
		1.5, -0.2, 0.6,
		-1.5, 0.26, 0,
	}
	r, err := quant.Quantize(w, 2, 3, quant.BoundForBits(3))
	if err != nil {
		panic(err)
	}
	fmt.Println("bound", r.Bound, "bits", r.Bits, "scale", r.Scale)
	fmt.Println(r.Weights[:3])
	fmt.Println(r.Weights[3:])
	// Output:
	// bound 3 bits 3 scale 0.5
	// [3 0 1]
	// [-3 1 0]
}
