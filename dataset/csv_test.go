package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadCSV(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  CSVOptions
		want *Dataset
	}{
		{
			name: "plain text labels",
			in:   "a,b,class\n1,2,y\n3,4,x\n5,6,y\n",
			want: &Dataset{FeatureNames: []string{"a", "b"}, LabelName: "class", ClassNames: []string{"x", "y"},
				X: []float64{1, 2, 3, 4, 5, 6}, Y: []int{1, 0, 1}},
		},
		{
			name: "BOM CRLF quotes spaces blank lines",
			in:   "\xEF\xBB\xBF\"a\", b ,\"the, class\"\r\n\r\n\" 1.5\",-2e1,\"Y\"\r\n3, 4 , X \r\n",
			want: &Dataset{FeatureNames: []string{"a", "b"}, LabelName: "the, class", ClassNames: []string{"X", "Y"},
				X: []float64{1.5, -20, 3, 4}, Y: []int{1, 0}},
		},
		{
			name: "numeric labels sort numerically",
			in:   "a,c\n1,10\n2,9\n3,-1\n4,9\n5,2.5\n",
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "c", ClassNames: []string{"-1", "2.5", "9", "10"},
				X: []float64{1, 2, 3, 4, 5}, Y: []int{3, 2, 0, 2, 1}},
		},
		{
			name: "mixed labels sort by bytes",
			in:   "a,c\n1,10\n2,9\n3,b\n4,B\n",
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "c", ClassNames: []string{"10", "9", "B", "b"},
				X: []float64{1, 2, 3, 4}, Y: []int{0, 1, 3, 2}},
		},
		{
			name: "NaN label is text",
			in:   "a,c\n1,NaN\n2,1\n",
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "c", ClassNames: []string{"1", "NaN"},
				X: []float64{1, 2}, Y: []int{1, 0}},
		},
		{
			name: "spreadsheet number forms",
			in:   "a,b,c\n1.5E+10,.5,u\n5.,+3,v\n1e-05,-0,u\n-2.25e2,7E3,v\n",
			want: &Dataset{FeatureNames: []string{"a", "b"}, LabelName: "c", ClassNames: []string{"u", "v"},
				X: []float64{1.5e10, 0.5, 5, 3, 1e-5, 0, -225, 7000}, Y: []int{0, 1, 0, 1}},
		},
		{
			name: "Go literal labels are text",
			in:   "a,c\n1,0x1p4\n2,16\n",
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "c", ClassNames: []string{"0x1p4", "16"},
				X: []float64{1, 2}, Y: []int{0, 1}},
		},
		{
			name: "semicolon detected",
			in:   "a;b;c\n1;2;u\n3;4;v\n",
			want: &Dataset{FeatureNames: []string{"a", "b"}, LabelName: "c", ClassNames: []string{"u", "v"},
				X: []float64{1, 2, 3, 4}, Y: []int{0, 1}},
		},
		{
			name: "tab detected, comma inside quotes ignored",
			in:   "\"a,b,c\"\tc\n1\tu\n3\tv\n",
			want: &Dataset{FeatureNames: []string{"a,b,c"}, LabelName: "c", ClassNames: []string{"u", "v"},
				X: []float64{1, 3}, Y: []int{0, 1}},
		},
		{
			name: "explicit separator",
			in:   "a|b;c\n1|u;v\n2|w\n",
			opt:  CSVOptions{Comma: '|'},
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "b;c", ClassNames: []string{"u;v", "w"},
				X: []float64{1, 2}, Y: []int{0, 1}},
		},
		{
			name: "no final newline",
			in:   "a,c\n1,p\n2,q",
			want: &Dataset{FeatureNames: []string{"a"}, LabelName: "c", ClassNames: []string{"p", "q"},
				X: []float64{1, 2}, Y: []int{0, 1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadCSV(strings.NewReader(tc.in), "t.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ReadCSV (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  CSVOptions
		want string
	}{
		{"empty file", "", CSVOptions{}, "dataset: t.csv: empty file: want a header row"},
		{"only BOM and blank lines", "\xEF\xBB\xBF\n\r\n", CSVOptions{}, "dataset: t.csv: empty file: want a header row"},
		{"header only", "a,b,class\n", CSVOptions{}, "dataset: t.csv:1: header only: no data rows"},
		{"header only after blank line", "\na,b,class\n\n", CSVOptions{}, "dataset: t.csv:2: header only: no data rows"},
		{"single column", "class\nx\n", CSVOptions{}, "dataset: t.csv:1: header has 1 column, need at least one feature column and the label column"},
		{"ragged short", "a,b,class\n1,2,x\n1,x\n", CSVOptions{}, "dataset: t.csv:3: wrong number of fields: got 2, want 3 (as in the header)"},
		{"ragged long", "a,b,class\n1,2,x\n1,2,3,x\n", CSVOptions{}, "dataset: t.csv:3: wrong number of fields: got 4, want 3 (as in the header)"},
		{"non-numeric", "a,b,class\n1,2,x\n1,two,y\n", CSVOptions{}, `dataset: t.csv:3: field 2 (b): not a number: "two"`},
		{"decimal comma", "a;b;class\n1;2,5;x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "2,5"`},
		{"NaN", "a,b,class\n1,2,x\nnan,2,y\n", CSVOptions{}, `dataset: t.csv:3: field 1 (a): not a finite number: "nan"`},
		{"+Inf", "a,b,class\n1,+Inf,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a finite number: "+Inf"`},
		{"-Inf", "a,b,class\n1,-infinity,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a finite number: "-infinity"`},
		{"overflow", "a,b,class\n1,1e400,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): value out of float64 range: "1e400"`},
		{"Go digit separator", "a,b,class\n1,1_000,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a decimal number (Go literal forms such as 1_000 or 0x1p4 are not accepted): "1_000"`},
		{"Go hex float", "a,b,class\n0x1p4,1,x\n", CSVOptions{}, `dataset: t.csv:2: field 1 (a): not a decimal number (Go literal forms such as 1_000 or 0x1p4 are not accepted): "0x1p4"`},
		{"Go hex mantissa", "a,b,class\n1,0X1.8P1,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a decimal number (Go literal forms such as 1_000 or 0x1p4 are not accepted): "0X1.8P1"`},
		{"binary literal", "a,b,class\n1,0b1,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "0b1"`},
		{"octal literal", "a,b,class\n1,0o7,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "0o7"`},
		{"Infinity", "a,b,class\n1,Infinity,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a finite number: "Infinity"`},
		{"signed NaN", "a,b,class\n1,-NaN,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a finite number: "-NaN"`},
		{"thousands separator", "a;b;class\n1;1,000;x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "1,000"`},
		{"exponent without digits", "a,b,class\n1,1e,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "1e"`},
		{"lone point", "a,b,class\n1,.,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "."`},
		{"double sign", "a,b,class\n1,--1,x\n", CSVOptions{}, `dataset: t.csv:2: field 2 (b): not a number: "--1"`},
		{"empty feature", "a,b,class\n1,2,x\n1,,y\n", CSVOptions{}, "dataset: t.csv:3: field 2 (b): empty field"},
		{"blank feature", "a,b,class\n1,2,x\n1, \t,y\n", CSVOptions{}, "dataset: t.csv:3: field 2 (b): empty field"},
		{"empty label", "a,b,class\n1,2,x\n1,2,\n", CSVOptions{}, "dataset: t.csv:3: field 3 (class): empty field (class label)"},
		{"single class", "a,b,class\n1,2,x\n3,4,x\n", CSVOptions{}, `dataset: t.csv: field 3 (class): only one class ("x"): need at least two`},
		{"duplicate header", "a,b,a,class\n1,2,3,x\n", CSVOptions{}, "dataset: t.csv:1: field 3 (a): header: duplicate column name (also field 1)"},
		{"duplicate header after trim", "a, a ,class\n1,2,x\n", CSVOptions{}, "dataset: t.csv:1: field 2 (a): header: duplicate column name (also field 1)"},
		{"empty header name", "a,,class\n1,2,x\n", CSVOptions{}, "dataset: t.csv:1: field 2: header: empty column name"},
		{"same number twice", "a,c\n1,1\n2,1.0\n3,2\n", CSVOptions{}, `dataset: t.csv: field 2 (c): class labels "1" and "1.0" are the same number 1: write them identically`},
		{"bare quote", "a,c\n1,x\n2,y\"z\n", CSVOptions{}, `dataset: t.csv:3: byte 4: bare " in non-quoted-field`},
		{"unterminated quote", "a,c\n1,x\n2,\"y\n", CSVOptions{}, `dataset: t.csv:3: byte 6: extraneous or missing " in quoted-field`},
		{"invalid separator", "a,c\n1,x\n", CSVOptions{Comma: '"'}, "dataset: t.csv: csv: invalid field or comment delimiter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadCSV(strings.NewReader(tc.in), "t.csv", tc.opt)
			if err == nil {
				t.Fatalf("ReadCSV succeeded (%+v), want error %q", d, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %q\nwant %q", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
		})
	}
}

func TestReadFeaturesCSV(t *testing.T) {
	const withLabel = "a,b,class\n1,2,x\n3,4,\n"
	for _, tc := range []struct {
		name string
		in   string
		opt  FeatureOptions
		want *Dataset
		err  string
	}{
		{name: "all columns", in: "a,b\n1,2\n3,4\n", opt: FeatureOptions{},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "expected count", in: "a,b\n1,2\n3,4\n", opt: FeatureOptions{Features: 2, LabelName: "class"},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "label column ignored", in: withLabel, opt: FeatureOptions{Features: 2, LabelName: "class"},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "label name differs", in: withLabel, opt: FeatureOptions{Features: 2, LabelName: "species"},
			err: `dataset: t.csv:1: field 3 (class): header has 3 columns, want 2 features; the extra last column is not the label column "species"`},
		{name: "no label name", in: withLabel, opt: FeatureOptions{Features: 2},
			err: "dataset: t.csv:1: header has 3 columns, want 2 feature columns"},
		{name: "too few columns", in: "a\n1\n", opt: FeatureOptions{Features: 2, LabelName: "class"},
			err: "dataset: t.csv:1: header has 1 columns, want 2 feature columns"},
		{name: "all columns numeric", in: withLabel, opt: FeatureOptions{},
			err: `dataset: t.csv:2: field 3 (class): not a number: "x"`},
		{name: "ragged", in: "a,b\n1,2\n3\n", opt: FeatureOptions{Features: 2},
			err: "dataset: t.csv:3: wrong number of fields: got 1, want 2 (as in the header)"},
		{name: "header only", in: "a,b\n", opt: FeatureOptions{Features: 2},
			err: "dataset: t.csv:1: header only: no data rows"},
		{name: "empty", in: "", opt: FeatureOptions{Features: 2},
			err: "dataset: t.csv: empty file: want a header row"},
		{name: "NaN", in: "a,b\n1,NaN\n", opt: FeatureOptions{Features: 2},
			err: `dataset: t.csv:2: field 2 (b): not a finite number: "NaN"`},
		{name: "names in order", in: "a,b\n1,2\n3,4\n", opt: FeatureOptions{Names: []string{"a", "b"}},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "names permuted: reordered", in: "b,a\n2,1\n4,3\n", opt: FeatureOptions{Names: []string{"a", "b"}, Features: 2},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "names with the label column anywhere", in: "class,b,a\nx,2,1\ny,4,3\n", opt: FeatureOptions{Names: []string{"a", "b"}, LabelName: "class"},
			want: &Dataset{FeatureNames: []string{"a", "b"}, X: []float64{1, 2, 3, 4}}},
		{name: "names renamed", in: "a,c\n1,2\n", opt: FeatureOptions{Names: []string{"a", "b"}},
			err: `dataset: t.csv:1: header does not match the expected feature names: missing "b"; unexpected "c"`},
		{name: "names missing", in: "a\n1\n", opt: FeatureOptions{Names: []string{"a", "b"}, LabelName: "class"},
			err: `dataset: t.csv:1: header does not match the expected feature names: missing "b"`},
		{name: "names extra", in: "a,b,z\n1,2,3\n", opt: FeatureOptions{Names: []string{"a", "b"}, LabelName: "class"},
			err: `dataset: t.csv:1: header does not match the expected feature names: unexpected "z"`},
		{name: "names: error names the column read", in: "b,a\n2,x\n", opt: FeatureOptions{Names: []string{"a", "b"}},
			err: `dataset: t.csv:2: field 2 (a): not a number: "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadFeaturesCSV(strings.NewReader(tc.in), "t.csv", tc.opt)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error\n got %v\nwant %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ReadFeaturesCSV (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestLoadCSVFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "my data.csv")
	if err := os.WriteFile(p, []byte("a,c\n1,p\n2,q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := LoadCSV(p, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "my data" || d.M() != 2 {
		t.Errorf("Name, M = %q, %d; want \"my data\", 2", d.Name, d.M())
	}
	f, err := LoadFeaturesCSV(p, FeatureOptions{Features: 1, LabelName: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "my data" || f.M() != 2 || f.Labelled() {
		t.Errorf("features: Name, M, Labelled = %q, %d, %v", f.Name, f.M(), f.Labelled())
	}
	d2, err := LoadCSVFS(os.DirFS(dir), "my data.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(d, d2); diff != "" {
		t.Errorf("LoadCSVFS differs from LoadCSV (-LoadCSV +LoadCSVFS):\n%s", diff)
	}

	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("a,c\n1,p\nx,q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCSV(bad, CSVOptions{}); err == nil || !strings.Contains(err.Error(), bad+":3: field 1 (a)") {
		t.Errorf("LoadCSV(bad.csv) = %v, want the path, line and field", err)
	}
	for name, load := range map[string]func() error{
		"LoadCSV":         func() error { _, err := LoadCSV(filepath.Join(dir, "none.csv"), CSVOptions{}); return err },
		"LoadFeaturesCSV": func() error { _, err := LoadFeaturesCSV(filepath.Join(dir, "none.csv"), FeatureOptions{}); return err },
		"LoadCSVFS":       func() error { _, err := LoadCSVFS(os.DirFS(dir), "none.csv", CSVOptions{}); return err },
	} {
		if err := load(); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "none.csv") {
			t.Errorf("%s of a missing file: %v, want fs.ErrNotExist naming the file", name, err)
		}
	}
}
