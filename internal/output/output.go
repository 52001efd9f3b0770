// Package output is the one guarded writer of hdlgen's commands: a Guard knows
// the paths a command reads and refuses, before any work, every output that
// would destroy one of them; it writes files atomically (package atomicfile),
// so an interrupted or failed command leaves no partial file.
//
// The rules, for an output file:
//   - it must be a path atomicfile can replace (missing, a regular file, or a
//     symbolic link to one; never a directory, pipe or device), in a folder
//     that exists and can be written;
//   - it must not be an input (the same file by os.SameFile, so hard and
//     symbolic links count);
//   - it must not lie inside an input folder (a collection, a design
//     directory).
//
// For an output folder:
//   - it, or the nearest folder above it that exists, must be a folder that
//     can be written (the command creates what is missing);
//   - it must not be an input, hold an input (the folder may be replaced as a
//     whole or have files written into it) or lie inside an input folder;
//     Keep names the one input that may lie inside it because the command
//     writes it back unchanged (emit's DIR/model.json).
//
// And two outputs of one command must not share a path.
//
// Commands declare their inputs and outputs once (internal/cli does it with
// flag annotations) and check them all in one place before they run.
package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
)

// Input is a path a command reads, with the flag or argument that named it.
type Input struct {
	Name string // e.g. "--data" or "model.json"
	Path string // as given; "" and embedded examples (example:NAME) are ignored
}

// Guard holds the inputs of one command, and the outputs it declared.
type Guard struct {
	inputs  []Input
	outputs []Input
}

// NewGuard returns a guard for a command that reads inputs.
func NewGuard(inputs ...Input) *Guard {
	g := &Guard{}
	g.Add(inputs...)
	return g
}

// Add records more inputs (paths discovered while the command runs).
func (g *Guard) Add(inputs ...Input) {
	for _, in := range inputs {
		if !ignored(in.Path) {
			g.inputs = append(g.inputs, in)
		}
	}
}

// AddOutput records an output of the command, refusing one whose path is
// that of an output recorded before: two outputs of one command (-o and
// --cpuprofile, say) written to one file would leave only the last.
func (g *Guard) AddOutput(name, path string) error {
	rp, err := realPath(path)
	if err != nil {
		return &RefusedError{Name: name, Path: path, Reason: ": " + err.Error()}
	}
	for _, o := range g.outputs {
		if ro, err := realPath(o.Path); err == nil && ro == rp || SameFile(o.Path, path) {
			return &RefusedError{Name: name, Path: path, Reason: fmt.Sprintf(" is also the output %s %s: give each output its own path", o.Name, o.Path)}
		}
	}
	g.outputs = append(g.outputs, Input{Name: name, Path: path})
	return nil
}

// Inputs returns the inputs recorded.
func (g *Guard) Inputs() []Input { return append([]Input(nil), g.inputs...) }

// RefusedError is the error for an output the guard refuses: a usage error
// of the command (its flags name the problem).
type RefusedError struct {
	Name, Path string // the output's flag and path
	// Reason completes "NAME PATH": a clause ("is the same file as …") or
	// ": " and a cause.
	Reason string
}

func (e *RefusedError) Error() string { return e.Name + " " + e.Path + e.Reason }

// CheckFile refuses an output file that the rules above forbid.
func (g *Guard) CheckFile(name, path string) error {
	if path == "" {
		return &RefusedError{Name: name, Path: `""`, Reason: ": empty path"}
	}
	target, err := atomicfile.Target(path)
	if err != nil {
		return &RefusedError{Name: name, Path: path, Reason: ": " + strings.TrimPrefix(err.Error(), "write "+path+": ")}
	}
	if err := writableDir(filepath.Dir(target), false); err != nil {
		return &RefusedError{Name: name, Path: path, Reason: ": " + err.Error()}
	}
	out, outErr := os.Stat(path)
	for _, in := range g.inputs {
		fi, err := os.Stat(in.Path)
		if err != nil {
			continue // the command's own loading reports a missing input
		}
		if outErr == nil && os.SameFile(out, fi) {
			return &RefusedError{Name: name, Path: path, Reason: fmt.Sprintf(" is the same file as %s %s: writing it would destroy the input", in.Name, in.Path)}
		}
		if fi.IsDir() && Inside(path, in.Path) {
			return &RefusedError{Name: name, Path: path, Reason: fmt.Sprintf(" lies inside the input folder %s %s: write it elsewhere", in.Name, in.Path)}
		}
	}
	return nil
}

// CheckDir refuses an output folder the command writes files into, when the
// rules above forbid it.
func (g *Guard) CheckDir(name, path string) error {
	return g.checkDir(name, path, "", "the command writes into it")
}

// CheckReplacedDir refuses an output folder the command replaces as a whole,
// when the rules above forbid it; keep is the one input path allowed inside
// it, because the command writes it back unchanged ("" for none).
func (g *Guard) CheckReplacedDir(name, path, keep string) error {
	return g.checkDir(name, path, keep, "the folder is replaced as a whole")
}

func (g *Guard) checkDir(name, path, keep, how string) error {
	if path == "" {
		return &RefusedError{Name: name, Path: `""`, Reason: ": empty path"}
	}
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		return &RefusedError{Name: name, Path: path, Reason: " exists and is not a folder"}
	}
	if err := writableDir(path, true); err != nil {
		return &RefusedError{Name: name, Path: path, Reason: ": " + err.Error()}
	}
	for _, in := range g.inputs {
		fi, err := os.Stat(in.Path)
		if err != nil {
			continue
		}
		if keep != "" && SameFile(in.Path, keep) {
			continue
		}
		if Inside(in.Path, path) {
			return &RefusedError{Name: name, Path: path, Reason: fmt.Sprintf(" holds the input %s %s, and %s: write it elsewhere", in.Name, in.Path, how)}
		}
		if fi.IsDir() && Inside(path, in.Path) {
			return &RefusedError{Name: name, Path: path, Reason: fmt.Sprintf(" lies inside the input folder %s %s: write it elsewhere", in.Name, in.Path)}
		}
	}
	return nil
}

// WriteFile checks path as an output file and writes data to it atomically.
func (g *Guard) WriteFile(name, path string, data []byte) error {
	if err := g.CheckFile(name, path); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// writableDir returns an error unless dir is a folder this process can
// create files in; with create, a missing dir is fine when the nearest
// folder above it that exists is such a folder (it is created there).
func writableDir(dir string, create bool) error {
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s is not a folder", dir)
		case err == nil:
			if err := canWrite(dir); err != nil {
				return fmt.Errorf("cannot write into the folder %s: %w", dir, err)
			}
			return nil
		case !create && errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("the folder %s does not exist", dir)
		case !create:
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("no folder of %s exists", dir)
		}
		dir = parent
	}
}

func ignored(p string) bool { return p == "" || strings.HasPrefix(p, "example:") }

// SameFile reports whether a and b both exist and are the same file.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// Inside reports whether path p is dir or lies under it, once both are made
// absolute with their symbolic links resolved.
func Inside(p, dir string) bool {
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
