package dataset

import (
	"bytes"
	"io"
	"strconv"
)

// maxPrealloc bounds the capacity reserved from a row count taken from
// metadata, so that a corrupt count cannot exhaust memory before parsing.
const maxPrealloc = 1 << 24

// quote returns b as a Go-quoted string, shortened if long, for messages.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "…"
	}
	return strconv.Quote(string(b))
}

// ParseUCIData parses a data file of the UCI-121 collection (`*_R.dat`): a
// tab-separated header line with an empty first cell, K feature names and
// the label name, then one line per row with the 1-based row number, K
// values and the 0-based integer label in [0, l). White space around fields and
// CRLF line ends are accepted; blank lines are accepted only at the end.
// wantRows < 0 skips the row-count check; otherwise the file must hold
// exactly wantRows rows. file names the input in errors. The class names of
// the result are "0", "1", …, "l-1"; its Name is left empty.
func ParseUCIData(r io.Reader, file string, k, l, wantRows int) (*Dataset, error) {
	return parseUCIData(r, file, k, l, wantRows, "")
}

// parseUCIData is ParseUCIData; countSrc describes where wantRows comes
// from, for the row-count message.
func parseUCIData(r io.Reader, file string, k, l, wantRows int, countSrc string) (*Dataset, error) {
	if k < 1 || l < 1 {
		return nil, perr(file, 0, 0, "", "need K ≥ 1 features and L ≥ 1 classes, got K=%d L=%d", k, l)
	}
	lr := newLineReader(r)
	line, ok, err := lr.next()
	if err != nil {
		return nil, perr(file, 0, 0, "", "read: %w", err)
	}
	if !ok {
		return nil, perr(file, 0, 0, "", "empty file (no header line)")
	}
	want := k + 2
	d := &Dataset{FeatureNames: make([]string, 0, k), ClassNames: classNumbers(l)}
	seen := make(map[string]int, k)
	nf := 0
	for f := range bytes.SplitSeq(line, []byte{'\t'}) {
		nf++
		if nf > want {
			continue
		}
		f = trimSpace(f)
		switch {
		case nf == 1:
			if len(f) != 0 {
				return nil, perr(file, lr.n, 1, "", "header: first cell must be empty, got %s", quote(f))
			}
		case nf == want:
			d.LabelName = string(f)
		default:
			if len(f) == 0 {
				return nil, perr(file, lr.n, nf, "", "header: empty feature name")
			}
			name := string(f)
			if j, dup := seen[name]; dup {
				return nil, perr(file, lr.n, nf, name, "header: duplicate feature name (also field %d)", j)
			}
			seen[name] = nf
			d.FeatureNames = append(d.FeatureNames, name)
		}
	}
	if nf != want {
		return nil, perr(file, lr.n, 0, "", "header: wrong number of columns: got %d, want %d (row number, %d features, label)", nf, want, k)
	}

	capRows := max(wantRows, 0)
	if capRows*k > maxPrealloc {
		capRows = maxPrealloc / k
	}
	d.X = make([]float64, 0, capRows*k)
	d.Y = make([]int, 0, capRows)
	blankAt := 0 // first line of a run of blank lines, 0 if none
	for line, err := range lr.lines(file) {
		if err != nil {
			return nil, err
		}
		if isBlank(line) {
			if blankAt == 0 {
				blankAt = lr.n
			}
			continue
		}
		if blankAt != 0 {
			return nil, perr(file, blankAt, 0, "", "blank line before the end of the file")
		}
		row := len(d.Y) + 1
		nf := 0
		rest := line
		for {
			var f []byte
			i := bytes.IndexByte(rest, '\t')
			if i < 0 {
				f, rest = rest, nil
			} else {
				f, rest = rest[:i], rest[i+1:]
			}
			nf++
			if nf <= want {
				f = trimSpace(f)
				switch {
				case nf == 1:
					n, ok := parseInt(f)
					if !ok {
						return nil, perr(file, lr.n, 1, "", "row number %s is not an integer", quote(f))
					}
					if n != row {
						return nil, perr(file, lr.n, 1, "", "row number %d, want %d", n, row)
					}
				case nf == want:
					y, ok := parseInt(f)
					if !ok {
						return nil, perr(file, lr.n, nf, d.LabelName, "label %s is not an integer", quote(f))
					}
					if y < 0 || y >= l {
						return nil, perr(file, lr.n, nf, d.LabelName, "label %d outside [0,%d)", y, l)
					}
					d.Y = append(d.Y, y)
				default:
					v, msg := parseFinite(f)
					if msg != "" {
						return nil, perr(file, lr.n, nf, d.FeatureNames[nf-2], "%s: %s", msg, quote(f))
					}
					d.X = append(d.X, v)
				}
			}
			if i < 0 {
				break
			}
		}
		if nf != want {
			return nil, perr(file, lr.n, 0, "", "wrong number of columns: got %d, want %d (row number, %d features, label)", nf, want, k)
		}
	}
	if wantRows >= 0 && len(d.Y) != wantRows {
		src := countSrc
		if src == "" {
			src = "the expected count"
		}
		return nil, perr(file, 0, 0, "", "%d data rows, but %s is %d", len(d.Y), src, wantRows)
	}
	return d, nil
}

// classNumbers returns "0", "1", …, strconv.Itoa(l-1).
func classNumbers(l int) []string {
	s := make([]string, l)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}

// ParseIndexLists parses lines of (ASCII) white-space-separated 0-based row indices
// (`conxuntos.dat`, `conxuntos_kfold.dat`). It returns exactly nLines lists;
// the input must have nLines lines (further lines must be blank). Every index
// must lie in [0, rows) and appear at most once per list. file names the
// input in errors.
func ParseIndexLists(r io.Reader, file string, nLines, rows int) ([][]int, error) {
	lr := newLineReader(r)
	lists := make([][]int, 0, nLines)
	// firstField[i] is 1 + the field number at which index i was last seen,
	// and stamp[i] tells in which list; stamps avoid clearing between lists.
	stamp := make([]int32, rows)
	firstField := make([]int32, rows)
	for line, err := range lr.lines(file) {
		if err != nil {
			return nil, err
		}
		if len(lists) == nLines {
			if !isBlank(line) {
				return nil, perr(file, lr.n, 0, "", "extra line: want %d lines of indices", nLines)
			}
			continue
		}
		list := make([]int, 0, bytes.Count(line, []byte{' '})+1)
		s := int32(len(lists) + 1)
		field := 0
		for len(line) > 0 {
			// skip separators
			i := 0
			for i < len(line) && isSpace(line[i]) {
				i++
			}
			line = line[i:]
			if len(line) == 0 {
				break
			}
			j := 0
			for j < len(line) && !isSpace(line[j]) {
				j++
			}
			f := line[:j]
			line = line[j:]
			field++
			v, ok := parseInt(f)
			if !ok {
				return nil, perr(file, lr.n, field, "", "index %s is not an integer", quote(f))
			}
			if v < 0 || v >= rows {
				return nil, perr(file, lr.n, field, "", "index %d out of range [0,%d)", v, rows)
			}
			if stamp[v] == s {
				return nil, perr(file, lr.n, field, "", "index %d duplicated (first at field %d)", v, firstField[v])
			}
			stamp[v] = s
			firstField[v] = int32(field)
			list = append(list, v)
		}
		lists = append(lists, list)
	}
	if len(lists) != nLines {
		return nil, perr(file, 0, 0, "", "%d lines of indices, want %d", len(lists), nLines)
	}
	return lists, nil
}

// checkDisjoint returns an error if an index occurs in both a (line la) and
// b (line lb).
func checkDisjoint(file string, a []int, la int, b []int, lb, rows int) error {
	in := make([]bool, rows)
	for _, i := range a {
		in[i] = true
	}
	for f, i := range b {
		if in[i] {
			return perr(file, lb, f+1, "", "index %d is also in the list on line %d", i, la)
		}
	}
	return nil
}
