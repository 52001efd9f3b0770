package buildflow

import "testing"

// TestCXXOpt: build compiles the Verilator models at -O0 up to
// FastCompileVectors vectors, at Verilator's default above, and not at all
// without the Verilator step.
func TestCXXOpt(t *testing.T) {
	for _, tc := range []struct {
		vectors int
		run     []string
		want    string
	}{
		{1000, []string{stepModel, stepLint, stepVerilator}, "-O0"},
		{FastCompileVectors, []string{stepVerilator}, "-O0"},
		{FastCompileVectors + 1, []string{stepModel, stepLint, stepVerilator}, ""},
		{1000, []string{stepModel, stepIcarus}, ""},
	} {
		b := &build{o: &Options{Vectors: tc.vectors}}
		if got := b.cxxOpt(tc.run); got != tc.want {
			t.Errorf("%d vectors, steps %v: --cxx-opt %q, want %q", tc.vectors, tc.run, got, tc.want)
		}
	}
}
