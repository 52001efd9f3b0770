package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// input is a path a command reads, with the flag (or argument) that named it.
type input struct {
	flag string // e.g. "--data" or "model.json"
	path string // as given; "" and example:NAME are skipped
}

// checkFileOutput refuses, before any work, an output file (-o) that
// atomicfile would refuse (a directory, a named pipe, a device, a dangling
// symbolic link) or that is, or lies inside, one of the inputs: the same file
// (os.SameFile, so hard and symbolic links count) or a file inside an input
// folder (a collection dataset's folder).
func checkFileOutput(flag, out string, inputs ...input) error {
	if out == "" {
		return usagef("%s: empty path", flag)
	}
	if _, err := atomicfile.Target(out); err != nil {
		return usageError{fmt.Errorf("%s %s: %w", flag, out, err)}
	}
	ofi, oerr := os.Stat(out)
	for _, in := range inputs {
		if skipInput(in.path) {
			continue
		}
		ifi, err := os.Stat(in.path)
		if err != nil {
			continue // the command's own loading reports it
		}
		if oerr == nil && os.SameFile(ofi, ifi) {
			return usagef("%s %s is the same file as %s %s: writing it would destroy the input", flag, out, in.flag, in.path)
		}
		if ifi.IsDir() && inside(out, in.path) {
			return usagef("%s %s lies inside the input folder %s %s: write it elsewhere", flag, out, in.flag, in.path)
		}
	}
	return nil
}

// checkDirOutput refuses an output folder that is one of the inputs or holds
// one of them: emit replaces the folder as a whole. keep names the one input
// path that may lie inside it because the command writes it back unchanged
// (DIR/model.json for emit), or "".
func checkDirOutput(flag, out, keep string, inputs ...input) error {
	if out == "" {
		return usagef("%s: empty path", flag)
	}
	for _, in := range inputs {
		if skipInput(in.path) || !exists(in.path) {
			continue
		}
		if keep != "" && sameFile(in.path, keep) {
			continue
		}
		if inside(in.path, out) {
			return usagef("%s %s holds the input %s %s, and the folder is replaced as a whole: write it elsewhere", flag, out, in.flag, in.path)
		}
	}
	return nil
}

func skipInput(p string) bool { return p == "" || strings.HasPrefix(p, examplePrefix) }

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sameFile reports whether a and b both exist and are the same file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// inside reports whether path p is dir or lies under it, once both are made
// absolute with their symbolic links resolved.
func inside(p, dir string) bool {
	rp, err1 := realPath(p)
	rd, err2 := realPath(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(rd, rp)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath makes p absolute and resolves the symbolic links of its longest
// existing prefix (the rest of a path that does not exist yet is kept as is).
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(abs)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", err
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}
