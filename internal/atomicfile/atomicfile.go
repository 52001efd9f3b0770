// Package atomicfile writes files so that readers never see a partial file: the
// data goes to a temporary file in the same directory, is synced, and is renamed
// over the destination. An interrupted write leaves at most a stray temporary file
// (named .<base>.tmp-*), never a truncated destination; RemoveStray clears them
// (a study or build folder's exclusive lock does, jobs.LockDir).
//
// # What may be replaced
//
// Renaming over a path replaces whatever is there, so WriteFile first looks at
// the destination (Target):
//
//   - a missing path is created, a regular file is replaced;
//   - a symbolic link is written through, never replaced: the regular file at
//     the end of the link chain is replaced (by a temporary file in its own
//     directory) and the link keeps pointing at it. A link whose chain ends
//     in nothing (dangling) or in anything but a regular file is refused;
//   - anything else (a directory, a named pipe, a device, a socket) is refused
//     with an error that wraps ErrNotRegular and names the kind of file.
//
// The check and the rename are not one atomic step: a destination swapped for
// a special file in between is replaced. Commands call Target early, before
// long work, so that a bad -o fails at once.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRegular is wrapped by the error for a destination that exists and is
// not a regular file (or a symbolic link to one).
var ErrNotRegular = errors.New("not a regular file")

// Target returns the path WriteFile would replace for path: path itself when
// it is missing or a regular file, the final target of a symbolic link chain
// when that is a regular file. Any other destination is an error wrapping
// ErrNotRegular (or, for a dangling link, fs.ErrNotExist).
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", fmt.Errorf("write %s: %w", path, err)
	case fi.Mode().IsRegular():
		return path, nil
	case fi.Mode()&fs.ModeSymlink == 0:
		return "", fmt.Errorf("write %s: refusing to replace a %s: %w", path, kind(fi.Mode()), ErrNotRegular)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("write %s: symbolic link to a missing or unreachable file: %w", path, err)
	}
	rfi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if !rfi.Mode().IsRegular() {
		return "", fmt.Errorf("write %s: symbolic link to %s, a %s: %w", path, real, kind(rfi.Mode()), ErrNotRegular)
	}
	return real, nil
}

// kind names a non-regular file type for error messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "non-regular file"
}

// WriteFile atomically replaces path (see the package documentation for which
// destinations it accepts) with data, mode perm.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dst, err := Target(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(dst)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer Track(tmp.Name())()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// RemoveStray removes the temporary files an interrupted WriteFile left in
// the folder tree dir (named .<base>.tmp-<digits>) and returns how many it
// removed. Only a caller that knows no write is under way there may call it:
// the holder of the folder's exclusive lock (jobs.LockDir).
func RemoveStray(dir string) (int, error) {
	removed := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && isTemp(d.Name()) {
			if err := os.Remove(p); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("remove stray temporary files under %s: %w", dir, err)
	}
	return removed, nil
}

// isTemp reports whether name is one of WriteFile's temporary files.
func isTemp(name string) bool {
	i := strings.LastIndex(name, ".tmp-")
	if !strings.HasPrefix(name, ".") || i < 1 || i+len(".tmp-") == len(name) {
		return false
	}
	for _, c := range name[i+len(".tmp-"):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
