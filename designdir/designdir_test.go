package designdir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// emit writes a small intRVFL design (P = 4, not dividing N) into a fresh
// directory.
func emit(t *testing.T) (string, *rtl.Report) {
	t.Helper()
	m := randmodel.Random(randmodel.Shape{Arch: model.IntRVFL, K: 3, N: 7, L: 3, Kappa: 3, Bits: 5}, "dd", 1)
	dir := filepath.Join(t.TempDir(), "hw")
	rep, err := rtl.Emit(context.Background(), m, rtl.Options{Options: plan.Options{Parallel: 4}, Vectors: 8, Seed: 1}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, rep
}

func TestOpen(t *testing.T) {
	dir, rep := emit(t)
	d, err := designdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Plan.P != 4 || d.Options.Parallel != 4 || d.Model.N() != 7 {
		t.Errorf("P %d (options %d), N %d; want 4, 4, 7", d.Plan.P, d.Options.Parallel, d.Model.N())
	}
	var listed []string
	for name := range d.Manifest {
		listed = append(listed, name)
	}
	want := slices.DeleteFunc(slices.Clone(rep.Files), func(f string) bool { return f == designdir.ManifestFile })
	if diff := cmp.Diff(slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(listed))); diff != "" {
		t.Errorf("manifest (-emitted files +listed):\n%s", diff)
	}
	if mod, err := d.Modified(); err != nil || len(mod) != 0 {
		t.Errorf("Modified of a fresh emit: %v, %v", mod, err)
	}
	if err := d.CheckROMs(); err != nil {
		t.Errorf("CheckROMs of a fresh emit: %v", err)
	}
}

// TestOpenRefuses: every reader of a design directory (synth, weights,
// verify, sim, power) refuses, with a message naming the problem, a design
// directory whose model and design no longer belong together.
func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   string // regexp
	}{
		{"no marker", remove(designdir.MarkerFile), "not a design directory written by hdlgen emit"},
		{"design.json's P edited 4 → 2", edit(designdir.PlanFile, `"p": 4`, `"p": 2`), `design.json was not emitted from model.json: .*latency is`},
		{"design.json's latency edited", editRe(designdir.PlanFile, `"latency": \d+`, `"latency": 99`), `latency is 99 in design.json`},
		{"model.json truncated", truncate(designdir.ModelFile), `model.json`},
		{"model.json's seed edited", editRe(designdir.ModelFile, `"seed": \d+`, `"seed": 12345`), `(design.json was not emitted|model.json was changed after the emit)`},
		{"a ROM deleted", removeGlob("mem/*_wout.mem"), `mem/dd_wout.mem is missing`},
		{"the testbench deleted", remove("tb/tb_stream.v"), `tb/tb_stream.v is missing`},
		{"manifest garbled", write(designdir.ManifestFile, "not a manifest\n"), `want "<sha256>  <path>"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := emit(t)
			tc.change(t, dir)
			_, err := designdir.Open(dir)
			if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("Open: %v; want an error matching %q", err, tc.want)
			}
		})
	}
}

func TestOpenNotEmitted(t *testing.T) {
	_, err := designdir.Open(t.TempDir())
	if !errors.Is(err, designdir.ErrNotEmitted) {
		t.Errorf("Open of an empty folder: %v, want ErrNotEmitted", err)
	}
}

// TestCheckROMs: an edited ROM word is found and named; the other files'
// edits show in Modified.
func TestCheckROMs(t *testing.T) {
	dir, _ := emit(t)
	d, err := designdir.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := d.Plan.ROM(plan.ROMWout).File
	path := d.File(name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[1] = flipLastDigit(lines[1])
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckROMs(); err == nil || !strings.Contains(err.Error(), name+" differs from model.json's contents at word 1") {
		t.Errorf("CheckROMs: %v", err)
	}
	mod, err := d.Modified()
	if err != nil || !cmp.Equal(mod, []string{name}) {
		t.Errorf("Modified: %v, %v; want [%s]", mod, err, name)
	}
}

// TestInstallRefusesForeignFolder: a non-empty folder emit did not write is
// kept unless force.
func TestInstallRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{designdir.MarkerFile: []byte("m\n"), "a.txt": []byte("a")}
	if _, err := designdir.Install(dir, files, false); err == nil || !strings.Contains(err.Error(), "not written by hdlgen emit") {
		t.Errorf("Install into a foreign folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "mine.txt")); err != nil || string(b) != "keep" {
		t.Errorf("the foreign file: %q, %v", b, err)
	}
	if _, err := designdir.Install(dir, map[string][]byte{"../x": nil, designdir.MarkerFile: nil}, true); err == nil {
		t.Errorf("Install of ../x: no error")
	}
}

func remove(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func removeGlob(pattern string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil || len(m) != 1 {
			t.Fatalf("glob %s: %v %v", pattern, m, err)
		}
		if err := os.Remove(m[0]); err != nil {
			t.Fatal(err)
		}
	}
}

func write(name, content string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func edit(name, old, new string) func(*testing.T, string) {
	return editRe(name, regexp.QuoteMeta(old), new)
}

func editRe(name, re, new string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rx := regexp.MustCompile(re)
		if !rx.Match(b) {
			t.Fatalf("%s has no %s", name, re)
		}
		if err := os.WriteFile(p, rx.ReplaceAll(b, []byte(new)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func truncate(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		if err := os.Truncate(filepath.Join(dir, name), 10); err != nil {
			t.Fatal(err)
		}
	}
}

func flipLastDigit(s string) string {
	const hex = "0123456789abcdef"
	d := strings.IndexByte(hex, s[len(s)-1])
	return s[:len(s)-1] + string(hex[d^1])
}
