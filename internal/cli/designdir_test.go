package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDesignDirReadersCheck: sim, power, synth, weights and verify read a
// design directory through one reader (package designdir), so each refuses
// a design.json edited after the emit (issue 26, item 13: with P edited from
// 4 to 2, sim DIR reported a latency of 15 cycles where the RTL's is 10) and a
// deleted ROM (item 14: verify --steps model passed).
func TestDesignDirReadersCheck(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "20", "--bits", "5", "-o", m); code != 0 {
		t.Fatalf("train: %s", errs)
	}
	iris := filepath.Join(dir, "iris.csv")
	if err := os.WriteFile(iris, []byte("sepal_length,sepal_width,petal_length,petal_width\n5.1,3.5,1.4,0.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edits := []struct {
		name   string
		change func(t *testing.T, hw string)
		want   string
	}{
		{"P edited 4 → 2", func(t *testing.T, hw string) {
			p := filepath.Join(hw, "design.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), `"p": 4,`, `"p": 2,`, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "design.json was not emitted from model.json"},
		{"readout ROM deleted", func(t *testing.T, hw string) {
			if err := os.Remove(filepath.Join(hw, "mem", "iris_wout.mem")); err != nil {
				t.Fatal(err)
			}
		}, "mem/iris_wout.mem is missing"},
	}
	for _, e := range edits {
		hw := filepath.Join(dir, strings.ReplaceAll(e.name, " ", "_"))
		if code, _, errs := run(t, "emit", m, "--parallel", "4", "--vectors", "8", "--system", "zynq", "--reloadable-readout", "-o", hw); code != 0 {
			t.Fatalf("emit: %s", errs)
		}
		e.change(t, hw)
		for _, args := range [][]string{
			{"sim", hw, "--data", iris},
			{"power", hw},
			{"synth", hw},
			{"weights", m, "--design", hw, "-o", filepath.Join(dir, "r.bin")},
			{"verify", hw, "--steps", "model"},
		} {
			code, _, errs := run(t, args...)
			if code == 0 || !strings.Contains(errs, e.want) {
				t.Errorf("%s: %v: exit %d, stderr %q; want a failure naming %q", e.name, args[0], code, errs, e.want)
			}
		}
	}
}
