package model

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/ridge"
)

func TestParseSolver(t *testing.T) {
	tests := []struct {
		method string
		rtol   float64
		want   Solver
		err    string // substring of the error ("" for none)
	}{
		{"exact", 0, Solver{}, ""},
		{"pinv-cutoff", 0, Solver{Method: "pinv-cutoff"}, ""},
		{"pinv-cutoff", 1e-3, Solver{Method: "pinv-cutoff", RTol: 1e-3}, ""},
		{"exact", 1e-3, Solver{}, "given with the exact solver"},
		{"pinv-cutoff", -1, Solver{}, "want a finite value ≥ 0"},
		{"cholesky", 0, Solver{}, `unknown solver "cholesky"`},
	}
	for _, tc := range tests {
		got, err := ParseSolver(tc.method, tc.rtol)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseSolver(%q, %v): %v", tc.method, tc.rtol, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseSolver(%q, %v) error %v, want one containing %q", tc.method, tc.rtol, err, tc.err)
		case tc.err == "" && got != tc.want:
			t.Errorf("ParseSolver(%q, %v) = %+v, want %+v", tc.method, tc.rtol, got, tc.want)
		}
	}
}

// TestTrainPinvCutoff: on a small data set the sigmoid RVFL's wide hidden
// layer is nearly collinear (the vowel situation of issue 15): the
// pinv-cutoff solver drops singular values, records the method, its
// default tolerance N·2⁻²³ and the count in model.json, which reads back
// the same; with a tolerance below every singular value it drops none and
// agrees with the exact solve. The exact solver writes no solver field, so
// an exact model.json is byte for byte what it was before the option.
func TestTrainPinvCutoff(t *testing.T) {
	d := blobs(120, 5, 3, 1)
	const n = 300
	cfg := Config{Arch: RVFL, N: n, Lambda: 1.0 / 1024, Seed: 3}
	exact, err := Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range []Solver{{Method: ""}, {Method: "exact"}} {
		c := cfg
		c.Solver = sv
		m, err := Train(context.Background(), d, c)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := Marshal(exact)
		b, _ := Marshal(m)
		if !bytes.Equal(a, b) {
			t.Errorf("solver %+v: model.json differs from the default solver's", sv)
		}
		if bytes.Contains(b, []byte("solver")) || bytes.Contains(b, []byte("pinv")) {
			t.Errorf("solver %+v: an exact model.json names a solver", sv)
		}
	}

	cfg.Solver = Solver{Method: "pinv-cutoff"}
	pinv, err := Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := pinv.Training
	if tr.Method != "pinv-cutoff" || tr.RTol != n*ridge.Float32Eps || tr.PinvDropped < n/2 || tr.PinvDropped >= n {
		t.Errorf("training info %+v, want pinv-cutoff, rtol %v and most (not all) of the %d singular values dropped", tr, n*ridge.Float32Eps, n)
	}
	if cmp.Equal(pinv.Wout, exact.Wout) {
		t.Error("the cutoff left W_out unchanged")
	}
	data, err := Marshal(pinv)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pinv.Training, back.Training); diff != "" {
		t.Errorf("training info after a round trip (-trained +read):\n%s", diff)
	}

	cfg.Solver.RTol = 1e-300
	none, err := Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if none.Training.PinvDropped != 0 {
		t.Errorf("rtol 1e-300 dropped %d singular values", none.Training.PinvDropped)
	}
	var diff, norm float64
	for i, w := range exact.Wout {
		diff, norm = max(diff, abs(none.Wout[i]-w)), max(norm, abs(w))
	}
	if diff > 1e-6*norm {
		t.Errorf("with nothing dropped, W_out differs from the exact solve by %g (max |W_out| %g)", diff, norm)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
