package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/weights"
)

// TestWeights writes a readout image for a retrained model and refuses
// models and designs that do not fit.
func TestWeights(t *testing.T) {
	dir := t.TempDir()
	train := func(name string, args ...string) string {
		p := filepath.Join(dir, name+".json")
		base := []string{"train", "--data", "example:iris", "--n", "40", "--kappa", "3", "--bits", "5", "-o", p}
		if code, _, errs := run(t, append(base, args...)...); code != 0 {
			t.Fatalf("train %s: exit %d: %s", name, code, errs)
		}
		return p
	}
	orig := train("orig", "--seed", "1", "--lambda", "4")
	retrained := train("retrained", "--seed", "1", "--lambda", "0.25")
	otherSeed := train("other", "--seed", "2", "--lambda", "4")
	design := filepath.Join(dir, "design")
	if code, _, errs := run(t, "emit", orig, "-o", design, "--parallel", "3", "--vectors", "10"); code != 0 {
		t.Fatalf("emit: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "readout.bin")

	// A design emitted without a reloadable readout is refused.
	code, _, errs := run(t, "weights", retrained, "--design", design, "-o", out)
	if code != exitError || !strings.Contains(errs, "emitted without --reloadable-readout") {
		t.Errorf("ROM design: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an image was written for a ROM design")
	}

	// The same model emitted with a reloadable readout.
	design = filepath.Join(dir, "reloadable")
	if code, _, errs := run(t, "emit", orig, "-o", design, "--parallel", "3", "--vectors", "10", "--system", "zynq", "--reloadable-readout"); code != 0 {
		t.Fatalf("emit: exit %d: %s", code, errs)
	}

	code, stdout, errs := run(t, "weights", retrained, "--design", design, "-o", out)
	if code != 0 {
		t.Fatalf("weights: exit %d: %s", code, errs)
	}
	if strings.TrimSpace(stdout) != out {
		t.Errorf("stdout %q, want the image path", stdout)
	}
	img, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := weights.Parse(img)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.ReadFile(retrained)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m.Readout.Q, got.Q); diff != "" {
		t.Errorf("image weights (-model +image):\n%s", diff)
	}
	mj, _ := os.ReadFile(filepath.Join(design, "model.json"))
	if got.Design != weights.HashOf(mj) || got.P != 3 {
		t.Errorf("image for design %s with P=%d, want %s, P=3", got.Design, got.P, weights.HashOf(mj))
	}

	// Another seed: another W_in, refused with the difference named.
	out2 := filepath.Join(dir, "other.bin")
	code, _, errs = run(t, "weights", otherSeed, "--design", design, "-o", out2)
	if code != exitError || !strings.Contains(errs, "W_in[") || !strings.Contains(errs, "seeds: design 1, model 2") {
		t.Errorf("other seed: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Error("an image was written for a mismatching model")
	}

	// Usage and missing inputs.
	if code, _, errs := run(t, "weights", retrained, "-o", out); code != exitUsage || !strings.Contains(errs, `"design" not set`) {
		t.Errorf("no --design: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, "weights", retrained, "--design", filepath.Join(dir, "nosuch"), "-o", out); code != exitError ||
		!strings.Contains(errs, "nosuch") {
		t.Errorf("missing design: exit %d, %q", code, errs)
	}
}
