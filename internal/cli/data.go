package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
)

// examplePrefix selects an embedded example data set: --data example:iris.
const examplePrefix = "example:"

// dataHelp documents the --data forms shared by the commands.
const dataHelp = `--data takes a CSV file (header row, numeric features, class label in the last
column or the one --label-column names), a UCI-121 collection folder together with
--dataset NAME, or an embedded example: example:iris or example:breast-cancer-wisc.
A first row of numbers only is refused as a missing header; a label column with
as many classes as rows, or that looks continuous, gets a warning.`

// testNormHelp documents --test-norm.
const testNormHelp = "two-file datasets: normalise the test file with its own min/max (own, the published convention), " +
	"the training file's (train), or its own only when the two files were standardised differently, " +
	"a feature constant in the test file then at the training rows' median (auto; docs/protocol.md)"

// loadLabelledColumn loads labelled data from a CSV file, an embedded example
// or a dataset of a UCI-121 collection folder (all rows of its data file); a
// CSV's label column is named by --label-column (a header name or a 1-based
// number; "" is the last column).
func loadLabelledColumn(dataPath, name, labelCol string) (*dataset.Dataset, error) {
	return loadLabelled(dataPath, name, dataset.CSVOptions{LabelColumn: labelCol})
}

// loadTestColumn loads a labelled file that is scored against a model's
// classes (--test, predict --score): one class is enough.
func loadTestColumn(path, labelCol string) (*dataset.Dataset, error) {
	return loadLabelled(path, "", dataset.CSVOptions{LabelColumn: labelCol, OneClass: true})
}

func loadLabelled(dataPath, name string, opt dataset.CSVOptions) (*dataset.Dataset, error) {
	labelCol := opt.LabelColumn
	if ex, ok := strings.CutPrefix(dataPath, examplePrefix); ok {
		file := ex + ".csv"
		for _, n := range examples.Names() {
			if n == file {
				return dataset.LoadCSVFS(examples.FS, file, opt)
			}
		}
		var names []string
		for _, n := range examples.Names() {
			names = append(names, examplePrefix+strings.TrimSuffix(n, path.Ext(n)))
		}
		return nil, usagef("unknown example %q (have %s)", dataPath, strings.Join(names, ", "))
	}
	st, err := os.Stat(dataPath)
	if err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	if st.IsDir() {
		if name == "" {
			return nil, usagef("--data %s is a folder: name a dataset of the collection with --dataset", dataPath)
		}
		if labelCol != "" {
			return nil, usagef("--label-column applies to a CSV file; a collection's label is its last column")
		}
		u, err := dataset.LoadUCI(dataPath, name)
		if err != nil {
			return nil, err
		}
		return u.Data, nil
	}
	if name != "" {
		return nil, usagef("--dataset goes with a collection folder, but --data %s is a file", dataPath)
	}
	d, err := dataset.LoadCSV(dataPath, opt)
	return d, labelHint(err)
}

// labelHint adds to a CSV error about text in a feature column the hint that
// the column may be the class label.
func labelHint(err error) error {
	var pe *dataset.ParseError
	if errors.As(err, &pe) && pe.Name != "" && pe.Line > 0 && strings.Contains(pe.Err.Error(), "not a number") {
		return fmt.Errorf("%w (if %q is the class label: --label-column %s)", err, pe.Name, pe.Name)
	}
	return err
}

// readLabelledCSV reads a labelled CSV --data once and returns its bytes with
// the dataset they hold, for a command that needs both (build hashes, splits
// and reports the bytes it parsed): a pipe (/dev/stdin, <(…)) can be read
// only once. dataPath may name an example (example:NAME).
func readLabelledCSV(dataPath, labelCol string) ([]byte, *dataset.Dataset, error) {
	var src []byte
	if ex, ok := strings.CutPrefix(dataPath, examplePrefix); ok {
		if _, err := loadLabelledColumn(dataPath, "", labelCol); err != nil {
			return nil, nil, err // an unknown example, or its own error
		}
		var err error
		if src, err = fs.ReadFile(examples.FS, ex+".csv"); err != nil {
			return nil, nil, fmt.Errorf("--data %s: %w", dataPath, err)
		}
	} else {
		if st, err := os.Stat(dataPath); err == nil && st.IsDir() {
			return nil, nil, usagef("--data %s is a folder: want a CSV file", dataPath)
		}
		var err error
		if src, err = os.ReadFile(dataPath); err != nil {
			return nil, nil, fmt.Errorf("--data: %w", err)
		}
	}
	d, err := dataset.ReadCSV(bytes.NewReader(src), dataPath, dataset.CSVOptions{LabelColumn: labelCol})
	if err != nil {
		return nil, nil, labelHint(err)
	}
	base := filepath.Base(strings.TrimPrefix(dataPath, examplePrefix))
	d.Name = strings.TrimSuffix(base, filepath.Ext(base))
	return src, d, nil
}

// keepClasses restricts a labelled dataset to the named classes, relabelled in
// the order given (e.g. --classes 0,1,2,3 turns pendigits into a 4-class task).
func keepClasses(d *dataset.Dataset, names []string) (*dataset.Dataset, error) {
	if len(names) < 2 {
		return nil, usagef("--classes needs at least two class names, got %d", len(names))
	}
	newLabel := map[int]int{}
	for i, n := range names {
		c := slices.Index(d.ClassNames, n)
		if c < 0 {
			return nil, usagef("--classes: %s has no class %q (classes: %s)", d.Name, n, strings.Join(d.ClassNames, ", "))
		}
		if _, dup := newLabel[c]; dup {
			return nil, usagef("--classes: %q given twice", n)
		}
		newLabel[c] = i
	}
	var idx []int
	for r, y := range d.Y {
		if _, ok := newLabel[y]; ok {
			idx = append(idx, r)
		}
	}
	out := d.Subset(idx)
	for r, y := range out.Y {
		out.Y[r] = newLabel[y]
	}
	out.ClassNames = append([]string(nil), names...)
	out.Name = fmt.Sprintf("%s-%s", d.Name, strings.Join(names, ""))
	return out, nil
}

// ensureDir creates dir (and its parents) if needed.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}
