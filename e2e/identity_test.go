package e2e

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/golden"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// medianDesigns are the paper's median network (K=16, N=512, L=4, κ=3, 5 bits)
// as intRVFL and rvfl8, each at P=1 and P=8.
var medianDesigns = []shape{
	{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 1},
	{arch: model.IntRVFL, k: 16, n: 512, l: 4, kappa: 3, bits: 5, p: 8},
	{arch: model.RVFL8, k: 16, n: 512, l: 4, p: 1},
	{arch: model.RVFL8, k: 16, n: 512, l: 4, p: 8},
}

// emittedInstead maps the verification matrix's fully parallel K = 16 designs,
// made smaller for the simulators' time (matrix_test.go), to the sizes they had
// when testdata/emitted.sha256 was written: emitting costs no simulation, so the
// list keeps checking the larger designs' bytes.
var emittedInstead = map[shape]shape{
	{arch: model.IntRVFL, k: 16, n: 130, l: 2, kappa: 15, bits: 5, p: 0}: {arch: model.IntRVFL, k: 16, n: 513, l: 2, kappa: 15, bits: 5, p: 0},
	{arch: model.RVFL8, k: 16, n: 16, l: 3, p: 0}:                        {arch: model.RVFL8, k: 16, n: 64, l: 3, p: 0},
}

// TestEmittedBytesUnchanged generates every design of the verification matrix
// (with emittedInstead's sizes)
// and the median designs (both tops, the matrix's vector options) and compares
// the SHA-256 of every file — RTL, ROMs, vectors, design.json, model.json,
// testbench, Makefile, Vivado flow, constraints — with testdata/emitted.sha256.
// A refactoring that claims "no change in behaviour" must leave it passing;
// `go test ./e2e -run TestEmittedBytesUnchanged -update` rewrites the list after
// an intended change.
func TestEmittedBytesUnchanged(t *testing.T) {
	var designs []shape
	for _, s := range append(matrixShapes(), medianDesigns...) {
		if old, ok := emittedInstead[s]; ok {
			s = old
		}
		if !slices.Contains(designs, s) {
			designs = append(designs, s)
		}
	}
	var b strings.Builder
	for _, s := range designs {
		m := trainShape(t, s)
		p := s.p
		if p == 0 {
			p = m.N()
		}
		files, _, err := rtl.Generate(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: p}, Axis: true, Vectors: 1000, Seed: 3})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		names := make([]string, 0, len(files))
		for f := range files {
			names = append(names, f)
		}
		slices.Sort(names)
		for _, f := range names {
			fmt.Fprintf(&b, "%x  %s/%s\n", sha256.Sum256(files[f]), s, f)
		}
	}
	golden.Check(t, filepath.Join("testdata", "emitted.sha256"), []byte(b.String()))
}
