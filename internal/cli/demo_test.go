package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestDemoMatchesOneByOneCommands: the README lists the demo's steps as
// separate commands; they must write the same files, byte for byte.
func TestDemoMatchesOneByOneCommands(t *testing.T) {
	demo, manual := filepath.Join(t.TempDir(), "demo"), t.TempDir()
	if code, _, errs := run(t, "demo", "--out", demo, "--no-verify"); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errs)
	}
	in := func(name string) string { return filepath.Join(manual, name) }
	steps := [][]string{ // the README's commands, with the paths put under manual
		{"train", "--data", "example:iris", "--n", "50", "--kappa", "3", "--lambda", "4", "--regularizer", "identity", "-o", in("iris.json")},
		{"quantize", in("iris.json"), "--bits", "5", "--data", "example:iris", "-o", in("iris-5bit.json")},
		{"emit", in("iris-5bit.json"), "--parallel", "4", "--axis", "--data", "example:iris", "-o", in("hw")},
	}
	for _, args := range steps {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	n := 0
	err := filepath.WalkDir(demo, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(demo, path)
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(in(rel))
		if err != nil {
			t.Errorf("the commands did not write %s: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs between the demo and the one-by-one commands", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("compared only %d files", n)
	}
}
