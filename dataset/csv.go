package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// CSVOptions configures the CSV readers.
type CSVOptions struct {
	// Comma is the field separator. 0 means detect it from the header line:
	// the most frequent of ',', ';' and '\t' outside double quotes, with ','
	// when none occurs and ties resolved in the order ',', ';', '\t'.
	Comma rune
	// LabelColumn selects the class label column of labelled data (ReadCSV):
	// a header name, or else a 1-based column number; "" means the last
	// column. The other columns are the features, in file order.
	LabelColumn string
	// OneClass accepts labelled data with a single class: a file scored
	// against a model's classes (a test or held-out file), where one class
	// is as good as several. Training data needs two.
	OneClass bool
}

// FeatureOptions configures ReadFeaturesCSV.
type FeatureOptions struct {
	CSVOptions
	// Features is the number of feature columns expected (the model's K).
	// 0 accepts any number of columns, all of them features.
	Features int
	// LabelName is the name of the label column of the training data. When
	// Features > 0 and the header has Features+1 columns of which the last is
	// named LabelName, that column is ignored (so the training CSV itself can
	// be given to predict). An empty LabelName never matches.
	LabelName string
	// Names, when not empty, are the expected feature names (a model's, in
	// its order). The header's columns are then matched by name: a column
	// named LabelName is ignored wherever it stands, the others must be a
	// permutation of Names, and the values come back in the order of Names.
	// A header with a name missing from Names, or lacking one of them, is a
	// *ColumnsError. Features must then be 0 or len(Names).
	Names []string
}

// ColumnsError reports a header whose column names differ from the expected
// feature names (FeatureOptions.Names).
type ColumnsError struct {
	File       string
	Line       int      // the header's line
	Missing    []string // expected names the header lacks, in expected order
	Unexpected []string // header names not expected, in header order
}

func (e *ColumnsError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "missing "+quoteList(e.Missing))
	}
	if len(e.Unexpected) > 0 {
		parts = append(parts, "unexpected "+quoteList(e.Unexpected))
	}
	return fmt.Sprintf("dataset: %s:%d: header does not match the expected feature names: %s", e.File, e.Line, strings.Join(parts, "; "))
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// LoadCSV reads a labelled CSV file; see ReadCSV. The dataset is named after
// the file name without its extension.
func LoadCSV(filename string, opt CSVOptions) (*Dataset, error) {
	return load(os.Open, filepath.Base(filename), filename, func(r io.Reader) (*Dataset, error) {
		return ReadCSV(r, filename, opt)
	})
}

// LoadCSVFS is LoadCSV for a file of fsys (for example examples.FS).
func LoadCSVFS(fsys fs.FS, name string, opt CSVOptions) (*Dataset, error) {
	return load(fsys.Open, path.Base(name), name, func(r io.Reader) (*Dataset, error) {
		return ReadCSV(r, name, opt)
	})
}

// LoadFeaturesCSV reads an unlabelled CSV file; see ReadFeaturesCSV.
func LoadFeaturesCSV(filename string, opt FeatureOptions) (*Dataset, error) {
	return load(os.Open, filepath.Base(filename), filename, func(r io.Reader) (*Dataset, error) {
		return ReadFeaturesCSV(r, filename, opt)
	})
}

// load opens name with open, reads it with read and names the dataset after
// base without its extension.
func load[F io.ReadCloser](open func(string) (F, error), base, name string, read func(io.Reader) (*Dataset, error)) (*Dataset, error) {
	f, err := open(name)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	d, err := read(f)
	if err != nil {
		return nil, err
	}
	d.Name = strings.TrimSuffix(base, path.Ext(base))
	return d, nil
}

// ReadCSV reads labelled data in CSV form (RFC 4180 via encoding/csv, plus
// the rules below). file names the input in error messages.
//
//   - A header row is required; names are trimmed of surrounding white
//     space and must be non-empty and unique.
//   - Every column but the last is a numeric feature, named by the header;
//     values are trimmed and parsed with strconv.ParseFloat; empty fields,
//     NaN and ±Inf are errors.
//   - The last column is the class label, text or number (trimmed, non-empty).
//   - Class order: if every label parses as a finite number, classes are
//     sorted by numeric value (two spellings of one number, like "1" and
//     "1.0", are an error); otherwise they are sorted by byte order of the
//     label text. ClassNames holds the labels as written.
//   - At least one data row and at least two classes are required (one with
//     CSVOptions.OneClass).
//   - A UTF-8 byte order mark, CRLF line ends, quoted fields and blank lines
//     are accepted; see CSVOptions for the separator.
//
// The Name of the result is empty (LoadCSV and LoadCSVFS set it).
func ReadCSV(r io.Reader, file string, opt CSVOptions) (*Dataset, error) {
	cr, header, hline, err := openCSV(r, file, opt)
	if err != nil {
		return nil, err
	}
	nc := len(header)
	if nc < 2 {
		return nil, perr(file, hline, 0, "", "header has %d column, need at least one feature column and the label column", nc)
	}
	k, err := labelIndex(file, hline, header, opt.LabelColumn)
	if err != nil {
		return nil, err
	}
	feat := make([]int, 0, nc-1) // the feature columns, in file order
	for j := range header {
		if j != k {
			feat = append(feat, j)
		}
	}
	d := &Dataset{LabelName: header[k]}
	for _, j := range feat {
		d.FeatureNames = append(d.FeatureNames, header[j])
	}
	classOf := map[string]int{} // label text → provisional id (order of appearance)
	var labels []string         // provisional id → label text
	for rec, err := range records(cr, file, nc) {
		if err != nil {
			return nil, err
		}
		if d.X, err = appendFeatures(d.X, cr, file, header, rec, feat); err != nil {
			return nil, err
		}
		lab := strings.TrimSpace(rec[k])
		if lab == "" {
			line, _ := cr.FieldPos(k)
			return nil, perr(file, line, k+1, header[k], "empty field (class label)")
		}
		id, ok := classOf[lab]
		if !ok {
			id = len(labels)
			classOf[lab] = id
			labels = append(labels, lab)
		}
		d.Y = append(d.Y, id)
	}
	if len(d.Y) == 0 {
		return nil, perr(file, hline, 0, "", "header only: no data rows")
	}
	if len(labels) < 2 && !opt.OneClass {
		return nil, perr(file, 0, k+1, header[k], "only one class (%q): need at least two", labels[0])
	}
	order, err := classOrder(labels)
	if err != nil {
		return nil, &ParseError{File: file, Field: k + 1, Name: header[k], Err: err}
	}
	// order[i] is the provisional id of the i-th class; remap.
	remap := make([]int, len(order))
	d.ClassNames = make([]string, len(order))
	for i, id := range order {
		remap[id] = i
		d.ClassNames[i] = labels[id]
	}
	for i, y := range d.Y {
		d.Y[i] = remap[y]
	}
	return d, nil
}

// ReadFeaturesCSV reads unlabelled data (for prediction): a header row, then
// rows of numeric features, with the rules of ReadCSV for the feature
// columns. See FeatureOptions for the expected columns: by name (Names) or by
// count (Features, with an optional ignored label column). The result has
// Y == nil and its features in the expected order.
func ReadFeaturesCSV(r io.Reader, file string, opt FeatureOptions) (*Dataset, error) {
	if opt.Features < 0 || len(opt.Names) > 0 && opt.Features != 0 && opt.Features != len(opt.Names) {
		panic(fmt.Sprintf("dataset: ReadFeaturesCSV: Features = %d with %d Names", opt.Features, len(opt.Names)))
	}
	cr, header, hline, err := openCSV(r, file, opt.CSVOptions)
	if err != nil {
		return nil, err
	}
	nc := len(header)
	var cols []int // cols[i]: the header column of feature i
	if len(opt.Names) > 0 {
		if cols, err = columnsByName(file, hline, header, opt.Names, opt.LabelName); err != nil {
			return nil, err
		}
	} else {
		k := nc
		switch {
		case opt.Features == 0 || nc == opt.Features:
		case nc == opt.Features+1 && opt.LabelName != "" && header[nc-1] == opt.LabelName:
			k = nc - 1
		case nc == opt.Features+1 && opt.LabelName != "":
			return nil, perr(file, hline, nc, header[nc-1], "header has %d columns, want %d features; the extra last column is not the label column %q", nc, opt.Features, opt.LabelName)
		default:
			return nil, perr(file, hline, 0, "", "header has %d columns, want %d feature columns", nc, opt.Features)
		}
		cols = make([]int, k)
		for i := range cols {
			cols[i] = i
		}
	}
	d := &Dataset{FeatureNames: make([]string, len(cols))}
	for i, j := range cols {
		d.FeatureNames[i] = header[j]
	}
	rows := 0
	for rec, err := range records(cr, file, nc) {
		if err != nil {
			return nil, err
		}
		if d.X, err = appendFeatures(d.X, cr, file, header, rec, cols); err != nil {
			return nil, err
		}
		rows++
	}
	if rows == 0 {
		return nil, perr(file, hline, 0, "", "header only: no data rows")
	}
	return d, nil
}

// columnsByName maps each expected name to its header column; see
// FeatureOptions.Names.
func columnsByName(file string, hline int, header, names []string, label string) ([]int, error) {
	at := make(map[string]int, len(header))
	for j, h := range header {
		at[h] = j
	}
	want := make(map[string]bool, len(names))
	cols := make([]int, len(names))
	e := &ColumnsError{File: file, Line: hline}
	for i, n := range names {
		want[n] = true
		j, ok := at[n]
		if !ok {
			e.Missing = append(e.Missing, n)
		}
		cols[i] = j
	}
	for _, h := range header {
		if !want[h] && (label == "" || h != label) {
			e.Unexpected = append(e.Unexpected, h)
		}
	}
	if len(e.Missing) > 0 || len(e.Unexpected) > 0 {
		return nil, e
	}
	return cols, nil
}

// openCSV strips a BOM, chooses the separator, and reads and checks the
// header; it returns the reader, the header names and the header's line.
func openCSV(r io.Reader, file string, opt CSVOptions) (*csv.Reader, []string, int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
	}
	comma := opt.Comma
	if comma == 0 {
		b, _ := br.Peek(64 << 10) // the header line, or its first 64 KiB
		comma = detectComma(b)
	}
	cr := csv.NewReader(br)
	cr.Comma = comma
	cr.FieldsPerRecord = -1 // checked here, for a clearer message
	cr.ReuseRecord = true
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, nil, 0, perr(file, 0, 0, "", "empty file: want a header row")
	}
	if err != nil {
		return nil, nil, 0, csvError(file, err)
	}
	hline, _ := cr.FieldPos(0)
	header := make([]string, len(rec))
	seen := make(map[string]int, len(rec))
	for j, h := range rec {
		h = strings.TrimSpace(h)
		line, _ := cr.FieldPos(j)
		if h == "" {
			return nil, nil, 0, perr(file, line, j+1, "", "header: empty column name")
		}
		if i, dup := seen[h]; dup {
			return nil, nil, 0, perr(file, line, j+1, h, "header: duplicate column name (also field %d)", i+1)
		}
		seen[h] = j
		header[j] = h
	}
	if looksLikeData(header) {
		return nil, nil, 0, perr(file, hline, 0, "", "the first row %s looks like data, not a header (every field is a number): add a header row naming the columns", quoteList(header))
	}
	return cr, header, hline, nil
}

// looksLikeData is the missing-header rule: a first row whose every field is
// a number (by the package's number rule) is data, not a header. Column names
// that are all numbers are refused with it; one non-numeric name (the label
// column's, usually) makes the row a header.
func looksLikeData(header []string) bool {
	for _, h := range header {
		if _, msg := parseFinite([]byte(h)); msg != "" {
			return false
		}
	}
	return true
}

// labelIndex resolves CSVOptions.LabelColumn against the header: a column
// name first, then a 1-based column number; "" is the last column.
func labelIndex(file string, hline int, header []string, col string) (int, error) {
	col = strings.TrimSpace(col)
	if col == "" {
		return len(header) - 1, nil
	}
	if j := slices.Index(header, col); j >= 0 {
		return j, nil
	}
	if n, err := strconv.Atoi(col); err == nil {
		if n < 1 || n > len(header) {
			return 0, perr(file, hline, 0, "", "label column %d: the header has columns 1…%d", n, len(header))
		}
		return n - 1, nil
	}
	return 0, perr(file, hline, 0, "", "label column %q: no such column (header: %s)", col, quoteList(header))
}

// detectComma picks the separator from the first line of b.
func detectComma(b []byte) rune {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	var n [3]int
	quoted := false
	for _, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ',':
			n[0]++
		case c == ';':
			n[1]++
		case c == '\t':
			n[2]++
		}
	}
	best := 0
	for i := 1; i < 3; i++ {
		if n[i] > n[best] {
			best = i
		}
	}
	return []rune{',', ';', '\t'}[best]
}

// featureValue parses one feature field.
func featureValue(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty field")
	}
	v, msg := parseFinite([]byte(t))
	if msg != "" {
		return 0, fmt.Errorf("%s: %s", msg, quote([]byte(t)))
	}
	return v, nil
}

// csvError converts an encoding/csv error into a *ParseError.
// records yields the data records of cr, each with the header's nc fields;
// a read error or a record of another length is yielded once, as a parse
// error of file, and ends the sequence.
func records(cr *csv.Reader, file string, nc int) iter.Seq2[[]string, error] {
	return func(yield func([]string, error) bool) {
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, csvError(file, err))
				return
			}
			if len(rec) != nc {
				line, _ := cr.FieldPos(0)
				yield(nil, perr(file, line, 0, "", "wrong number of fields: got %d, want %d (as in the header)", len(rec), nc))
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// appendFeatures appends the values of rec's columns cols to x; a value
// that is not a finite number is an error naming its line and column.
func appendFeatures(x []float64, cr *csv.Reader, file string, header, rec []string, cols []int) ([]float64, error) {
	for _, j := range cols {
		v, err := featureValue(rec[j])
		if err != nil {
			line, _ := cr.FieldPos(j)
			return nil, &ParseError{File: file, Line: line, Field: j + 1, Name: header[j], Err: err}
		}
		x = append(x, v)
	}
	return x, nil
}

func csvError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: file, Line: pe.Line, Err: fmt.Errorf("byte %d: %w", pe.Column, pe.Err)}
	}
	return &ParseError{File: file, Err: err}
}

// classOrder returns the provisional ids of labels in class order: numeric
// if all labels are finite numbers, else byte order.
func classOrder(labels []string) ([]int, error) {
	ids := make([]int, len(labels))
	for i := range ids {
		ids[i] = i
	}
	vals := make([]float64, len(labels))
	numeric := true
	for i, l := range labels {
		v, msg := parseFinite([]byte(l))
		if msg != "" {
			numeric = false
			break
		}
		vals[i] = v
	}
	if !numeric {
		slices.SortFunc(ids, func(a, b int) int { return strings.Compare(labels[a], labels[b]) })
		return ids, nil
	}
	slices.SortFunc(ids, func(a, b int) int {
		if c := cmpFloat(vals[a], vals[b]); c != 0 {
			return c
		}
		return strings.Compare(labels[a], labels[b])
	})
	for i := 1; i < len(ids); i++ {
		if vals[ids[i]] == vals[ids[i-1]] {
			return nil, fmt.Errorf("class labels %s and %s are the same number %s: write them identically",
				strconv.Quote(labels[ids[i-1]]), strconv.Quote(labels[ids[i]]), strconv.FormatFloat(vals[ids[i]], 'g', -1, 64))
		}
	}
	return ids, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
