package model

import (
	"encoding/json"
	"slices"
)

// The fast path of the strict reader. Reading token by token through
// encoding/json's Decoder costs an allocation and an interface per number,
// and a model.json is mostly numbers; every command and test that loads or
// validates a model paid for it. Input that json.Valid accepts is already
// known to be well-formed, so fastTree builds the same tree with a plain
// scan. Whatever the scan would have to report (a duplicated key, nesting
// deeper than maxDepth) makes it give up, and the token-by-token path, the
// one definition of every error and its position, reads the file instead.

// fastTree returns the tree of data, or ok = false when data is not valid
// JSON or holds something the careful path reports as an error.
func fastTree(data []byte) (root *node, ok bool) {
	if !json.Valid(data) {
		return nil, false
	}
	s := scanner{data: data}
	n, ok := s.value(0)
	if !ok {
		return nil, false
	}
	return &n, true
}

// scanner walks JSON text that json.Valid accepted. Container values are
// gathered on stack, shared by all containers, and copied to a slab of the
// right size when the container closes.
type scanner struct {
	data  []byte
	i     int
	stack []node
}

func (s *scanner) skipSpace() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value reads the value at the scan position (after any white space).
func (s *scanner) value(depth int) (node, bool) {
	s.skipSpace()
	n := node{off: s.i}
	switch c := s.data[s.i]; c {
	case '{', '[':
		if depth >= maxDepth {
			return n, false
		}
		n.kind = c
		s.i++
		return n, s.container(&n, depth)
	case '"':
		n.kind = '"'
		var ok bool
		n.text, ok = s.str()
		return n, ok
	case 't':
		n.kind, n.b = 'b', true
		s.i += len("true")
	case 'f':
		n.kind = 'b'
		s.i += len("false")
	case 'n':
		n.kind = 'n'
		s.i += len("null")
	default:
		n.kind = '0'
		start := s.i
		for s.i < len(s.data) && isNumberByte(s.data[s.i]) {
			s.i++
		}
		n.text = string(s.data[start:s.i])
	}
	return n, true
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// container reads the members of an object or the elements of an array,
// after its '{' or '[', up to and including the closing delimiter.
func (s *scanner) container(n *node, depth int) bool {
	closing := byte(']')
	var seen map[string]bool // the object's keys so far
	if n.kind == '{' {
		closing, seen = '}', map[string]bool{}
	}
	base := len(s.stack)
	for {
		s.skipSpace()
		if s.data[s.i] == closing {
			s.i++
			break
		}
		if s.data[s.i] == ',' {
			s.i++
			s.skipSpace()
		}
		if seen != nil {
			koff := s.i
			key, ok := s.str()
			if !ok || seen[key] {
				return false
			}
			seen[key] = true
			n.keys = append(n.keys, key)
			n.koffs = append(n.koffs, koff)
			s.skipSpace()
			s.i++ // the ':' json.Valid guarantees
		}
		v, ok := s.value(depth + 1)
		if !ok {
			return false
		}
		s.stack = append(s.stack, v)
	}
	n.elems = s.pop(base)
	return true
}

// pop moves the values above base off the stack into one slab (one
// allocation for a whole row of numbers instead of one per number) and
// returns pointers to them.
func (s *scanner) pop(base int) []*node {
	vals := s.stack[base:]
	if len(vals) == 0 {
		return nil
	}
	slab := slices.Clone(vals)
	clear(vals) // drop the stack's references to the values' strings and slices
	s.stack = s.stack[:base]
	out := make([]*node, len(slab))
	for i := range slab {
		out[i] = &slab[i]
	}
	return out
}

// str reads the string at the scan position. Plain ASCII text is taken as
// it is; text with escapes or other bytes is decoded by encoding/json, so
// escapes and invalid UTF-8 come out exactly as the tokenizer gives them.
func (s *scanner) str() (string, bool) {
	start := s.i
	s.i++ // the opening quote
	plain := true
	for {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			if plain {
				return string(s.data[start+1 : s.i-1]), true
			}
			var out string
			if err := json.Unmarshal(s.data[start:s.i], &out); err != nil {
				return "", false
			}
			return out, true
		case c == '\\':
			plain = false
			s.i += 2
		case c >= 0x80:
			plain = false
			s.i++
		default:
			s.i++
		}
	}
}
