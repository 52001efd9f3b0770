//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteFileSpecialTargets builds each kind of destination in a temporary
// folder (never a real /dev node) and checks that WriteFile replaces only
// regular files, writes through symbolic links, and leaves everything else as
// it was.
func TestWriteFileSpecialTargets(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) // creates dir/out (and what it needs)
		wantErr string                         // "" means success
		notReg  bool                           // error wraps ErrNotRegular
		file    string                         // with success: the regular file that must hold the data
		link    bool                           // with success: dir/out must still be a symlink
	}{
		{name: "missing", setup: func(*testing.T, string) {}, file: "out"},
		{name: "regular", setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "out"), "old") }, file: "out"},
		{name: "fifo", setup: func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "out"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, wantErr: "refusing to replace a named pipe", notReg: true},
		{name: "directory", setup: func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "out")) },
			wantErr: "refusing to replace a directory", notReg: true},
		{name: "symlink to regular file", setup: func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "real"))
			write(t, filepath.Join(dir, "real", "model.json"), "old")
			symlink(t, filepath.Join("real", "model.json"), filepath.Join(dir, "out"))
		}, file: filepath.Join("real", "model.json"), link: true},
		{name: "chain of symlinks", setup: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "target"), "old")
			symlink(t, "target", filepath.Join(dir, "mid"))
			symlink(t, "mid", filepath.Join(dir, "out"))
		}, file: "target", link: true},
		{name: "symlink to fifo", setup: func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			symlink(t, "pipe", filepath.Join(dir, "out"))
		}, wantErr: "a named pipe", notReg: true},
		{name: "symlink to directory", setup: func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "d"))
			symlink(t, "d", filepath.Join(dir, "out"))
		}, wantErr: "a directory", notReg: true},
		{name: "dangling symlink", setup: func(t *testing.T, dir string) {
			symlink(t, "nowhere", filepath.Join(dir, "out"))
		}, wantErr: "symbolic link to a missing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			before := listing(t, dir)
			out := filepath.Join(dir, "out")
			err := WriteFile(out, []byte("new"), 0o644)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				if got := errors.Is(err, ErrNotRegular); got != tc.notReg {
					t.Errorf("errors.Is(err, ErrNotRegular) = %v, want %v", got, tc.notReg)
				}
				if diff := cmp.Diff(before, listing(t, dir)); diff != "" {
					t.Errorf("a refused write changed the folder (-before +after):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(filepath.Join(dir, tc.file)); err != nil || string(got) != "new" {
				t.Errorf("%s holds %q (%v), want %q", tc.file, got, err, "new")
			}
			fi, err := os.Lstat(out)
			if err != nil {
				t.Fatal(err)
			}
			if isLink := fi.Mode()&fs.ModeSymlink != 0; isLink != tc.link {
				t.Errorf("out is a symlink: %v, want %v", isLink, tc.link)
			}
			for name := range listing(t, dir) {
				if strings.Contains(name, ".tmp-") {
					t.Errorf("temporary file %s left behind", name)
				}
			}
		})
	}
}

// listing maps every path under dir to its type and, for regular files, content.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		desc := d.Type().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(b)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + to
		}
		m[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, old, new string) {
	t.Helper()
	if err := os.Symlink(old, new); err != nil {
		t.Skipf("symlink: %v", err)
	}
}
