package plan

import (
	"math/big"
	"testing"

	"github.com/hdlgen/hdlgen/model"
)

// TestPRBSHexFromStepsBack checks the W2 generator's seed window: from 0 it
// is prbsHex's, and the window from −b, shifted down by b bits, is the
// window from 0; its first b bits obey the recurrence x_u = x_{u+31} XOR
// x_{u+3} that the generator then runs forwards.
func TestPRBSHexFromStepsBack(t *testing.T) {
	for _, seed := range []uint32{1, 0x5a5a5a5, 1<<31 - 1} {
		for _, m := range []int{31, 40, 77} {
			if got, want := prbsHexFrom(seed, 0, m), prbsHex(seed, m); got != want {
				t.Fatalf("seed %#x m %d: from 0 %s, prbsHex %s", seed, m, got, want)
			}
			for _, b := range []int{1, 3, 30} {
				back := parseHex(t, prbsHexFrom(seed, -b, m+b))
				fwd := parseHex(t, prbsHex(seed, m))
				if shifted := new(big.Int).Rsh(back, uint(b)); shifted.Cmp(fwd) != 0 {
					t.Fatalf("seed %#x m %d b %d: window from −b shifted by b is %x, want %x", seed, m, b, shifted, fwd)
				}
				for u := 0; u < b; u++ {
					if back.Bit(u) != back.Bit(u+model.PRBSLen)^back.Bit(u+model.PRBSLen-model.PRBSTap) {
						t.Fatalf("seed %#x b %d: bit %d breaks the recurrence", seed, b, u)
					}
				}
			}
		}
	}
}

func parseHex(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		t.Fatalf("not hex: %q", s)
	}
	return v
}
