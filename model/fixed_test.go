package model

import (
	"math"
	"testing"
)

func TestSigmoidLUT(t *testing.T) {
	lut := SigmoidLUT()
	if len(lut) != LUTSize {
		t.Fatalf("LUT has %d entries", len(lut))
	}
	tests := []struct{ addr, want int }{
		{-128, 0},  // sigmoid(−7.97)·256 = 0.09
		{-1, 126},  // sigmoid(−1/32)·256 = 126.0
		{0, 130},   // sigmoid(1/32)·256 = 130.0
		{127, 255}, // 255.9 saturates at 255
	}
	for _, tc := range tests {
		if got := int(lut[tc.addr+128]); got != tc.want {
			t.Errorf("LUT[%d] = %d, want %d", tc.addr, got, tc.want)
		}
	}
	for a := 1; a < LUTSize; a++ {
		if lut[a] < lut[a-1] {
			t.Fatalf("LUT not monotone at %d", a)
		}
	}
}

func TestFixedPointRules(t *testing.T) {
	if got := InputCode(1); got != 255 {
		t.Errorf("InputCode(1) = %d", got)
	}
	if got := InputCode(0.5); got != 128 {
		t.Errorf("InputCode(0.5) = %d", got)
	}
	if got := InputCode(1.0 / 512); got != 1 { // tie rounds up
		t.Errorf("InputCode(1/512) = %d", got)
	}
	for _, tc := range []struct {
		z    int32
		want int
	}{{0, 0}, {2047, 0}, {2048, 1}, {-1, -1}, {-2048, -1}, {-2049, -2}, {1 << 20, 127}, {-(1 << 20), -128}} {
		if got := LUTAddress(tc.z); got != tc.want {
			t.Errorf("LUTAddress(%d) = %d, want %d", tc.z, got, tc.want)
		}
	}
	f := &FloatNet{K: 2, N: 2, Win: []float64{1, -1, 0.5, -0.00390625}, Bias: []float64{0.1, -0.1}}
	q := QuantizeFloatNet(f)
	// 1·128 saturates to 127; −0.00390625·128 = −0.5 rounds half away from zero to −1.
	wantW := []int8{127, -128, 64, -1}
	for i := range wantW {
		if q.Win[i] != wantW[i] {
			t.Errorf("W_in code %d = %d, want %d", i, q.Win[i], wantW[i])
		}
	}
	if q.Bias[0] != 102 || q.Bias[1] != -102 { // 0.1·1024 = 102.4
		t.Errorf("bias codes %v", q.Bias)
	}
	// z = a·w + c·32 exactly.
	a := []uint8{255, 10}
	if got, want := q.PreActivation(0, a), int32(255*127+10*-128+102*32); got != want {
		t.Errorf("PreActivation = %d, want %d", got, want)
	}
	// Hidden code equals the LUT at the address, and approximates the float sigmoid.
	h := make([]int, 2)
	q.HiddenTo(h, a)
	z := float64(q.PreActivation(0, a)) / (1 << PreActFracBits)
	if math.Abs(float64(h[0])/256-Sigmoid(z)) > 0.02 {
		t.Errorf("hidden %d/256 far from sigmoid(%v) = %v", h[0], z, Sigmoid(z))
	}
}
