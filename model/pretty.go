package model

import "bytes"

// prettyJSON re-indents compact JSON with two spaces, keeping arrays that hold
// only scalars on one line ("[1, 2, 3]") so matrices read one row per line.
func prettyJSON(compact []byte) []byte {
	var b bytes.Buffer
	indent := 0
	newline := func() {
		b.WriteByte('\n')
		for k := 0; k < indent; k++ {
			b.WriteString("  ")
		}
	}
	for i := 0; i < len(compact); {
		c := compact[i]
		switch c {
		case '"':
			j := stringEnd(compact, i)
			b.Write(compact[i:j])
			i = j
			continue
		case '{', '[':
			end := containerEnd(compact, i)
			if end == i+2 { // empty container
				b.Write(compact[i:end])
				i = end
				continue
			}
			if c == '[' && scalarArray(compact[i:end]) {
				writeInline(&b, compact[i:end])
				i = end
				continue
			}
			b.WriteByte(c)
			indent++
			newline()
		case '}', ']':
			indent--
			newline()
			b.WriteByte(c)
		case ',':
			b.WriteByte(',')
			newline()
		case ':':
			b.WriteString(": ")
		default:
			b.WriteByte(c)
		}
		i++
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// stringEnd returns the index just past the JSON string starting at s[i] == '"'.
func stringEnd(s []byte, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// containerEnd returns the index just past the container opening at s[i].
func containerEnd(s []byte, i int) int {
	depth := 0
	for j := i; j < len(s); {
		switch s[j] {
		case '"':
			j = stringEnd(s, j)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return len(s)
}

// scalarArray reports whether the array text holds no nested container.
func scalarArray(a []byte) bool {
	for j := 1; j < len(a)-1; {
		switch a[j] {
		case '"':
			j = stringEnd(a, j)
			continue
		case '{', '[':
			return false
		}
		j++
	}
	return true
}

func writeInline(b *bytes.Buffer, a []byte) {
	for j := 0; j < len(a); {
		switch a[j] {
		case '"':
			e := stringEnd(a, j)
			b.Write(a[j:e])
			j = e
			continue
		case ',':
			b.WriteString(", ")
		default:
			b.WriteByte(a[j])
		}
		j++
	}
}
