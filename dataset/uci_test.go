package dataset

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func nan() float64 { return math.NaN() }

// files maps paths relative to a collection folder to their content.
type files map[string]string

const toyTxt = "n_entradas= 2\nn_clases= 3\nn_arquivos= 1\nfich1= toy_R.dat\nn_patrons1= 6\n" +
	"n_patrons_entrena= 3\nn_patrons_valida= 3\nn_conxuntos= 1\n"

const toyDat = "\tf1\tf2\tclase\n" +
	"1\t0.5\t-1\t0\n" +
	"2\t1.5\t2\t1\n" +
	"3\t-0.25\t3e-2\t2\n" +
	"4\t0\t1\t0\n" +
	"5\t2\t2\t1\n" +
	"6\t3\t3\t2\n"

const toyKFold = "2 3 4 5 \n0 1 \n0 1 4 5 \n2 3 \n0 1 2 3 \n4 5 \n1 2 3 4 \n0 5 \n"

const duoTxt = "n_entradas= 1\nn_clases= 2\nn_arquivos= 2\nfich1= duo_train_R.dat\nn_patrons1= 4\n" +
	"fich2= duo_test_R.dat\nn_patrons2= 2\nn_patrons_entrena= 2\nn_patrons_valida= 2\nn_conxuntos= 1\n"

// collection returns a valid collection of two datasets: toy (one file,
// K=2, L=3, 6 rows) and duo (train file of 4 rows, test file of 2 rows in
// which class 0 does not occur).
func collection() files {
	return files{
		"toy/toy.txt":             toyTxt,
		"toy/toy_R.dat":           toyDat,
		"toy/conxuntos.dat":       "0 2 4 \n1 3 5 \n",
		"toy/conxuntos_kfold.dat": toyKFold,
		"duo/duo.txt":             duoTxt,
		"duo/duo_train_R.dat":     "\tf1\tclase\n1\t1\t0\n2\t2\t1\n3\t3\t0\n4\t4\t1\n",
		"duo/duo_test_R.dat":      "\tf1\tclase\n1\t-1\t1\n2\t-2\t1\n",
		"duo/conxuntos.dat":       "3 0\n1 2\n",
		"duo/conxuntos_kfold.dat": "1 2 3\n0\n0 2 3\n1\n0 1 3\n2\n0 1 2\n3\n",
		"README.md":               "not a dataset",
		"notes/other.txt":         "a folder without notes.txt is not a dataset",
	}
}

func (fs files) write(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range fs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestListUCI(t *testing.T) {
	dir := collection().write(t)
	got, err := ListUCI(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"duo", "toy"}, got); diff != "" {
		t.Errorf("ListUCI (-want +got):\n%s", diff)
	}
	if _, err := ListUCI(filepath.Join(dir, "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ListUCI of a missing folder: %v, want fs.ErrNotExist", err)
	}
}

func TestLoadUCI(t *testing.T) {
	dir := collection().write(t)
	toy, err := LoadUCI(dir, "toy")
	if err != nil {
		t.Fatal(err)
	}
	want := &UCIDataset{
		Meta: UCIMeta{Name: "toy", Features: 2, Classes: 3, TrainFile: "toy_R.dat", TrainRows: 6, SearchTrain: 3, SearchVal: 3},
		Data: &Dataset{
			Name: "toy", FeatureNames: []string{"f1", "f2"}, LabelName: "clase", ClassNames: []string{"0", "1", "2"},
			X: []float64{0.5, -1, 1.5, 2, -0.25, 0.03, 0, 1, 2, 2, 3, 3},
			Y: []int{0, 1, 2, 0, 1, 2},
		},
		Search: Split{Train: []int{0, 2, 4}, Test: []int{1, 3, 5}},
		Folds: []Split{
			{Train: []int{2, 3, 4, 5}, Test: []int{0, 1}},
			{Train: []int{0, 1, 4, 5}, Test: []int{2, 3}},
			{Train: []int{0, 1, 2, 3}, Test: []int{4, 5}},
			{Train: []int{1, 2, 3, 4}, Test: []int{0, 5}},
		},
	}
	if diff := cmp.Diff(want, toy); diff != "" {
		t.Errorf("LoadUCI(toy) (-want +got):\n%s", diff)
	}
	if toy.HasTestFile() {
		t.Errorf("toy: HasTestFile = true")
	}
	if err := toy.Data.Validate(); err != nil {
		t.Errorf("toy: %v", err)
	}

	duo, err := LoadUCI(dir, "duo")
	if err != nil {
		t.Fatal(err)
	}
	wantDuo := &UCIDataset{
		Meta: UCIMeta{Name: "duo", Features: 1, Classes: 2, TrainFile: "duo_train_R.dat", TrainRows: 4,
			TestFile: "duo_test_R.dat", TestRows: 2, SearchTrain: 2, SearchVal: 2},
		Data: &Dataset{Name: "duo", FeatureNames: []string{"f1"}, LabelName: "clase", ClassNames: []string{"0", "1"},
			X: []float64{1, 2, 3, 4}, Y: []int{0, 1, 0, 1}},
		TestData: &Dataset{Name: "duo", FeatureNames: []string{"f1"}, LabelName: "clase", ClassNames: []string{"0", "1"},
			X: []float64{-1, -2}, Y: []int{1, 1}},
		Search: Split{Train: []int{3, 0}, Test: []int{1, 2}},
		Folds: []Split{
			{Train: []int{1, 2, 3}, Test: []int{0}},
			{Train: []int{0, 2, 3}, Test: []int{1}},
			{Train: []int{0, 1, 3}, Test: []int{2}},
			{Train: []int{0, 1, 2}, Test: []int{3}},
		},
	}
	if diff := cmp.Diff(wantDuo, duo); diff != "" {
		t.Errorf("LoadUCI(duo) (-want +got):\n%s", diff)
	}
	if !duo.HasTestFile() {
		t.Errorf("duo: HasTestFile = false")
	}
}

// TestLoadUCILenient checks the accepted variations: CRLF line ends,
// spaces around fields, no final newline, trailing blank lines.
func TestLoadUCILenient(t *testing.T) {
	fs := collection()
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	fs["toy/toy.txt"] = crlf(toyTxt)
	fs["toy/toy_R.dat"] = crlf(strings.Replace(toyDat, "1\t0.5\t-1\t0", "1\t 0.5 \t-1 \t 0 ", 1)) + "\r\n\r\n"
	fs["toy/conxuntos.dat"] = "0\t2 4\r\n 1  3 5"
	fs["toy/conxuntos_kfold.dat"] = toyKFold + "\n  \n"
	u, err := LoadUCI(fs.write(t), "toy")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Split{Train: []int{0, 2, 4}, Test: []int{1, 3, 5}}, u.Search); diff != "" {
		t.Errorf("search split (-want +got):\n%s", diff)
	}
	if u.Data.X[0] != 0.5 || u.Data.M() != 6 {
		t.Errorf("X[0], M = %v, %d; want 0.5, 6", u.Data.X[0], u.Data.M())
	}
}

func TestLoadUCIErrors(t *testing.T) {
	toyR := filepath.Join("toy", "toy_R.dat")
	conx := filepath.Join("toy", "conxuntos.dat")
	kfold := filepath.Join("toy", "conxuntos_kfold.dat")
	txt := filepath.Join("toy", "toy.txt")
	set := func(path, content string) func(files) {
		return func(fs files) { fs[path] = content }
	}
	replace := func(path, old, new string) func(files) {
		return func(fs files) {
			if !strings.Contains(fs[path], old) {
				panic("test setup: " + old + " not in " + path)
			}
			fs[path] = strings.Replace(fs[path], old, new, 1)
		}
	}
	for _, tc := range []struct {
		name   string
		ds     string
		modify func(files)
		want   []string // substrings of the message
		is     error    // if non-nil, errors.Is must hold
	}{
		// data file
		{"row count", "toy", replace("toy/toy.txt", "n_patrons1= 6", "n_patrons1= 7"),
			[]string{toyR + ": 6 data rows, but n_patrons1 in toy.txt is 7"}, nil},
		{"short row", "toy", replace("toy/toy_R.dat", "2\t1.5\t2\t1", "2\t1.5\t1"),
			[]string{toyR + ":3: wrong number of columns: got 3, want 4"}, nil},
		{"long row", "toy", replace("toy/toy_R.dat", "2\t1.5\t2\t1", "2\t1.5\t2\t1\t"),
			[]string{toyR + ":3: wrong number of columns: got 5, want 4"}, nil},
		{"header columns", "toy", replace("toy/toy_R.dat", "\tf1\tf2\tclase", "\tf1\tclase"),
			[]string{toyR + ":1: header: wrong number of columns: got 3, want 4"}, nil},
		{"header first cell", "toy", replace("toy/toy_R.dat", "\tf1\tf2\tclase", "id\tf1\tf2\tclase"),
			[]string{toyR + `:1: field 1: header: first cell must be empty, got "id"`}, nil},
		{"header duplicate", "toy", replace("toy/toy_R.dat", "\tf1\tf2\tclase", "\tf1\tf1\tclase"),
			[]string{toyR + ":1: field 3 (f1): header: duplicate feature name (also field 2)"}, nil},
		{"non-numeric", "toy", replace("toy/toy_R.dat", "3\t-0.25\t3e-2", "3\t-0.25\t3e-2x"),
			[]string{toyR + `:4: field 3 (f2): not a number: "3e-2x"`}, nil},
		{"NaN", "toy", replace("toy/toy_R.dat", "3\t-0.25", "3\tNaN"),
			[]string{toyR + `:4: field 2 (f1): not a finite number: "NaN"`}, nil},
		{"Inf", "toy", replace("toy/toy_R.dat", "3\t-0.25", "3\t-Inf"),
			[]string{toyR + `:4: field 2 (f1): not a finite number: "-Inf"`}, nil},
		{"overflow", "toy", replace("toy/toy_R.dat", "3\t-0.25", "3\t1e999"),
			[]string{toyR + `:4: field 2 (f1): value out of float64 range: "1e999"`}, nil},
		{"empty value", "toy", replace("toy/toy_R.dat", "3\t-0.25", "3\t"),
			[]string{toyR + `:4: field 2 (f1): not a number: ""`}, nil},
		{"label high", "toy", replace("toy/toy_R.dat", "6\t3\t3\t2", "6\t3\t3\t3"),
			[]string{toyR + ":7: field 4 (clase): label 3 outside [0,3)"}, nil},
		{"label negative", "toy", replace("toy/toy_R.dat", "6\t3\t3\t2", "6\t3\t3\t-1"),
			[]string{toyR + ":7: field 4 (clase): label -1 outside [0,3)"}, nil},
		{"label not integer", "toy", replace("toy/toy_R.dat", "6\t3\t3\t2", "6\t3\t3\t2.0"),
			[]string{toyR + `:7: field 4 (clase): label "2.0" is not an integer`}, nil},
		{"row number", "toy", replace("toy/toy_R.dat", "4\t0\t1\t0", "7\t0\t1\t0"),
			[]string{toyR + ":5: field 1: row number 7, want 4"}, nil},
		{"row number text", "toy", replace("toy/toy_R.dat", "4\t0\t1\t0", "four\t0\t1\t0"),
			[]string{toyR + `:5: field 1: row number "four" is not an integer`}, nil},
		{"blank line", "toy", replace("toy/toy_R.dat", "4\t0\t1\t0\n", "\n4\t0\t1\t0\n"),
			[]string{toyR + ":5: blank line before the end of the file"}, nil},
		{"empty data file", "toy", set("toy/toy_R.dat", ""),
			[]string{toyR + ": empty file (no header line)"}, nil},
		{"missing data file", "toy", func(fs files) { delete(fs, "toy/toy_R.dat") },
			[]string{"dataset: toy: data file ", toyR + " missing"}, ErrDataFileMissing},
		{"missing test file", "duo", func(fs files) { delete(fs, "duo/duo_test_R.dat") },
			[]string{filepath.Join("duo", "duo_test_R.dat") + " missing"}, ErrDataFileMissing},
		{"test file rows", "duo", replace("duo/duo.txt", "n_patrons2= 2", "n_patrons2= 3"),
			[]string{filepath.Join("duo", "duo_test_R.dat") + ": 2 data rows, but n_patrons2 in duo.txt is 3"}, nil},
		{"test file label", "duo", replace("duo/duo_test_R.dat", "2\t-2\t1", "2\t-2\t2"),
			[]string{filepath.Join("duo", "duo_test_R.dat") + ":3: field 3 (clase): label 2 outside [0,2)"}, nil},

		// metadata
		{"missing metadata", "toy", func(fs files) { delete(fs, "toy/toy.txt") },
			[]string{"dataset: toy: metadata: open ", txt}, fs.ErrNotExist},
		{"missing key", "toy", replace("toy/toy.txt", "n_clases= 3\n", ""),
			[]string{txt + ": n_clases: missing key"}, nil},
		{"bad number", "toy", replace("toy/toy.txt", "n_entradas= 2", "n_entradas= two"),
			[]string{txt + `:1: n_entradas: "two" is not an integer`}, nil},
		{"zero features", "toy", replace("toy/toy.txt", "n_entradas= 2", "n_entradas= 0"),
			[]string{txt + ":1: n_entradas: 0 is less than 1"}, nil},
		{"three files", "toy", replace("toy/toy.txt", "n_arquivos= 1", "n_arquivos= 3"),
			[]string{txt + ":3: n_arquivos: 3 data files, want 1 or 2"}, nil},
		{"no equals", "toy", replace("toy/toy.txt", "n_clases= 3", "n_clases 3"),
			[]string{txt + `:2: want "key= value", got "n_clases 3"`}, nil},
		{"duplicate key", "toy", replace("toy/toy.txt", "n_clases= 3", "n_clases= 3\nn_clases= 4"),
			[]string{txt + ":3: n_clases: duplicate key (also line 2)"}, nil},
		{"file outside folder", "toy", replace("toy/toy.txt", "fich1= toy_R.dat", "fich1= ../toy_R.dat"),
			[]string{txt + `:4: fich1: file name "../toy_R.dat" is not a plain file name`}, nil},
		{"missing fich2", "duo", replace("duo/duo.txt", "fich2= duo_test_R.dat\n", ""),
			[]string{filepath.Join("duo", "duo.txt") + ": fich2: missing key"}, nil},

		// partitions
		{"missing conxuntos", "toy", func(fs files) { delete(fs, "toy/conxuntos.dat") },
			[]string{"dataset: toy: partition: open ", conx}, fs.ErrNotExist},
		{"missing kfold", "toy", func(fs files) { delete(fs, "toy/conxuntos_kfold.dat") },
			[]string{"dataset: toy: partition: open ", kfold}, fs.ErrNotExist},
		{"index range", "toy", set("toy/conxuntos.dat", "0 2 4\n1 3 6\n"),
			[]string{conx + ":2: field 3: index 6 out of range [0,6)"}, nil},
		{"index negative", "toy", set("toy/conxuntos.dat", "0 2 -4\n1 3 5\n"),
			[]string{conx + ":1: field 3: index -4 out of range [0,6)"}, nil},
		{"index text", "toy", set("toy/conxuntos.dat", "0 2 4\n1 x3 5\n"),
			[]string{conx + `:2: field 2: index "x3" is not an integer`}, nil},
		{"index duplicate", "toy", set("toy/conxuntos.dat", "0 2 4\n1 3 1\n"),
			[]string{conx + ":2: field 3: index 1 duplicated (first at field 1)"}, nil},
		{"train/val overlap", "toy", set("toy/conxuntos.dat", "0 2 4\n1 3 2\n"),
			[]string{conx + ":2: field 3: index 2 is also in the list on line 1"}, nil},
		{"train size", "toy", set("toy/conxuntos.dat", "0 2\n1 3 5\n"),
			[]string{conx + ":1: 2 indices, but n_patrons_entrena in toy.txt is 3"}, nil},
		{"val size", "toy", set("toy/conxuntos.dat", "0 2 4\n1 3\n"),
			[]string{conx + ":2: 2 indices, but n_patrons_valida in toy.txt is 3"}, nil},
		{"one line", "toy", set("toy/conxuntos.dat", "0 2 4\n"),
			[]string{conx + ": 1 lines of indices, want 2"}, nil},
		{"extra line", "toy", set("toy/conxuntos.dat", "0 2 4\n1 3 5\n0\n"),
			[]string{conx + ":3: extra line: want 2 lines of indices"}, nil},
		{"kfold lines", "toy", set("toy/conxuntos_kfold.dat", toyKFold[:strings.LastIndex(toyKFold[:len(toyKFold)-1], "\n")+1]),
			[]string{kfold + ": 7 lines of indices, want 8"}, nil},
		{"kfold duplicate", "toy", replace("toy/conxuntos_kfold.dat", "0 1 4 5 \n", "0 1 4 0 \n"),
			[]string{kfold + ":3: field 4: index 0 duplicated (first at field 1)"}, nil},
		{"kfold overlap", "toy", replace("toy/conxuntos_kfold.dat", "0 1 2 3 \n4 5 \n", "0 1 2 3 \n4 3 \n"),
			[]string{kfold + ":6: field 2: index 3 is also in the list on line 5"}, nil},
		{"kfold empty", "toy", replace("toy/conxuntos_kfold.dat", "1 2 3 4 \n0 5 \n", "1 2 3 4 \n \n"),
			[]string{kfold + ":8: empty index list"}, nil},
		{"kfold range", "duo", set("duo/conxuntos_kfold.dat", "1 2 3\n0\n0 2 3\n1\n0 1 3\n2\n0 1 2\n4\n"),
			[]string{filepath.Join("duo", "conxuntos_kfold.dat") + ":8: field 1: index 4 out of range [0,4)"}, nil},

		// names
		{"bad name", "../toy", nil, []string{`dataset: dataset name "../toy" is not a plain file name`}, nil},
		{"unknown name", "nope", nil, []string{"dataset: nope: metadata: open "}, fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := collection()
			if tc.modify != nil {
				tc.modify(c)
			}
			_, err := LoadUCI(c.write(t), tc.ds)
			if err == nil {
				t.Fatalf("LoadUCI succeeded, want an error containing %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
			if tc.is != ErrDataFileMissing && errors.Is(err, ErrDataFileMissing) {
				t.Errorf("errors.Is(%v, ErrDataFileMissing) = true", err)
			}
		})
	}
}

func TestParseErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    ParseError
		want string
	}{
		{ParseError{File: "a.csv", Line: 3, Field: 2, Name: "x", Err: errors.New("bad")}, "dataset: a.csv:3: field 2 (x): bad"},
		{ParseError{File: "a.csv", Line: 3, Field: 2, Err: errors.New("bad")}, "dataset: a.csv:3: field 2: bad"},
		{ParseError{File: "a.txt", Line: 0, Name: "key", Err: errors.New("bad")}, "dataset: a.txt: key: bad"},
		{ParseError{File: "a.dat", Err: errors.New("bad")}, "dataset: a.dat: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
