package confusion

import (
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
