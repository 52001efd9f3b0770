package dataset

import (
	"bufio"
	"bytes"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"
)

// lineReader reads lines of any length with one bufio.Reader and no copying
// for lines that fit its buffer. A returned line is valid until the next call.
type lineReader struct {
	br   *bufio.Reader
	long []byte // assembly buffer for lines longer than br's buffer
	n    int    // 1-based number of the line returned last
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its "\n" or "\r\n" terminator, and
// ok == false at the end of the input.
func (lr *lineReader) next() (line []byte, ok bool, err error) {
	s, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], s...)
		for err == bufio.ErrBufferFull {
			s, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, s...)
		}
		s = lr.long
	}
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	if len(s) == 0 {
		return nil, false, nil
	}
	lr.n++
	s = bytes.TrimSuffix(s, []byte{'\n'})
	s = bytes.TrimSuffix(s, []byte{'\r'})
	return s, true, nil
}

// lines yields the remaining lines (see next) until the end of the input;
// a read error is yielded once, as a parse error of file at the line that
// failed, and ends the sequence.
func (lr *lineReader) lines(file string) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for {
			line, ok, err := lr.next()
			if err != nil {
				yield(nil, perr(file, lr.n, 0, "", "read: %w", err))
				return
			}
			if !ok || !yield(line, nil) {
				return
			}
		}
	}
}

// isBlank reports whether b holds only ASCII white space.
func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// trimSpace removes leading and trailing ASCII white space (space, tab,
// CR, LF, VT, FF).
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// parseFinite parses b as a decimal number (see isDecimal) and rejects NaN,
// ±Inf and values beyond float64. The string conversion does not escape
// (strconv clones its input for errors), so the compiler keeps short fields
// on the stack: no allocation per value.
func parseFinite(b []byte) (float64, string) {
	v, err := strconv.ParseFloat(string(b), 64)
	if !isDecimal(b) {
		switch {
		case isInfNaN(b):
			return 0, "not a finite number"
		case err == nil:
			return 0, "not a decimal number (Go literal forms such as 1_000 or 0x1p4 are not accepted)"
		}
		return 0, "not a number"
	}
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, "value out of float64 range"
		}
		return 0, "not a number"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "not a finite number"
	}
	return v, ""
}

// isDecimal reports whether b is a number as spreadsheets and numeric
// programs write it: an optional sign, decimal digits with an optional
// decimal point (at least one digit before or after it), and an optional
// exponent e or E with an optional sign and at least one digit. So 12, -0.5,
// .5, 5., +1.5E+10 and 1e-05 are numbers; Go's other literal forms, which
// strconv.ParseFloat would take (1_000, 0x1p4, hexadecimal mantissas), and
// thousands separators are not.
func isDecimal(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(b) && isDigit(b[i]); i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && isDigit(b[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(b) && isDigit(b[i]); i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isInfNaN reports whether b spells NaN or an infinity as strconv would
// accept it (any case, optional sign): those get their own message.
func isInfNaN(b []byte) bool {
	s := strings.ToLower(strings.TrimLeft(string(b), "+-"))
	return s == "nan" || s == "inf" || s == "infinity"
}

// parseInt parses a decimal integer (optional sign) that fits an int.
func parseInt(b []byte) (int, bool) {
	v, err := strconv.Atoi(string(b))
	return v, err == nil
}
