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
	k, n, l, p := pl.K, pl.N, pl.L, pl.P
	win := pl.ROM(plan.ROMWin)
	wout := pl.ROM(plan.ROMWout)
	winLines := make([]string, pl.Groups)
	woutLines := make([]string, pl.Groups)
	for g := 0; g < pl.Groups; g++ {
		wb := newBitvec(win.Width)
		ob := newBitvec(wout.Width)
		for lane := 0; lane < p; lane++ {
			j := g*p + lane
			if j >= n {
				break
			}
			switch pl.Arch {
			case model.IntRVFL:
				for i := 0; i < k; i++ {
					if m.Int.Signs.Negative(j, i) {
						wb.set(i*p+lane, 1, 1) // feature-major: the hidden layer is bit-sliced
					}
				}
			case model.RVFL8:
				base := lane * (k + 1) * 8
				for i := 0; i < k; i++ {
					wb.set(base+i*8, 8, int64(m.Fixed.Win[j*k+i]))
				}
				wb.set(base+k*8, 8, int64(m.Fixed.Bias[j]))
			}
			for c := 0; c < l; c++ {
				ob.set((c*p+lane)*pl.QW, pl.QW, int64(m.Readout.Q[c*n+j])) // class-major
			}
		}
		winLines[g] = wb.hex()
		woutLines[g] = ob.hex()
	}
	files[win.File] = memFile(winLines)
	files[wout.File] = memFile(woutLines)
	if pl.Arch == model.RVFL8 {
		lut := pl.ROM(plan.ROMLUT)
		lines := make([]string, len(m.Fixed.LUT))
		for a, v := range m.Fixed.LUT {
			lines[a] = hexWord(8, int64(v))
		}
		files[lut.File] = memFile(lines)
	}
	return files
}
