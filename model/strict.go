package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// The strict model.json reader. encoding/json matches keys case-insensitively,
// keeps the last of duplicated keys, takes null for any type and reports
// unknown and truncated input without a position; docs/model-json.md promises
// more. So the file is first parsed into a tree of nodes that remember their
// byte offsets (rejecting duplicated keys and absurd nesting), and the fields
// are then read from the tree by exact key, each error carrying its line and
// column.

// maxDepth bounds the nesting of a model.json file (the format needs 3).
const maxDepth = 16

// node is one JSON value and the byte offset where it starts.
type node struct {
	off   int
	kind  byte   // '{' object, '[' array, '"' string, '0' number, 'b' bool, 'n' null
	text  string // string value, or number text
	b     bool
	keys  []string // object keys in file order
	koffs []int    // offsets of the keys
	elems []*node  // object values (parallel to keys) or array elements
}

// kindName names a node kind in error messages.
func (n *node) kindName() string {
	switch n.kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// decoder reads one model.json file: its bytes (for positions) and its tree
// (to place errors found after reading).
type decoder struct {
	data []byte
	root *node
}

// errAt returns a FieldError at byte offset off.
func (d *decoder) errAt(off int, field, format string, args ...any) error {
	e := &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	if d != nil && d.data != nil {
		e.Line, e.Col = lineCol(d.data, off)
	}
	return e
}

// parse reads the whole input as one JSON value.
func (d *decoder) parse() (*node, error) {
	if root, ok := fastTree(d.data); ok {
		d.root = root
		return root, nil
	}
	return d.parseTokens()
}

// parseTokens is parse token by token: the path that finds and places every
// syntax error (and the reference the fast path is tested against).
func (d *decoder) parseTokens() (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(d.data))
	dec.UseNumber()
	root, err := d.value(dec, 0, "", -1)
	if err != nil {
		return nil, err
	}
	d.root = root
	if _, err := dec.Token(); err != io.EOF {
		off := skipSpace(d.data, int(dec.InputOffset()))
		if err == nil {
			// InputOffset is past the extra token; point at its start.
			off = skipSpace(d.data, int(d.lastEnd(root)))
		}
		return nil, d.errAt(off, "", "extra data after the model object")
	}
	return root, nil
}

// lastEnd is the offset just past the root value (its closing brace).
func (d *decoder) lastEnd(root *node) int {
	if root.kind != '{' && root.kind != '[' {
		return root.off
	}
	return containerEnd(d.data, root.off)
}

// value reads one value; path names it for errors, with [idx] appended when
// idx ≥ 0 (built only for a container or an error: a matrix has many
// elements, and formatting each one's path was most of a model's check).
func (d *decoder) value(dec *json.Decoder, depth int, parent string, idx int) (*node, error) {
	at := func() string {
		if idx < 0 {
			return parent
		}
		return fmt.Sprintf("%s[%d]", parent, idx)
	}
	before := int(dec.InputOffset())
	tok, err := dec.Token()
	off := skipSpace(d.data, before)
	if err != nil {
		return nil, d.tokenError(err, off)
	}
	n := &node{off: off}
	switch t := tok.(type) {
	case json.Delim:
		path := at()
		if t != '{' && t != '[' {
			return nil, d.errAt(off, path, "invalid JSON: unexpected %q", string(t))
		}
		if depth >= maxDepth {
			return nil, d.errAt(off, path, "nested deeper than %d levels", maxDepth)
		}
		n.kind = byte(t)
		if t == '[' {
			for i := 0; dec.More(); i++ {
				e, err := d.value(dec, depth+1, path, i)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
		} else {
			seen := map[string]bool{}
			for dec.More() {
				kb := int(dec.InputOffset())
				kt, err := dec.Token()
				koff := skipSpace(d.data, kb)
				if err != nil {
					return nil, d.tokenError(err, koff)
				}
				key := kt.(string) // the decoder only yields strings in key position
				field := joinPath(path, key)
				if seen[key] {
					return nil, d.errAt(koff, field, "duplicated key %q", key)
				}
				seen[key] = true
				v, err := d.value(dec, depth+1, field, -1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key)
				n.koffs = append(n.koffs, koff)
				n.elems = append(n.elems, v)
			}
		}
		end := int(dec.InputOffset())
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, d.tokenError(err, skipSpace(d.data, end))
		}
	case string:
		n.kind, n.text = '"', t
	case json.Number:
		n.kind, n.text = '0', string(t)
	case bool:
		n.kind, n.b = 'b', t
	case nil:
		n.kind = 'n'
	}
	return n, nil
}

// tokenError turns a tokenizer error into a positioned FieldError.
func (d *decoder) tokenError(err error, off int) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return d.errAt(int(se.Offset), "", "invalid JSON: %v", se)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return d.errAt(len(d.data), "", "truncated file: the JSON ends inside a value")
	case errors.Is(err, io.EOF):
		if len(bytes.TrimSpace(d.data)) == 0 {
			return &FieldError{Msg: "empty file"}
		}
		return d.errAt(len(d.data), "", "truncated file: the JSON ends inside a value")
	}
	return d.errAt(off, "", "invalid JSON: %v", err)
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// object is an object node being read field by field.
type object struct {
	d    *decoder
	n    *node
	path string
}

// object checks that n is an object whose keys are all among known and
// returns it for reading; the first other key is an "unknown field" error.
func (d *decoder) object(n *node, path string, known ...string) (*object, error) {
	if n.kind != '{' {
		return nil, d.wrongKind(n, path, "an object")
	}
	for i, k := range n.keys {
		if !slices.Contains(known, k) {
			return nil, d.errAt(n.koffs[i], joinPath(path, k), "unknown field")
		}
	}
	return &object{d: d, n: n, path: path}, nil
}

func (d *decoder) wrongKind(n *node, path, want string) error {
	return d.errAt(n.off, path, "%s, want %s", n.kindName(), want)
}

// opt returns the value of key and its path, or nil when the key is absent.
// Keys match exactly (case-sensitive).
func (o *object) opt(key string) (*node, string) {
	for i, k := range o.n.keys {
		if k == key {
			return o.n.elems[i], joinPath(o.path, key)
		}
	}
	return nil, joinPath(o.path, key)
}

// pos is where a field's value is, for errors found after reading it.
type pos struct {
	d    *decoder
	off  int
	path string
}

// errf returns a FieldError at the field.
func (p pos) errf(format string, args ...any) error { return p.d.errAt(p.off, p.path, format, args...) }

// field reads the required key of o with read.
func field[T any](o *object, key string, read func(*node, string) (T, error)) (T, pos, error) {
	v, p, err := o.req(key)
	if err != nil {
		var zero T
		return zero, pos{}, err
	}
	x, err := read(v, p)
	return x, pos{o.d, v.off, p}, err
}

// optField reads the optional key of o with read; ok is false when it is absent.
func optField[T any](o *object, key string, read func(*node, string) (T, error)) (x T, ok bool, at pos, err error) {
	v, p := o.opt(key)
	if v == nil {
		return x, false, pos{}, nil
	}
	x, err = read(v, p)
	return x, true, pos{o.d, v.off, p}, err
}

// req is opt for a key that must be present.
func (o *object) req(key string) (*node, string, error) {
	v, p := o.opt(key)
	if v == nil {
		return nil, p, o.d.errAt(o.n.off, p, "missing (required)")
	}
	return v, p, nil
}

// Typed readers of one node.

func (d *decoder) str(n *node, path string) (string, error) {
	if n.kind != '"' {
		return "", d.wrongKind(n, path, "a string")
	}
	return n.text, nil
}

func (d *decoder) boolean(n *node, path string) (bool, error) {
	if n.kind != 'b' {
		return false, d.wrongKind(n, path, "a boolean")
	}
	return n.b, nil
}

func (d *decoder) integer(n *node, path string) (int, error) {
	if n.kind != '0' {
		return 0, d.wrongKind(n, path, "an integer")
	}
	v, err := strconv.ParseInt(n.text, 10, 64)
	if err != nil || v != int64(int(v)) {
		return 0, d.errAt(n.off, path, "%s is not an integer in the int64 range", n.text)
	}
	return int(v), nil
}

func (d *decoder) uinteger(n *node, path string) (uint64, error) {
	if n.kind != '0' {
		return 0, d.wrongKind(n, path, "an unsigned integer")
	}
	v, err := strconv.ParseUint(n.text, 10, 64)
	if err != nil {
		return 0, d.errAt(n.off, path, "%s is not an integer in [0, 2^64)", n.text)
	}
	return v, nil
}

func (d *decoder) number(n *node, path string) (float64, error) {
	if n.kind != '0' {
		return 0, d.wrongKind(n, path, "a number")
	}
	v, err := strconv.ParseFloat(n.text, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, d.errAt(n.off, path, "%s is not a finite float64", n.text)
	}
	return v, nil
}

// list reads an array whose elements one reader converts. The element's
// path is only built for an error (a matrix has many elements).
func list[T any](d *decoder, n *node, path string, elem func(*node, string) (T, error)) ([]T, error) {
	if n.kind != '[' {
		return nil, d.wrongKind(n, path, "an array")
	}
	out := make([]T, len(n.elems))
	for i, e := range n.elems {
		var err error
		if out[i], err = elem(e, ""); err != nil {
			_, err = elem(e, fmt.Sprintf("%s[%d]", path, i))
			return nil, err
		}
	}
	return out, nil
}

// find returns the node at a field path (FieldError.Field syntax, e.g.
// "readout.weights[2][17]"), or nil.
func (n *node) find(field string) *node {
	for _, step := range splitPath(field) {
		if n == nil {
			return nil
		}
		switch n.kind {
		case '{':
			var next *node
			for i, k := range n.keys {
				if k == step {
					next = n.elems[i]
				}
			}
			n = next
		case '[':
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(n.elems) {
				return nil
			}
			n = n.elems[i]
		default:
			return nil
		}
	}
	return n
}

func (d *decoder) strings(n *node, path string) ([]string, error)  { return list(d, n, path, d.str) }
func (d *decoder) numbers(n *node, path string) ([]float64, error) { return list(d, n, path, d.number) }
func (d *decoder) integers(n *node, path string) ([]int, error)    { return list(d, n, path, d.integer) }

func (d *decoder) numberRows(n *node, path string) ([][]float64, error) {
	return list(d, n, path, d.numbers)
}

func (d *decoder) integerRows(n *node, path string) ([][]int, error) {
	return list(d, n, path, d.integers)
}
