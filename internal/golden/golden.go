package golden

import (
	"flag"
	"os"
	"path/filepath"
	"slices"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Updating reports whether the test run was asked to rewrite the golden files.
func Updating() bool { return *update }

// T is the part of testing.TB the helpers use.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Check compares got with the file at path, or rewrites the file under -update.
func Check(t T, path string, got []byte) {
	t.Helper()
	if *update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from the golden file (-golden +got):\n%s", path, diff)
	}
}

// CheckDir compares files (slash-separated dir-relative path → content) with the
// directory dir: the same file list and the same bytes. Under -update it replaces
// dir with files.
func CheckDir(t T, dir string, files map[string][]byte) {
	t.Helper()
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	slices.Sort(names)
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatalf("%v", err)
		}
		for _, f := range names {
			write(t, filepath.Join(dir, filepath.FromSlash(f)), files[f])
		}
		return
	}
	var want []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		want = append(want, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatalf("%v (run go test -update to create the golden files)", err)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("%s: file list (-golden +got):\n%s", dir, diff)
		return
	}
	for _, f := range names {
		Check(t, filepath.Join(dir, filepath.FromSlash(f)), files[f])
	}
}

func write(t T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("%v", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("%v", err)
	}
}
