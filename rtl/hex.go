package rtl

import (
	"fmt"
	"strings"
)

// bitvec is a little-endian bit vector used to pack .mem words.
type bitvec struct {
	width int
	words []uint64
}

func newBitvec(width int) *bitvec {
	return &bitvec{width: width, words: make([]uint64, (width+63)/64)}
}

// set writes the low w bits of v (two's complement for negative values) at bit
// offset off. It panics when the field does not fit.
func (b *bitvec) set(off, w int, v int64) {
	if w < 1 || w > 64 || off < 0 || off+w > b.width {
		panic(fmt.Sprintf("rtl: field [%d +: %d] outside a %d-bit word", off, w, b.width))
	}
	u := uint64(v)
	if w < 64 {
		u &= 1<<w - 1
	}
	for i := 0; i < w; {
		word, bit := (off+i)/64, (off+i)%64
		n := min(64-bit, w-i)
		var mask uint64 = 1<<n - 1
		if n == 64 {
			mask = ^uint64(0)
		}
		b.words[word] |= (u >> i & mask) << bit
		i += n
	}
}

// hex renders the vector as ⌈width/4⌉ hex digits, most significant first.
func (b *bitvec) hex() string {
	digits := (b.width + 3) / 4
	var s strings.Builder
	s.Grow(digits)
	for d := digits - 1; d >= 0; d-- {
		off := 4 * d
		v := b.words[off/64] >> (off % 64) & 0xf // digits never straddle words
		s.WriteByte("0123456789abcdef"[v])
	}
	return s.String()
}

// memFile joins lines into a $readmemh file (one word per line, newline-terminated).
func memFile(lines []string) []byte {
	var s strings.Builder
	for _, l := range lines {
		s.WriteString(l)
		s.WriteByte('\n')
	}
	return []byte(s.String())
}

// hexWord renders v (≥ 0) as a width-bit word.
func hexWord(width int, v int64) string {
	b := newBitvec(width)
	b.set(0, min(width, 64), v)
	return b.hex()
}
