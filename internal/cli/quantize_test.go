package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
)

func TestSmallCodeShare(t *testing.T) {
	tests := []struct {
		q    []int32
		want float64
	}{
		{nil, 0},
		{[]int32{0, 1, -1, 2}, 0.75},
		{[]int32{15, -15}, 0},
		{[]int32{-1, -1}, 1},
	}
	for _, tc := range tests {
		if got := smallCodeShare(tc.q); got != tc.want {
			t.Errorf("smallCodeShare(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestRoundingWarning(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name             string
		reg              model.Regularizer
		bound            int
		small            float64
		floatAcc, intAcc float64
		want             string // substring; "" means no warning
	}{
		{"no data, spread codes", model.RegVariance, 15, 0.5, nan, nan, ""},
		{"no data, crushed codes", model.RegVariance, 15, 0.97, nan, nan, "97% of the rounded weights"},
		{"crushed codes but few levels", model.RegVariance, 3, 0.97, nan, nan, ""},
		{"small loss", model.RegVariance, 15, 0.5, 0.95, 0.945, ""},
		{"large loss, variance", model.RegVariance, 15, 0.5, 0.95, 0.80, "loses 15.0 percentage points of training accuracy; retraining with --regularizer identity"},
		{"large loss, identity", model.RegIdentity, 15, 0.5, 0.95, 0.80, "a larger --lambda (hdlgen search --bits"},
		{"loss beats the code share", model.RegVariance, 15, 0.99, 0.9, 0.5, "loses 40.0 percentage points"},
	}
	for _, tc := range tests {
		got := roundingWarning(tc.reg, tc.bound, tc.small, tc.floatAcc, tc.intAcc)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: warning %q, want one containing %q", tc.name, got, tc.want)
		}
	}
}

func TestQuantizeReportsTrainingAccuracy(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "iris.json"), filepath.Join(dir, "iris-5bit.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "50", "--lambda", "4", "--kappa", "3", "-o", in); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	code, _, errs := run(t, "quantize", in, "--bits", "5", "--data", "example:iris", "-o", out)
	if code != 0 {
		t.Fatalf("quantize: exit %d: %s", code, errs)
	}
	for _, want := range []string{"of the weights in {−1, 0, 1}", "training accuracy: float readout 0.9", "integer readout 0.9"} {
		if !strings.Contains(errs, want) {
			t.Errorf("quantize stderr %q lacks %q", errs, want)
		}
	}
	m, err := model.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Readout == nil || m.Readout.Bound != 15 {
		t.Fatalf("quantised model readout %+v, want bound 15", m.Readout)
	}
}
