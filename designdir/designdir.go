// Package designdir owns an emitted design directory: its layout, how it is
// installed (built beside its final place and renamed into it, with a
// manifest of every file), and how it is read back (Open), once, with every
// check every reader needs. synth, weights, verify, sim and power read a
// design directory through Open only.
//
// What Open checks:
//   - DIR holds the marker file of hdlgen emit (MarkerFile);
//   - DIR/model.json is a valid model (the strict reader of package model);
//   - DIR/design.json is, byte for byte, the plan derived from that model
//     with the options design.json records (P, pipeline rules, ROM style,
//     input register, …): an edited P, width or latency is refused, with
//     the fields that differ named;
//   - every file the manifest (ManifestFile) lists is present, and
//     model.json and design.json are unchanged since the emit (a directory
//     emitted before manifests existed has none, and is checked without).
//
// Other files may have been edited (a mutation test flips a ROM bit on
// purpose): Modified lists them, and CheckROMs compares DIR/mem with the ROM
// contents the model gives (verify's model step).
package designdir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// The layout of a design directory (docs/rtl-interface.md §1).
const (
	// MarkerFile marks a directory written by hdlgen emit, which the next
	// emit into it may replace without asking.
	MarkerFile = ".hdlgen-emit"
	// ManifestFile lists every file of the emit with its SHA-256.
	ManifestFile = ".hdlgen-files"
	// ModelFile is the model the design was emitted from.
	ModelFile = "model.json"
	// PlanFile is the design's plan (plan.Plan.JSON).
	PlanFile = "design.json"
)

// ErrNotEmitted is wrapped by Open's error for a directory that hdlgen emit
// did not write.
var ErrNotEmitted = errors.New("not a design directory written by hdlgen emit")

// Dir is an emitted design directory, read and checked by Open.
type Dir struct {
	Path      string       // absolute
	Model     *model.Model // DIR/model.json
	ModelJSON []byte
	Plan      *plan.Plan   // derived again from Model; its JSON is DIR/design.json
	Options   plan.Options // the options design.json records
	// Manifest maps every file of the emit (DIR-relative, slash-separated)
	// to its SHA-256 in hex; nil for a directory emitted before manifests.
	Manifest map[string]string
}

// Open reads and checks the design directory dir (see the package
// documentation for what it checks).
func Open(dir string) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("design %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("design %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("design %s: not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(abs, MarkerFile)); err != nil {
		return nil, fmt.Errorf("design %s: %w (no %s; run hdlgen emit first)", dir, ErrNotEmitted, MarkerFile)
	}
	d := &Dir{Path: abs}
	if d.Manifest, err = readManifest(abs); err != nil {
		return nil, fmt.Errorf("design %s: %w", dir, err)
	}
	modelPath := filepath.Join(abs, ModelFile)
	if d.ModelJSON, err = os.ReadFile(modelPath); err != nil {
		return nil, fmt.Errorf("design %s: %w", dir, err)
	}
	if d.Model, err = model.Unmarshal(d.ModelJSON); err != nil {
		return nil, fmt.Errorf("design %s: %s: %w", dir, ModelFile, err)
	}
	planJSON, err := os.ReadFile(filepath.Join(abs, PlanFile))
	if err != nil {
		return nil, fmt.Errorf("design %s: %w", dir, err)
	}
	if d.Options, err = plan.RecordedOptions(planJSON); err != nil {
		return nil, fmt.Errorf("design %s: %s: %w", dir, PlanFile, err)
	}
	if d.Plan, err = plan.New(d.Model, d.Options); err != nil {
		return nil, fmt.Errorf("design %s: %s does not give the design of %s: %w", dir, ModelFile, PlanFile, err)
	}
	want, err := d.Plan.JSON()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(want, planJSON) {
		return nil, fmt.Errorf("design %s: %s was not emitted from %s: %s", dir, PlanFile, ModelFile, JSONDiff(want, planJSON))
	}
	if d.Manifest != nil {
		for name, content := range map[string][]byte{ModelFile: d.ModelJSON, PlanFile: planJSON} {
			if sum, ok := d.Manifest[name]; ok && sum != sha(content) {
				return nil, fmt.Errorf("design %s: %s was changed after the emit (its SHA-256 differs from %s's)", dir, name, ManifestFile)
			}
		}
		var missing []string
		for _, name := range slices.Sorted(mapKeys(d.Manifest)) {
			if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(name))); err != nil {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("design %s: %s missing (listed in %s; emit the design again)", dir, listed(missing), ManifestFile)
		}
	}
	return d, nil
}

// File returns the path of a DIR-relative, slash-separated name.
func (d *Dir) File(name string) string { return filepath.Join(d.Path, filepath.FromSlash(name)) }

// Modified returns the files of the manifest whose content differs from the
// emit's (sorted); nil without a manifest.
func (d *Dir) Modified() ([]string, error) {
	var out []string
	for _, name := range slices.Sorted(mapKeys(d.Manifest)) {
		b, err := os.ReadFile(d.File(name))
		if err != nil {
			return nil, fmt.Errorf("design %s: %w", d.Path, err)
		}
		if sha(b) != d.Manifest[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// CheckROMs compares every ROM file of DIR/mem with the contents the model
// gives (plan.Plan.ROMFiles): a missing or edited ROM is an error naming it
// and, for an edit, the first word that differs.
func (d *Dir) CheckROMs() error {
	want := d.Plan.ROMFiles(d.Model)
	for _, name := range slices.Sorted(mapKeys(want)) {
		got, err := os.ReadFile(d.File(name))
		if err != nil {
			return fmt.Errorf("design %s: ROM %s: %w", d.Path, name, err)
		}
		if bytes.Equal(got, want[name]) {
			continue
		}
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want[name]), "\n")
		for i := range max(len(gl), len(wl)) {
			if i >= len(gl) || i >= len(wl) || gl[i] != wl[i] {
				return fmt.Errorf("design %s: ROM %s differs from %s's contents at word %d (line %d): %q, want %q",
					d.Path, name, ModelFile, i, i+1, at(gl, i), at(wl, i))
			}
		}
	}
	return nil
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}

// readManifest reads DIR/ManifestFile: nil when absent.
func readManifest(dir string) (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 || name == "" || CheckRel(name) != nil {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <path>\", got %q", ManifestFile, i+1, line)
		}
		m[name] = sum
	}
	return m, nil
}

// manifest renders the manifest of files.
func manifest(files map[string][]byte) []byte {
	var b bytes.Buffer
	for _, name := range slices.Sorted(mapKeys(files)) {
		fmt.Fprintf(&b, "%s  %s\n", sha(files[name]), name)
	}
	return b.Bytes()
}

// sha is the SHA-256 of content in hex.
func sha(content []byte) string {
	s := sha256.Sum256(content)
	return hex.EncodeToString(s[:])
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// listed names files in a message: "a", "a and b", "a, b and 3 more".
func listed(names []string) string {
	switch n := len(names); {
	case n == 1:
		return names[0] + " is"
	case n <= 3:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1] + " are"
	default:
		return fmt.Sprintf("%s, %s and %d more are", names[0], names[1], n-2)
	}
}

// JSONDiff names the first top-level fields (at most three) in which two
// design.json texts differ: want (derived from the model) and got (the file).
func JSONDiff(want, got []byte) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(want, &a) != nil || json.Unmarshal(got, &b) != nil {
		return "the files differ"
	}
	keys := slices.Collect(mapKeys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		if !bytes.Equal(compact(a[k]), compact(b[k])) {
			diffs = append(diffs, fmt.Sprintf("%s is %s in %s, %s from %s", k, orNone(compact(b[k])), PlanFile, orNone(compact(a[k])), ModelFile))
		}
	}
	if len(diffs) == 0 {
		return "the files differ in layout"
	}
	return strings.Join(diffs[:min(3, len(diffs))], "; ")
}

func compact(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

func orNone(b []byte) string {
	if len(b) == 0 {
		return "absent"
	}
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}
