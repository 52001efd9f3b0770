package rtl

import "github.com/hdlgen/hdlgen/internal/memfile"

// The .mem words of the design's vectors and system constants are written
// with package memfile, the one owner of the $readmemh format; bitvec names
// its word for this package's code.
type bitvec struct{ w *memfile.Word }

func newBitvec(width int) *bitvec { return &bitvec{memfile.NewWord(width)} }

func (b *bitvec) set(off, w int, v int64) { b.w.Set(off, w, v) }

func (b *bitvec) hex() string { return b.w.Hex() }

func memFile(lines []string) []byte { return memfile.File(lines) }

func hexWord(width int, v int64) string { return memfile.HexWord(width, v) }
