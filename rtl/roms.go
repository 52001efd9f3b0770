package rtl

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// romFiles returns the contents of the design's .mem ROM files, keyed by their
// DIR-relative paths (plan.ROM.File). Word layouts are documented in plan.ROM.Purpose;
// lanes of the last group beyond neuron N−1 hold zeros.
func romFiles(m *model.Model, pl *plan.Plan) map[string][]byte {
	files := map[string][]byte{}
	layer := pl.Layer()
	n, l, p := pl.N, pl.L, pl.P
	hasWin := pl.HasROM(plan.ROMWin) // false with the W_in generator
	var win plan.ROM
	if hasWin {
		win = pl.ROM(plan.ROMWin)
	}
	wout := pl.ROM(plan.ROMWout)
	winLines := make([]string, pl.Groups)
	woutLines := make([]string, pl.Groups)
	for g := 0; g < pl.Groups; g++ {
		var wb *bitvec
		if hasWin {
			wb = newBitvec(win.Width)
		}
		ob := newBitvec(wout.Width)
		for lane := 0; lane < p; lane++ {
			j := g*p + lane
			if j >= n {
				break
			}
			if hasWin {
				layer.WinLane(pl, m.Net, j, lane, wb.set)
			}
			for c := 0; c < l; c++ {
				ob.set((c*p+lane)*pl.QW, pl.QW, int64(m.Readout.Q[c*n+j])) // class-major
			}
		}
		if hasWin {
			winLines[g] = wb.hex()
		}
		woutLines[g] = ob.hex()
	}
	if hasWin {
		files[win.File] = memFile(winLines)
	}
	if pl.ReloadableReadout {
		// Both banks of the readout RAM, each padded to 2^GroupW words.
		bank := append(woutLines, make([]string, 1<<pl.GroupW-pl.Groups)...)
		for a := pl.Groups; a < len(bank); a++ {
			bank[a] = hexWord(wout.Width, 0)
		}
		woutLines = append(bank, bank...)
	}
	files[wout.File] = memFile(woutLines)
	for role, words := range layer.ExtraROMWords(pl, m.Net) {
		rom := pl.ROM(role)
		lines := make([]string, len(words))
		for a, v := range words {
			lines[a] = hexWord(rom.Width, v)
		}
		files[rom.File] = memFile(lines)
	}
	return files
}
