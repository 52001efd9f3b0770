package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Names of the partition files of a UCI-121 dataset folder.
const (
	SearchFile = "conxuntos.dat"       // line 1: training indices, line 2: validation indices
	KFoldFile  = "conxuntos_kfold.dat" // 8 lines: train/test indices of folds 1–4
	NumFolds   = 4
)

// UCIMeta is the content of `<name>.txt` of a UCI-121 dataset.
type UCIMeta struct {
	Name        string // dataset (folder) name
	Features    int    // n_entradas: K
	Classes     int    // n_clases: L
	TrainFile   string // fich1: the data file (the "train file" of two-file datasets)
	TrainRows   int    // n_patrons1: rows of TrainFile
	TestFile    string // fich2: separate test file; "" when n_arquivos = 1
	TestRows    int    // n_patrons2: rows of TestFile; 0 when there is none
	SearchTrain int    // n_patrons_entrena: length of line 1 of conxuntos.dat
	SearchVal   int    // n_patrons_valida: length of line 2 of conxuntos.dat
}

// Split is a pair of disjoint lists of 0-based row indices into
// UCIDataset.Data. For the search split Test holds the validation indices.
type Split struct {
	Train []int
	Test  []int
}

// UCIDataset is one dataset of the UCI-121 collection, fully validated.
type UCIDataset struct {
	Meta UCIMeta
	// Data holds every row of the data file (fich1). All index lists refer
	// to its rows.
	Data *Dataset
	// TestData holds the rows of the separate test file (fich2), or nil.
	// The final evaluation of such a dataset trains on Data and tests on
	// TestData instead of using Folds.
	TestData *Dataset
	// Search is the hyperparameter-search split of conxuntos.dat
	// (Train = line 1, Test = validation = line 2).
	Search Split
	// Folds are the NumFolds cross-validation folds of conxuntos_kfold.dat
	// (fold f: Train = line 2f+1, Test = line 2f+2).
	Folds []Split
}

// HasTestFile reports whether the dataset has a separate test file.
func (u *UCIDataset) HasTestFile() bool { return u.TestData != nil }

// ListUCI returns the names of the datasets in a collection folder, sorted:
// the subfolders <name> that hold a <name>.txt. It does not check the data.
func ListUCI(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dataset: list UCI collection: %w", err)
	}
	var names []string
	for _, e := range entries { // os.ReadDir sorts by name
		name := e.Name()
		if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, name, name+".txt")); err == nil && st.Mode().IsRegular() {
			names = append(names, name)
		}
	}
	return names, nil
}

// checkName rejects names that are not a single path element.
func checkName(what, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return fmt.Errorf("%s %q is not a plain file name", what, name)
	}
	return nil
}

// ReadUCIMeta reads and checks dir/name/name.txt. Lines have the form
// "key= value"; unknown keys and blank lines are ignored. Required keys:
// n_entradas, n_clases, n_arquivos (1 or 2), fich1, n_patrons1,
// n_patrons_entrena, n_patrons_valida, and fich2, n_patrons2 when
// n_arquivos = 2.
func ReadUCIMeta(dir, name string) (*UCIMeta, error) {
	if err := checkName("dataset name", name); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	path := filepath.Join(dir, name, name+".txt")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: metadata: %w", name, err)
	}
	return parseUCIMeta(b, path, name)
}

func parseUCIMeta(b []byte, path, name string) (*UCIMeta, error) {
	type entry struct {
		val  string
		line int
	}
	kv := map[string]entry{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, perr(path, i+1, 0, "", "want \"key= value\", got %q", line)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if prev, dup := kv[key]; dup {
			return nil, perr(path, i+1, 0, key, "duplicate key (also line %d)", prev.line)
		}
		kv[key] = entry{val, i + 1}
	}
	str := func(key string) (string, error) {
		e, ok := kv[key]
		if !ok {
			return "", perr(path, 0, 0, key, "missing key")
		}
		if e.val == "" {
			return "", perr(path, e.line, 0, key, "empty value")
		}
		if err := checkName("file name", e.val); err != nil {
			return "", perr(path, e.line, 0, key, "%v", err)
		}
		return e.val, nil
	}
	num := func(key string, min int) (int, error) {
		e, ok := kv[key]
		if !ok {
			return 0, perr(path, 0, 0, key, "missing key")
		}
		n, ok := parseInt([]byte(e.val))
		if !ok {
			return 0, perr(path, e.line, 0, key, "%q is not an integer", e.val)
		}
		if n < min {
			return 0, perr(path, e.line, 0, key, "%d is less than %d", n, min)
		}
		return n, nil
	}
	m := &UCIMeta{Name: name}
	var err error
	if m.Features, err = num("n_entradas", 1); err != nil {
		return nil, err
	}
	if m.Classes, err = num("n_clases", 1); err != nil {
		return nil, err
	}
	files, err := num("n_arquivos", 1)
	if err != nil {
		return nil, err
	}
	if files > 2 {
		return nil, perr(path, kv["n_arquivos"].line, 0, "n_arquivos", "%d data files, want 1 or 2", files)
	}
	if m.TrainFile, err = str("fich1"); err != nil {
		return nil, err
	}
	if m.TrainRows, err = num("n_patrons1", 1); err != nil {
		return nil, err
	}
	if files == 2 {
		if m.TestFile, err = str("fich2"); err != nil {
			return nil, err
		}
		if m.TestRows, err = num("n_patrons2", 1); err != nil {
			return nil, err
		}
	}
	if m.SearchTrain, err = num("n_patrons_entrena", 1); err != nil {
		return nil, err
	}
	if m.SearchVal, err = num("n_patrons_valida", 1); err != nil {
		return nil, err
	}
	return m, nil
}

// LoadUCI loads and validates the dataset name of the collection folder dir:
// metadata, data file(s), search split and folds (see the package
// documentation for the checks). A data file that does not exist yields a
// *MissingDataError, which matches ErrDataFileMissing.
func LoadUCI(dir, name string) (*UCIDataset, error) {
	meta, err := ReadUCIMeta(dir, name)
	if err != nil {
		return nil, err
	}
	folder := filepath.Join(dir, name)
	metaFile := name + ".txt"
	u := &UCIDataset{Meta: *meta}

	// Check that the data files exist before parsing anything large.
	for _, f := range []string{meta.TrainFile, meta.TestFile} {
		if f == "" {
			continue
		}
		p := filepath.Join(folder, f)
		if _, err := os.Stat(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &MissingDataError{Dataset: name, Path: p, Err: err}
			}
			return nil, fmt.Errorf("dataset: %s: %w", name, err)
		}
	}

	load := func(file string, rows int, key string) (*Dataset, error) {
		p := filepath.Join(folder, file)
		f, err := os.Open(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &MissingDataError{Dataset: name, Path: p, Err: err}
			}
			return nil, fmt.Errorf("dataset: %s: %w", name, err)
		}
		defer f.Close()
		d, err := parseUCIData(f, p, meta.Features, meta.Classes, rows, key+" in "+metaFile)
		if err != nil {
			return nil, err
		}
		d.Name = name
		return d, nil
	}
	if u.Data, err = load(meta.TrainFile, meta.TrainRows, "n_patrons1"); err != nil {
		return nil, err
	}
	if meta.TestFile != "" {
		if u.TestData, err = load(meta.TestFile, meta.TestRows, "n_patrons2"); err != nil {
			return nil, err
		}
	}

	rows := meta.TrainRows
	readLists := func(file string, n int) ([][]int, string, error) {
		p := filepath.Join(folder, file)
		f, err := os.Open(p)
		if err != nil {
			return nil, p, fmt.Errorf("dataset: %s: partition: %w", name, err)
		}
		defer f.Close()
		l, err := ParseIndexLists(f, p, n, rows)
		return l, p, err
	}

	lists, p, err := readLists(SearchFile, 2)
	if err != nil {
		return nil, err
	}
	for i, want := range []struct {
		n   int
		key string
	}{{meta.SearchTrain, "n_patrons_entrena"}, {meta.SearchVal, "n_patrons_valida"}} {
		if len(lists[i]) != want.n {
			return nil, perr(p, i+1, 0, "", "%d indices, but %s in %s is %d", len(lists[i]), want.key, metaFile, want.n)
		}
	}
	if err := checkDisjoint(p, lists[0], 1, lists[1], 2, rows); err != nil {
		return nil, err
	}
	u.Search = Split{Train: lists[0], Test: lists[1]}

	lists, p, err = readLists(KFoldFile, 2*NumFolds)
	if err != nil {
		return nil, err
	}
	u.Folds = make([]Split, NumFolds)
	for f := range u.Folds {
		tr, te := lists[2*f], lists[2*f+1]
		for j, l := range [][]int{tr, te} {
			if len(l) == 0 {
				return nil, perr(p, 2*f+j+1, 0, "", "empty index list")
			}
		}
		if err := checkDisjoint(p, tr, 2*f+1, te, 2*f+2, rows); err != nil {
			return nil, err
		}
		u.Folds[f] = Split{Train: tr, Test: te}
	}
	return u, nil
}
