package power

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// energyPrefixes are the SI prefixes ParseEnergy accepts, longest first.
var energyPrefixes = []struct {
	s string
	f float64
}{
	{"µ", 1e-6}, // U+00B5 micro sign
	{"μ", 1e-6}, // U+03BC Greek mu
	{"u", 1e-6},
	{"m", 1e-3},
	{"n", 1e-9},
	{"p", 1e-12},
	{"", 1},
}

// ParseEnergy parses an energy with a unit: "3.2uJ", "3.2 µJ", "3200nJ",
// "0.0032mJ", "3.2e-6J", "1J". The unit is required (J with an optional
// prefix p, n, u/µ/μ, m); the value must be finite and positive.
func ParseEnergy(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("power: empty energy, want e.g. 3.2uJ")
	}
	if !strings.HasSuffix(t, "J") {
		return 0, fmt.Errorf("power: energy %q has no unit, want J with an optional prefix (e.g. 3.2uJ, 3200nJ, 3.2e-6J)", s)
	}
	body := strings.TrimSuffix(t, "J")
	for _, p := range energyPrefixes {
		if !strings.HasSuffix(body, p.s) {
			continue
		}
		num := strings.TrimRightFunc(strings.TrimSuffix(body, p.s), unicode.IsSpace)
		if num == "" || strings.ContainsFunc(num, unicode.IsSpace) {
			break
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, fmt.Errorf("power: energy %q: %q is not a number", s, num)
		}
		v *= p.f
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("power: energy %q: want a finite value > 0", s)
		}
		return v, nil
	}
	return 0, fmt.Errorf("power: energy %q: want a number and J with an optional prefix p, n, u/µ, m", s)
}

// FormatEnergy prints joules with an SI prefix and 3 significant digits.
func FormatEnergy(j float64) string { return formatSI(j, "J") }

// FormatPower prints watts with an SI prefix and 3 significant digits.
func FormatPower(w float64) string { return formatSI(w, "W") }

func formatSI(v float64, unit string) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprintf("%g %s", v, unit)
	}
	for _, p := range []struct {
		s string
		f float64
	}{{"", 1}, {"m", 1e-3}, {"µ", 1e-6}, {"n", 1e-9}, {"p", 1e-12}} {
		if math.Abs(v) >= p.f*0.9995 {
			return fmt.Sprintf("%.3g %s%s", v/p.f, p.s, unit)
		}
	}
	return fmt.Sprintf("%.3g f%s", v/1e-15, unit)
}
