package confusion

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatrix(t *testing.T) {
	m := Of([]string{"a", "bb"}, []int{0, 0, 1, 1, 1}, []int{0, 1, 1, 1, 0})
	if diff := cmp.Diff([][]int{{1, 1}, {1, 2}}, m.Counts); diff != "" {
		t.Errorf("counts (-want +got)\n%s", diff)
	}
	if m.Correct() != 3 || m.Total() != 5 || m.Accuracy() != 0.6 {
		t.Errorf("correct %d total %d accuracy %v, want 3 5 0.6", m.Correct(), m.Total(), m.Accuracy())
	}
	var b strings.Builder
	if err := m.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "accuracy 0.6000 (3/5)\n" +
		"true \\ predicted                 a                bb\n" +
		"a                                1                 1\n" +
		"bb                               1                 2\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text (-want +got)\n%s", diff)
	}
	wantMD := "| true \\ predicted | a | bb |\n| --- | ---: | ---: |\n| a | 1 | 1 |\n| bb | 1 | 2 |\n"
	if diff := cmp.Diff(wantMD, m.Markdown()); diff != "" {
		t.Errorf("markdown (-want +got)\n%s", diff)
	}
}

func TestSVG(t *testing.T) {
	m := Of([]string{"a<b", "c"}, []int{0, 0, 1, 1, 1}, []int{0, 1, 1, 1, 0})
	svg := m.SVG("held-out & more")
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	for _, want := range []string{`&#34;a\x3cb&#34;`, "held-out &amp; more", ">2</text>", "accuracy 0.6000 (3/5)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if !bytes.Equal(svg, m.SVG("held-out & more")) {
		t.Error("SVG is not deterministic")
	}
	full := Of([]string{"x", "y"}, []int{0, 1}, []int{0, 1}).SVG("t")
	if !strings.Contains(string(full), `fill="#08306b"`) {
		t.Error("a row share of 1 is not the darkest colour")
	}
}

// TestSVGFitsItsText: with two or three classes the picture is still as
// wide as its title and its footer (at 0.6 em per character, the width of
// a wide sans-serif text), and as its longest class name on the left.
func TestSVGFitsItsText(t *testing.T) {
	const title = "5-bit integer readout, held-out rows"
	for _, classes := range [][]string{{"benign", "malignant"}, {"faulty", "normal", "worn"}, {"a", "a-rather-long-class-name"}} {
		y := make([]int, 1234)
		for i := range y {
			y[i] = i % len(classes)
		}
		m := Of(classes, y, y)
		var svg struct {
			Width int `xml:"width,attr"`
			Texts []struct {
				X    int    `xml:"x,attr"`
				Size int    `xml:"font-size,attr"`
				Body string `xml:",chardata"`
			} `xml:"text"`
		}
		if err := xml.Unmarshal(m.SVG(title), &svg); err != nil {
			t.Fatal(err)
		}
		for _, tx := range svg.Texts {
			size := tx.Size
			if size == 0 {
				size = 12
			}
			if tx.X < 0 || (tx.Body == title || strings.HasPrefix(tx.Body, "accuracy")) && tx.X+len(tx.Body)*size*6/10 > svg.Width {
				t.Errorf("%d classes: %q at x=%d (font %d) overflows the width %d", len(classes), tx.Body, tx.X, size, svg.Width)
			}
		}
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"setosa", "setosa"},
		{"Iris-versicolor (2)", "Iris-versicolor (2)"},
		{"naïve", "naïve"},
		{"a\nb", `"a\nb"`},
		{"```", `"\x60\x60\x60"`},
		{"a|b", `"a\x7cb"`},
		{"<b>", `"\x3cb\x3e"`},
		{"**x**", `"\x2a\x2ax\x2a\x2a"`},
		{` say "hi"\`, `" say \"hi\"\\"`},
		{"", `""`},
	} {
		if got := Label(tc.in); got != tc.want {
			t.Errorf("Label(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
