// Package memfile reads and writes the $readmemh files of an emitted design
// (ROMs, test vectors, expected outputs): one word per line, exactly
// ⌈width/4⌉ lowercase hexadecimal digits, most significant first, each line
// newline-terminated (docs/rtl-interface.md §5). Bit 0 of a word is the least
// significant bit of its last digit.
package memfile

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Word is a little-endian bit vector of a fixed width, packed into a line.
type Word struct {
	width int
	words []uint64
}

// NewWord returns a zero word of width bits.
func NewWord(width int) *Word {
	return &Word{width: width, words: make([]uint64, (width+63)/64)}
}

// Set writes the low w bits of v (two's complement for negative values) at
// bit offset off. It panics when the field does not fit.
func (b *Word) Set(off, w int, v int64) {
	if w < 1 || w > 64 || off < 0 || off+w > b.width {
		panic(fmt.Sprintf("memfile: field [%d +: %d] outside a %d-bit word", off, w, b.width))
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

// Hex renders the word as ⌈width/4⌉ hex digits, most significant first.
func (b *Word) Hex() string {
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

// HexWord renders v (≥ 0) as a width-bit word.
func HexWord(width int, v int64) string {
	b := NewWord(width)
	b.Set(0, min(width, 64), v)
	return b.Hex()
}

// File joins lines into a $readmemh file.
func File(lines []string) []byte {
	var s strings.Builder
	for _, l := range lines {
		s.WriteString(l)
		s.WriteByte('\n')
	}
	return []byte(s.String())
}

// Read reads a $readmemh file of words of width bits, checking that every
// line has exactly ⌈width/4⌉ hexadecimal digits.
func Read(path string, width int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	digits := (width + 3) / 4
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if len(line) != digits || strings.Trim(line, "0123456789abcdefABCDEF") != "" {
			return nil, fmt.Errorf("%s:%d: want %d hexadecimal digits (%d bits), got %q", path, n, digits, width, line)
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lines, nil
}

// Field returns bits [lo, lo+w) of a hexadecimal word (w ≤ 64) that Read
// accepted.
func Field(line string, lo, w int) uint64 {
	var v uint64
	for b := 0; b < w; b++ {
		pos := lo + b
		d := len(line) - 1 - pos/4
		if d < 0 {
			break
		}
		x, _ := strconv.ParseUint(line[d:d+1], 16, 8)
		if x>>(pos%4)&1 == 1 {
			v |= 1 << b
		}
	}
	return v
}

// Signed reads a w-bit two's complement value.
func Signed(v uint64, w int) int64 {
	if w < 64 && v&(1<<(w-1)) != 0 {
		return int64(v) - 1<<w
	}
	return int64(v)
}
