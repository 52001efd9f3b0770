package designdir

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// CheckRel rejects a file name that is not a clean DIR-relative path (one
// that could leave DIR).
func CheckRel(name string) error {
	if name == "" || path.IsAbs(name) || path.Clean(name) != name || name == "." || name == ".." ||
		len(name) >= 3 && name[:3] == "../" || filepath.IsAbs(name) {
		return fmt.Errorf("path %q is not a clean DIR-relative path", name)
	}
	return nil
}

// Install writes files (DIR-relative, slash-separated paths → contents) and
// their manifest into a fresh temporary sibling of dir and renames it into
// place, so a failed install leaves dir as it was. It replaces an earlier
// emit; a non-empty dir without the marker is refused unless force. It
// returns dir's absolute path.
func Install(dir string, files map[string][]byte, force bool) (string, error) {
	for name := range files {
		if err := CheckRel(name); err != nil {
			return "", fmt.Errorf("designdir: %w", err)
		}
	}
	if _, ok := files[MarkerFile]; !ok {
		return "", fmt.Errorf("designdir: the files of %s lack the marker %s", dir, MarkerFile)
	}
	files = maps.Clone(files)
	files[ManifestFile] = manifest(files)
	if dir == "" {
		return "", fmt.Errorf("designdir: empty output directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("designdir: output directory %s: %w", dir, err)
	}
	parent, base := filepath.Split(abs)
	if base == "" {
		return "", fmt.Errorf("designdir: refusing to emit into %s", abs)
	}
	exists := false
	switch fi, err := os.Stat(abs); {
	case err == nil && !fi.IsDir():
		return "", fmt.Errorf("designdir: %s exists and is not a directory", abs)
	case err == nil:
		exists = true
		entries, err := os.ReadDir(abs)
		if err != nil {
			return "", fmt.Errorf("designdir: read %s: %w", abs, err)
		}
		if len(entries) > 0 && !force {
			if _, err := os.Stat(filepath.Join(abs, MarkerFile)); err != nil {
				return "", fmt.Errorf("designdir: %s is not empty and was not written by hdlgen emit (no %s); use --force to replace it", abs, MarkerFile)
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("designdir: %w", err)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("designdir: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return "", fmt.Errorf("designdir: %w", err)
	}
	defer atomicfile.Track(tmp)()
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("designdir: %w", err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		if err := CheckRel(name); err != nil {
			return "", fmt.Errorf("designdir: %w", err)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("designdir: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return "", fmt.Errorf("designdir: %w", err)
		}
	}
	if exists {
		old := tmp + ".old"
		if err := os.Rename(abs, old); err != nil {
			return "", fmt.Errorf("designdir: move the previous %s aside: %w", abs, err)
		}
		if err := os.Rename(tmp, abs); err != nil {
			if rerr := os.Rename(old, abs); rerr != nil {
				return "", fmt.Errorf("designdir: install %s: %w (and restoring the previous contents failed: %v; they are in %s)", abs, err, rerr, old)
			}
			return "", fmt.Errorf("designdir: install %s: %w", abs, err)
		}
		ok = true
		if err := os.RemoveAll(old); err != nil {
			return "", fmt.Errorf("designdir: remove the previous contents of %s (%s): %w", abs, old, err)
		}
		return abs, nil
	}
	if err := os.Rename(tmp, abs); err != nil {
		return "", fmt.Errorf("designdir: install %s: %w", abs, err)
	}
	ok = true
	return abs, nil
}
