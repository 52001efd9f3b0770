package dataset

import (
	"errors"
	"fmt"
	"strings"
)

// ErrDataFileMissing is matched (with errors.Is) by the error LoadUCI returns
// when the metadata of a dataset names a data file that does not exist, as
// for miniboone in the shipped copy of the collection. Callers running the
// whole collection use it to report "skipped: data file missing".
var ErrDataFileMissing = errors.New("data file missing")

// MissingDataError reports a data file (fich1 or fich2 of <name>.txt) that
// does not exist. errors.Is(err, ErrDataFileMissing) and
// errors.Is(err, fs.ErrNotExist) are both true for it.
type MissingDataError struct {
	Dataset string // name of the dataset, e.g. "miniboone"
	Path    string // path of the missing file
	Err     error  // the error from opening the file
}

func (e *MissingDataError) Error() string {
	return fmt.Sprintf("dataset: %s: data file %s missing", e.Dataset, e.Path)
}

// Is reports whether target is ErrDataFileMissing.
func (e *MissingDataError) Is(target error) bool { return target == ErrDataFileMissing }

// Unwrap returns the error from opening the file (it wraps fs.ErrNotExist).
func (e *MissingDataError) Unwrap() error { return e.Err }

// ParseError reports malformed content: the file, the 1-based line, and,
// where it applies, the 1-based field (column) and its name.
//
// Its message has the form
//
//	dataset: <file>:<line>: field <n> (<name>): <what is wrong>
//
// where ":<line>" is left out when Line is 0 and the field part is left out
// (or reduced to "field <n>" or "<name>") when unknown.
type ParseError struct {
	File  string // path (or name given by the caller) of the file
	Line  int    // 1-based line number; 0 when the problem concerns the whole file
	Field int    // 1-based field (column) number; 0 when not applicable
	Name  string // name of the field: column header or metadata key; may be empty
	Err   error  // what is wrong
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("dataset: ")
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	switch {
	case e.Field > 0 && e.Name != "":
		fmt.Fprintf(&b, "field %d (%s): ", e.Field, e.Name)
	case e.Field > 0:
		fmt.Fprintf(&b, "field %d: ", e.Field)
	case e.Name != "":
		b.WriteString(e.Name)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error (for example a *strconv.NumError).
func (e *ParseError) Unwrap() error { return e.Err }

// perr builds a *ParseError with a formatted message.
func perr(file string, line, field int, name, format string, args ...any) *ParseError {
	return &ParseError{File: file, Line: line, Field: field, Name: name, Err: fmt.Errorf(format, args...)}
}
