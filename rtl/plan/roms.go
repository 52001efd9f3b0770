package plan

import (
	"github.com/hdlgen/hdlgen/internal/memfile"
	"github.com/hdlgen/hdlgen/model"
)

// ROMFiles returns the contents of the design's .mem ROM files for model m
// (the model the plan was derived from), keyed by their DIR-relative paths
// (ROM.File). Word layouts are documented in ROM.Purpose; lanes of the last
// group beyond neuron N−1 hold zeros. Emit writes them; the verifier of a
// design directory compares them with DIR/mem.
func (pl *Plan) ROMFiles(m *model.Model) map[string][]byte {
	files := map[string][]byte{}
	layer := pl.Layer()
	n, l, p := pl.N, pl.L, pl.P
	hasWin := pl.HasROM(ROMWin) // false with the W_in generator
	var win ROM
	if hasWin {
		win = pl.ROM(ROMWin)
	}
	wout := pl.ROM(ROMWout)
	winLines := make([]string, pl.Groups)
	woutLines := make([]string, pl.Groups)
	for g := 0; g < pl.Groups; g++ {
		var wb *memfile.Word
		if hasWin {
			wb = memfile.NewWord(win.Width)
		}
		ob := memfile.NewWord(wout.Width)
		for lane := 0; lane < p; lane++ {
			j := g*p + lane
			if j >= n {
				break
			}
			if hasWin {
				layer.WinLane(pl, m.Net, j, lane, wb.Set)
			}
			for c := 0; c < l; c++ {
				ob.Set((c*p+lane)*pl.QW, pl.QW, int64(m.Readout.Q[c*n+j])) // class-major
			}
		}
		if hasWin {
			winLines[g] = wb.Hex()
		}
		woutLines[g] = ob.Hex()
	}
	if hasWin {
		files[win.File] = memfile.File(winLines)
	}
	if pl.ReloadableReadout {
		// Both banks of the readout RAM, each padded to 2^GroupW words.
		bank := append(woutLines, make([]string, 1<<pl.GroupW-pl.Groups)...)
		for a := pl.Groups; a < len(bank); a++ {
			bank[a] = memfile.HexWord(wout.Width, 0)
		}
		woutLines = append(bank, bank...)
	}
	files[wout.File] = memfile.File(woutLines)
	for role, words := range layer.ExtraROMWords(pl, m.Net) {
		rom := pl.ROM(role)
		lines := make([]string, len(words))
		for a, v := range words {
			lines[a] = memfile.HexWord(rom.Width, v)
		}
		files[rom.File] = memfile.File(lines)
	}
	return files
}
