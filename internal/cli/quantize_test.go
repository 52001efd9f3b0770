package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/model"
)

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
	for _, want := range []string{"of the weights in {−1, 0, 1}", "accuracy on 111 training rows, validated on 39 rows held out", "  float ", "  5-bit integer "} {
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
