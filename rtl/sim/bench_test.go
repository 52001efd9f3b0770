package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	testmodel "github.com/hdlgen/hdlgen/internal/randmodel"
)

// The paper's median network: K=16, N=512, L=4, κ=3, 5-bit readout.
var medianShape = testmodel.Shape{Arch: "intrvfl", K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}

// benchInputs returns n random level vectors of the median network.
func benchInputs(c *Core, n int) [][]int {
	rng := rand.New(rand.NewPCG(1, 2))
	in := make([][]int, n)
	for v := range in {
		in[v] = randomInput(rng, c.k, c.MaxInput())
	}
	return in
}

// modelNsPerVector times the model package's own integer path (hidden layer and
// readout, no timing) on the same vectors: the baseline the simulator is compared with.
func modelNsPerVector(c *Core, in [][]int) float64 {
	start := time.Now()
	rounds := 0
	for time.Since(start) < 200*time.Millisecond {
		for _, v := range in {
			reference(c.m, v)
		}
		rounds++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(rounds*len(in))
}

// reportRates reports, for b.N operations of perOp classifications and
// cyclesPerOp simulated clock cycles each: classifications per second, simulated
// cycles per second (the unit of the Verilator testbench's SIMRATE line, see
// results/hardware/median-verify.md) and the time per classification as a
// multiple of the model package's untimed integer path, measured in the same run.
func reportRates(b *testing.B, c *Core, in [][]int, perOp, cyclesPerOp int) {
	sec := b.Elapsed().Seconds()
	nsPer := 1e9 * sec / float64(b.N*perOp)
	b.ReportMetric(1e9/nsPer, "classifications/s")
	b.ReportMetric(float64(b.N*cyclesPerOp)/sec, "cycles/s")
	b.ReportMetric(nsPer/modelNsPerVector(c, in), "x_model")
}

// cyclesOf is the number of cycles the stream top takes for st (the same for
// every run: the simulator is deterministic).
func cyclesOf(b *testing.B, c *Core, st Stimulus) int {
	run, err := c.RunStream(context.Background(), st)
	if err != nil {
		b.Fatal(err)
	}
	return run.Cycles
}

// BenchmarkClassify: one vector through a fresh stream top (Classify, as `hdlgen
// sim` uses it), cycle by cycle until its result leaves.
func BenchmarkClassify(b *testing.B) {
	m := testmodel.Random(medianShape, "median", 1)
	for _, p := range []int{1, 8} {
		b.Run(fmt.Sprintf("P=%d", p), func(b *testing.B) {
			c := newCore(b, m, p)
			in := benchInputs(c, 64)
			// Classify's run: one vector, no gap, always ready (latency + 1 cycles).
			cycles := cyclesOf(b, c, Stimulus{Inputs: in[:1], Gaps: []int{0}, Ready: []bool{true}})
			if want := c.Plan().Latency + 1; cycles != want {
				b.Fatalf("one vector takes %d cycles, want latency + 1 = %d", cycles, want)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, _, err := c.Classify(in[i%len(in)]); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportRates(b, c, in, 1, cycles)
		})
	}
}

// BenchmarkStream: 64 back-to-back vectors with an always-ready output
// (RunStream, as the emitter uses it).
func BenchmarkStream(b *testing.B) {
	m := testmodel.Random(medianShape, "median", 1)
	for _, p := range []int{1, 8} {
		b.Run(fmt.Sprintf("P=%d", p), func(b *testing.B) {
			c := newCore(b, m, p)
			in := benchInputs(c, 64)
			st := Stimulus{Inputs: in, Gaps: make([]int, len(in)), Ready: []bool{true}}
			cycles := cyclesOf(b, c, st)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.RunStream(context.Background(), st); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportRates(b, c, in, len(in), cycles)
		})
	}
}
