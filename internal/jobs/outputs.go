package jobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Outputs records the files a finished job wrote, so that a resumed run can
// tell whether they are still what the job left: each file's path relative
// to the job's root folder (with forward slashes) and the SHA-256 of its
// bytes, in hex. A job is current only when its fingerprint matches and
// Changed finds nothing: a stored job whose output was deleted or edited
// runs again.
type Outputs map[string]string

// HashOutputs hashes the outputs at paths, relative to root: a file stands
// for itself, a folder for every regular file under it except those for
// which skip (may be nil) reports true (skip gets the path relative to root,
// with forward slashes; a skipped folder is not entered). A missing path is
// an error: a job that succeeded wrote all its outputs.
func HashOutputs(root string, paths []string, skip func(rel string) bool) (Outputs, error) {
	out := Outputs{}
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		err := filepath.WalkDir(full, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if skip != nil && path != full && skip(rel) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			sum, err := hashFile(path)
			if err != nil {
				return err
			}
			out[rel] = sum
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("jobs: output %s: %w", p, err)
		}
	}
	return out, nil
}

// Changed returns the first output (in path order) that is missing or whose
// bytes differ from the recorded hash, with why; "" when every output is as
// recorded. It reads every file, so it costs one pass over the outputs.
func (o Outputs) Changed(root string) (path, why string) {
	for _, rel := range slices.Sorted(maps.Keys(o)) {
		sum, err := hashFile(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return rel, "missing"
		case err != nil:
			return rel, err.Error()
		case sum != o[rel]:
			return rel, "changed since it was written"
		}
	}
	return "", ""
}

// HashFile returns the SHA-256 of the file's bytes, in hex.
func HashFile(path string) (string, error) { return hashFile(path) }

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
