package examples_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
)

var updateGlyphs = flag.Bool("update-glyphs", false, "rewrite glyphs.csv from its generator")

// glyphFont is a 5×7 bitmap of each digit ('#' lit).
var glyphFont = [10][7]string{
	{".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	{"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	{".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	{"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."},
	{"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	{"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	{"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
	{"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	{".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	{".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
}

// glyphNames are the class names, in digit order.
var glyphNames = [10]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// glyphsCSV generates glyphs.csv: a synthetic handwritten-digit data set of
// the project's own, the shape of the classic 8×8 digits (1,797 rows, 64
// features p00…p77 with integer intensities 0…16, 10 classes), for timing
// `hdlgen build` on a larger CSV. Each row draws its digit's 5×7 glyph at a
// random place of the 8×8 canvas (the glyph's top-left corner in columns
// 1…2, rows 0…1), sometimes one pixel bolder, with each lit pixel dropped
// with probability 0.12 and its intensity uniform in 9…16, then a light
// blur (a quarter of each 4-neighbour's ink) and Gaussian noise (σ = 1.5),
// rounded and clamped to 0…16. Classes zero…six have 180 rows, seven…nine
// 179; rows are shuffled; the seed is fixed. The label is the last column,
// digit, with the digits' English names.
func glyphsCSV() []byte {
	rng := rand.New(rand.NewPCG(2026, 64))
	var rows []string
	for d := 0; d < 10; d++ {
		count := 180
		if d >= 7 {
			count = 179
		}
		for i := 0; i < count; i++ {
			var ink [8][8]float64
			dx, dy := 1+rng.IntN(2), rng.IntN(2)
			bold := rng.Float64() < 0.3
			for y, line := range glyphFont[d] {
				for x, c := range line {
					if c != '#' || rng.Float64() < 0.12 {
						continue
					}
					v := 9 + 7*rng.Float64()
					ink[y+dy][x+dx] = math.Max(ink[y+dy][x+dx], v)
					if bold && x+dx+1 < 8 {
						ink[y+dy][x+dx+1] = math.Max(ink[y+dy][x+dx+1], 0.7*v)
					}
				}
			}
			var b strings.Builder
			for y := 0; y < 8; y++ {
				for x := 0; x < 8; x++ {
					v := ink[y][x]
					for _, n := range [][2]int{{y - 1, x}, {y + 1, x}, {y, x - 1}, {y, x + 1}} {
						if n[0] >= 0 && n[0] < 8 && n[1] >= 0 && n[1] < 8 {
							v += 0.25 * ink[n[0]][n[1]]
						}
					}
					v += 1.5 * rng.NormFloat64()
					fmt.Fprintf(&b, "%d,", int(math.Min(16, math.Max(0, math.Round(v)))))
				}
			}
			b.WriteString(glyphNames[d])
			rows = append(rows, b.String())
		}
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var b bytes.Buffer
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			fmt.Fprintf(&b, "p%d%d,", y, x)
		}
	}
	b.WriteString("digit\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return b.Bytes()
}

func TestGlyphsCSV(t *testing.T) {
	want := glyphsCSV()
	if *updateGlyphs {
		if err := os.WriteFile("glyphs.csv", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("glyphs.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("glyphs.csv differs from its generator; rerun with -update-glyphs")
	}
	d, err := dataset.LoadCSV("glyphs.csv", dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.M() != 1797 || d.K() != 64 || d.LabelName != "digit" {
		t.Errorf("%d rows, %d features, label %q; want 1797, 64, digit", d.M(), d.K(), d.LabelName)
	}
	counts := map[string]int{}
	for r := 0; r < d.M(); r++ {
		counts[d.ClassNames[d.Y[r]]]++
	}
	want2 := map[string]int{}
	for i, n := range glyphNames {
		want2[n] = 180
		if i >= 7 {
			want2[n] = 179
		}
	}
	if diff := cmp.Diff(want2, counts); diff != "" {
		t.Errorf("class counts (-want +got)\n%s", diff)
	}
	for _, v := range d.X {
		if v != math.Trunc(v) || v < 0 || v > 16 {
			t.Fatalf("intensity %v outside the integers 0…16", v)
		}
	}
}
