package board

import "testing"

func TestZedBoardConsistent(t *testing.T) {
	if ZedBoard.Device.Part != Part || ZedBoard.ClockHz != ClockHz || ZedBoard.ClockPeriodNS() != ClockPeriodNS || ClockPeriodNS != 10 {
		t.Errorf("ZedBoard %+v disagrees with the constants Part=%s ClockHz=%g ClockPeriodNS=%g", ZedBoard, Part, ClockHz, ClockPeriodNS)
	}
}

func TestFits(t *testing.T) {
	tests := []struct {
		luts, ffs, dsps int
		bram            float64
		ok              bool
		over            string
	}{
		{53200, 106400, 220, 140, true, ""},
		{53201, 0, 0, 0, false, "LUTs 53201 > 53200"},
		{0, 0, 221, 140.5, false, "DSP48E1 221 > 220, BRAM36 140.5 > 140"},
	}
	for _, tc := range tests {
		ok, over := XC7Z020.Fits(tc.luts, tc.ffs, tc.dsps, tc.bram)
		if ok != tc.ok || over != tc.over {
			t.Errorf("Fits(%d, %d, %d, %g) = %v %q, want %v %q", tc.luts, tc.ffs, tc.dsps, tc.bram, ok, over, tc.ok, tc.over)
		}
	}
}
