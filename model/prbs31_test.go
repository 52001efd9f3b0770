package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refLFSR is an independent PRBS31 generator written as the shift register
// the hardware would hold: state bit m is x_{t+m}; each step outputs bit 0,
// shifts right and puts x_{t+31} = x_{t+3} XOR x_t into bit 30 (the
// recurrence x_t = x_{t−28} XOR x_{t−31} read 31 steps ahead).
type refLFSR struct{ state uint32 }

func (r *refLFSR) next() uint32 {
	out := r.state & 1
	nb := (r.state ^ r.state>>3) & 1
	r.state = r.state>>1 | nb<<30
	return out
}

func refBits(seed uint32, n int) []uint32 {
	r := refLFSR{state: seed}
	out := make([]uint32, n)
	for t := range out {
		out[t] = r.next()
	}
	return out
}

func TestPRBSBitsMatchShiftRegister(t *testing.T) {
	for _, seed := range []uint32{1, 0x7fffffff, 0x2aaaaaaa, PRBSSeed(0), PRBSSeed(12345)} {
		const n = 5000
		want := refBits(seed, n)
		bits := PRBSBits(seed, n)
		got := make([]uint32, n)
		for i := range got {
			got[i] = uint32(bits[i/64] >> (i % 64) & 1)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("seed %#x: PRBS31 bits differ from the shift register (-want +got):\n%s", seed, diff)
		}
	}
}

// TestPRBSFirstBitsGolden pins the first 96 bits from seed 1 (x_0 = 1, the
// rest of the seed zero): bits 31…95 follow from the recurrence by hand —
// x_31 = x_3 ^ x_0 = 1, x_34 = x_6 ^ x_3 = 0, x_59 = x_31 ^ x_28 = 1,
// x_62 = x_34 ^ x_31 = 1, x_65 = x_37 ^ x_34 = 0, x_87 = x_59 ^ x_56 = 1, x_90 = x_62 ^ x_59 = 0,
// x_93 = x_65 ^ x_62 = 1.
func TestPRBSFirstBitsGolden(t *testing.T) {
	bits := PRBSBits(1, 96)
	var got []int
	for i := 0; i < 96; i++ {
		if bits[i/64]>>(i%64)&1 == 1 {
			got = append(got, i)
		}
	}
	want := []int{0, 31, 59, 62, 87, 93}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ones among x_0…x_95 from seed 1 (-want +got):\n%s", diff)
	}
}

func TestPRBSRecurrence(t *testing.T) {
	const n = 3000
	bits := PRBSBits(PRBSSeed(7), n)
	x := func(t int) uint64 { return bits[t/64] >> (t % 64) & 1 }
	for t0 := PRBSLen; t0 < n; t0++ {
		if x(t0) != x(t0-PRBSTap)^x(t0-PRBSLen) {
			t.Fatalf("x_%d = %d, want x_%d ^ x_%d", t0, x(t0), t0-PRBSTap, t0-PRBSLen)
		}
	}
}

// shiftWindow is the RTL's window update (hdlgen_win_lfsr): from the window
// w = x_a … x_{a+M−1} (w[m] = x_{a+m}) it extends w by P bits with the
// recurrence (bit M+t = bit M+t−28 XOR bit M+t−31, chains when t ≥ 28) and
// keeps bits P … P+M−1.
func shiftWindow(w []uint64, p int) []uint64 {
	m := len(w)
	ext := append(append([]uint64(nil), w...), make([]uint64, p)...)
	for t := 0; t < p; t++ {
		ext[m+t] = ext[m+t-PRBSTap] ^ ext[m+t-PRBSLen]
	}
	return ext[p:]
}

func TestWindowShiftIsPSteps(t *testing.T) {
	seed := PRBSSeed(3)
	for _, k := range []int{1, 2, 16, 40} {
		for _, p := range []int{1, 3, 8, 29, 64} {
			t.Run(fmt.Sprintf("K=%d/P=%d", k, p), func(t *testing.T) {
				m := max(PRBSLen, k+p-1)
				const groups = 20
				bits := refBits(seed, groups*p+m)
				win := make([]uint64, m)
				for i := range win {
					win[i] = uint64(bits[i])
				}
				for g := 1; g < groups; g++ {
					win = shiftWindow(win, p)
					want := make([]uint64, m)
					for i := range want {
						want[i] = uint64(bits[g*p+i])
					}
					if diff := cmp.Diff(want, win); diff != "" {
						t.Fatalf("group %d: window after a shift by P differs from P single steps (-want +got):\n%s", g, diff)
					}
				}
			})
		}
	}
}

func TestPRBSSignsToeplitz(t *testing.T) {
	seed := PRBSSeed(9)
	for _, kn := range [][2]int{{1, 5}, {5, 7}, {64, 10}, {65, 9}, {130, 40}} {
		k, n := kn[0], kn[1]
		s := PRBSSigns(seed, n, k)
		bits := refBits(seed, n+k-1)
		for j := 0; j < n; j++ {
			for i := 0; i < k; i++ {
				if s.Negative(j, i) != (bits[j+i] == 1) {
					t.Fatalf("K=%d N=%d: W_in[%d][%d] negative=%v, x_%d = %d", k, n, j, i, s.Negative(j, i), j+i, bits[j+i])
				}
			}
		}
	}
}

func TestPRBSSeedNonzeroAndPrefix(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		if s := PRBSSeed(seed); s == 0 || s>>31 != 0 {
			t.Fatalf("PRBSSeed(%d) = %#x", seed, s)
		}
	}
	big, small := NewIntNetGen(70, 300, 3, 3, WinPRBS31), NewIntNetGen(70, 20, 3, 3, WinPRBS31)
	for j := 0; j < 20; j++ {
		if big.Signs.HexRow(j) != small.Signs.HexRow(j) {
			t.Fatalf("sign row %d differs between N=300 and N=20", j)
		}
	}
	if stored := NewIntNetGen(70, 20, 3, 3, WinStored); stored.Gen != WinStored || stored.Signs.HexRow(0) != NewIntNet(70, 20, 3, 3).Signs.HexRow(0) {
		t.Errorf("NewIntNetGen(WinStored) is not NewIntNet")
	}
}

func TestParseWinGen(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want WinGen
		err  bool
	}{{"", WinStored, false}, {"stored", WinStored, false}, {"lfsr", WinPRBS31, false}, {"prbs31", WinPRBS31, false}, {"rom", "", true}} {
		got, err := ParseWinGen(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseWinGen(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func TestTrainWinOnlyIntRVFL(t *testing.T) {
	d := blobs(60, 3, 2, 1)
	_, err := Train(context.Background(), d, Config{Arch: RVFL8, N: 10, Lambda: 1, Win: WinPRBS31})
	if err == nil || !strings.Contains(err.Error(), "intrvfl only") {
		t.Errorf("rvfl8 with a PRBS31 W_in: err %v, want an intrvfl-only error", err)
	}
}

// TestPRBSModelJSON checks that a generator model records the generator,
// reloads, and that the loader refuses rows or seeds that are not the
// generator's, naming the field.
func TestPRBSModelJSON(t *testing.T) {
	m, err := Train(context.Background(), blobs(60, 5, 3, 1), Config{Arch: IntRVFL, N: 12, Kappa: 3, Lambda: 1, Seed: 4, ReadoutBits: 5, Win: WinPRBS31})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	seedLine := fmt.Sprintf(`"w_in_prbs_seed": %d`, PRBSSeed(4))
	if !strings.Contains(string(data), `"w_in_generator": "prbs31"`) || !strings.Contains(string(data), seedLine) {
		t.Fatalf("model.json lacks the generator fields:\n%s", data)
	}
	back, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if in := back.Net.(*IntNet); in.Gen != WinPRBS31 || in.PRBSSeed != PRBSSeed(4) {
		t.Errorf("reloaded generator %q seed %d", in.Gen, in.PRBSSeed)
	}
	row0 := m.Net.(*IntNet).Signs.HexRow(0)
	flipped := "0" + row0[1:]
	if row0[0] == '0' {
		flipped = "1" + row0[1:]
	}
	for _, tc := range []struct {
		name, old, new, field string
	}{
		{"row", `"` + row0 + `"`, `"` + flipped + `"`, "intrvfl.w_in_signs[0]"},
		{"model seed", `"seed": 4,`, `"seed": 5,`, "intrvfl.w_in_prbs_seed"},
		{"seed", seedLine, `"w_in_prbs_seed": 5`, "intrvfl.w_in_signs[0]"},
		{"zero seed", seedLine, `"w_in_prbs_seed": 0`, "intrvfl.w_in_prbs_seed"},
		{"generator", `"prbs31"`, `"prbs7"`, "intrvfl.w_in_generator"},
		{"no seed", seedLine + ",", "", "intrvfl.w_in_prbs_seed"},
		{"no generator", `"w_in_generator": "prbs31",`, "", "intrvfl.w_in_prbs_seed"},
	} {
		bad := strings.Replace(string(data), tc.old, tc.new, 1)
		if bad == string(data) {
			t.Fatalf("%s: %q not found", tc.name, tc.old)
		}
		_, err := Unmarshal([]byte(bad))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s: error %v, want a FieldError at %s", tc.name, err, tc.field)
		}
	}
}
