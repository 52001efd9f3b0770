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
	for _, want := range []string{"a&lt;b", "held-out &amp; more", ">2</text>", "accuracy 0.6000 (3/5)"} {
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
