package dataset

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeCSV writes d in the form ReadCSV reads (with a BOM, so that a BOM
// that is part of the first column name survives the reader's BOM strip).
func writeCSV(d *Dataset) []byte {
	var b bytes.Buffer
	b.WriteString("\xEF\xBB\xBF")
	w := csv.NewWriter(&b)
	rec := append(append([]string{}, d.FeatureNames...), d.LabelName)
	w.Write(rec)
	k := d.K()
	for i := 0; i < d.M(); i++ {
		for j := 0; j < k; j++ {
			rec[j] = strconv.FormatFloat(d.X[i*k+j], 'g', -1, 64)
		}
		rec[k] = d.ClassNames[d.Y[i]]
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,class\n1,2,y\n3,4,x\n",
		"\xEF\xBB\xBF\"a\", b ,\"the, class\"\r\n\" 1.5\",-2e1,\"Y\"\r\n3, 4 , X \r\n",
		"a;b;c\n1;2;3\n4;5;6\n",
		"a\tc\n1\t10\n2\t9\n3\t-1\n",
		"a,c\n1,1\n2,1.0\n",
		"a,c\n1,x\n2,y\"z\n",
		"a,a,c\n1,2,x\n",
		"a,c\nNaN,x\nInf,y\n",
		"a,c\n0x1p-2,x\n1_0,y\n",
		"",
		"a,c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadCSV(bytes.NewReader(data), "fuzz.csv", CSVOptions{})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("invalid dataset: %v", err)
		}
		if d.M() < 1 || d.L() < 2 || d.K() < 1 {
			t.Fatalf("M, L, K = %d, %d, %d", d.M(), d.L(), d.K())
		}
		for c, n := range d.ClassCounts() {
			if n == 0 {
				t.Fatalf("class %d (%q) has no rows", c, d.ClassNames[c])
			}
		}
		checkClassOrder(t, d.ClassNames)
		// Round trip: write with ',' and read back.
		back, err := ReadCSV(bytes.NewReader(writeCSV(d)), "back.csv", CSVOptions{Comma: ','})
		if err != nil {
			t.Fatalf("re-reading the written dataset: %v\n%q", err, writeCSV(d))
		}
		if diff := cmp.Diff(d, back); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
		// The same text as unlabelled data.
		u, err := ReadFeaturesCSV(bytes.NewReader(data), "fuzz.csv", FeatureOptions{Features: d.K(), LabelName: d.LabelName})
		if err != nil {
			t.Fatalf("ReadFeaturesCSV: %v", err)
		}
		if diff := cmp.Diff(d.X, u.X); diff != "" {
			t.Fatalf("ReadFeaturesCSV features differ (-ReadCSV +ReadFeaturesCSV):\n%s", diff)
		}
	})
}

// decimalRE is the documented number syntax (isDecimal), written
// independently of the reader as the fuzz oracle.
var decimalRE = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// oracleNumber is the documented rule for a number: the decimal syntax and a
// finite float64 value.
func oracleNumber(s string) (float64, bool) {
	if !decimalRE.MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// checkClassOrder checks the documented class order.
func checkClassOrder(t *testing.T, names []string) {
	t.Helper()
	vals := make([]float64, len(names))
	numeric := true
	for i, n := range names {
		v, ok := oracleNumber(n)
		if !ok {
			numeric = false
			break
		}
		vals[i] = v
	}
	for i := 1; i < len(names); i++ {
		if numeric && !(vals[i-1] < vals[i]) || !numeric && !(names[i-1] < names[i]) {
			t.Fatalf("classes %q, %q out of order (numeric %v)", names[i-1], names[i], numeric)
		}
	}
}

// writeUCIData writes d in the UCI-121 data file format.
func writeUCIData(d *Dataset) []byte {
	var b bytes.Buffer
	for _, n := range d.FeatureNames {
		b.WriteString("\t" + n)
	}
	b.WriteString("\t" + d.LabelName + "\n")
	k := d.K()
	for i := 0; i < d.M(); i++ {
		b.WriteString(strconv.Itoa(i + 1))
		for j := 0; j < k; j++ {
			b.WriteString("\t" + strconv.FormatFloat(d.X[i*k+j], 'g', -1, 64))
		}
		fmt.Fprintf(&b, "\t%d\n", d.Y[i])
	}
	return b.Bytes()
}

func FuzzUCIData(f *testing.F) {
	f.Add([]byte(toyDat), uint8(1), uint8(2))
	f.Add([]byte("\tf1\tclase\r\n1\t1\t0\r\n2\t-1e-3\t1\r\n\r\n"), uint8(0), uint8(1))
	f.Add([]byte("\tf1\tf2\tclase\n1\t 0.5 \tNaN\t0\n"), uint8(1), uint8(0))
	f.Add([]byte("0 2 4 \n1 3 5 \n"), uint8(1), uint8(2))
	f.Add([]byte("\tf1\tclase\n1\t1\t0\n\n2\t2\t0\n"), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, k8, l8 uint8) {
		k, l := int(k8%8)+1, int(l8%5)+1
		d, err := ParseUCIData(bytes.NewReader(data), "fuzz.dat", k, l, -1)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
		} else {
			if d.K() != k || d.L() != l || len(d.Y) != d.M() {
				t.Fatalf("K, L, M, len(Y) = %d, %d, %d, %d; want K=%d L=%d", d.K(), d.L(), d.M(), len(d.Y), k, l)
			}
			if err := d.Validate(); err != nil {
				t.Fatalf("invalid dataset: %v", err)
			}
			if _, err := ParseUCIData(bytes.NewReader(data), "fuzz.dat", k, l, d.M()+1); err == nil {
				t.Fatalf("row count %d accepted for a file of %d rows", d.M()+1, d.M())
			}
			back, err := ParseUCIData(bytes.NewReader(writeUCIData(d)), "back.dat", k, l, d.M())
			if err != nil {
				t.Fatalf("re-reading the written data: %v", err)
			}
			if diff := cmp.Diff(d, back); diff != "" {
				t.Fatalf("round trip (-first +second):\n%s", diff)
			}
		}

		// The same bytes as index lists.
		const rows = 50
		lists, err := ParseIndexLists(bytes.NewReader(data), "fuzz.dat", 2, rows)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("index lists: error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		if len(lists) != 2 {
			t.Fatalf("%d lists, want 2", len(lists))
		}
		for _, l := range lists {
			seen := map[int]bool{}
			for _, i := range l {
				if i < 0 || i >= rows || seen[i] {
					t.Fatalf("index %d out of range or repeated in %v", i, l)
				}
				seen[i] = true
			}
		}
	})
}

// FuzzNumber checks the number reader against the documented syntax: a field
// is accepted exactly when it is a decimal number with a finite value, and
// then it has strconv's value.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"1", "-0.5", ".5", "5.", "+1.5E+10", "1e-05", "1_000", "0x1p4", "0b1", "0o7",
		"Inf", "-infinity", "NaN", "1e400", "1e-400", "", ".", "1e", "--1", "1,5", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, msg := parseFinite([]byte(s))
		want, ok := oracleNumber(s)
		if ok != (msg == "") {
			t.Fatalf("parseFinite(%q) = %v, %q; the documented rule says accepted=%v", s, v, msg, ok)
		}
		if ok && v != want {
			t.Fatalf("parseFinite(%q) = %v, want %v", s, v, want)
		}
	})
}
