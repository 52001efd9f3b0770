// Package confusion counts a classifier's predictions against the true
// labels: accuracy and the confusion matrix, as text and Markdown tables.
package confusion

import (
	"fmt"
	"io"
	"strings"
)

// Matrix counts predictions: Counts[t][p] rows of true class t predicted as
// class p.
type Matrix struct {
	Classes []string
	Counts  [][]int
}

// New returns an empty matrix over the named classes.
func New(classes []string) *Matrix {
	c := make([][]int, len(classes))
	for i := range c {
		c[i] = make([]int, len(classes))
	}
	return &Matrix{Classes: classes, Counts: c}
}

// Of counts the predictions pred against the labels y (same length).
func Of(classes []string, y, pred []int) *Matrix {
	if len(y) != len(pred) {
		panic(fmt.Sprintf("confusion: %d labels and %d predictions", len(y), len(pred)))
	}
	m := New(classes)
	for i := range y {
		m.Counts[y[i]][pred[i]]++
	}
	return m
}

// Total is the number of rows counted.
func (m *Matrix) Total() int {
	n := 0
	for _, r := range m.Counts {
		for _, c := range r {
			n += c
		}
	}
	return n
}

// Correct is the number of rows predicted as their true class.
func (m *Matrix) Correct() int {
	n := 0
	for i := range m.Counts {
		n += m.Counts[i][i]
	}
	return n
}

// Accuracy is Correct/Total (0 for no rows).
func (m *Matrix) Accuracy() float64 {
	if t := m.Total(); t > 0 {
		return float64(m.Correct()) / float64(t)
	}
	return 0
}

// WriteText writes the accuracy line and the matrix as an aligned table:
// one row per true class, one column per predicted class.
func (m *Matrix) WriteText(w io.Writer) error {
	width := len("true \\ predicted")
	for _, c := range m.Classes {
		width = max(width, len(c))
	}
	for _, r := range m.Counts {
		for _, c := range r {
			width = max(width, len(fmt.Sprint(c)))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy %.4f (%d/%d)\n", m.Accuracy(), m.Correct(), m.Total())
	fmt.Fprintf(&b, "%-*s", width, "true \\ predicted")
	for _, c := range m.Classes {
		fmt.Fprintf(&b, "  %*s", width, c)
	}
	b.WriteByte('\n')
	for i, r := range m.Counts {
		fmt.Fprintf(&b, "%-*s", width, m.Classes[i])
		for _, c := range r {
			fmt.Fprintf(&b, "  %*d", width, c)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown returns the matrix as a Markdown table (rows: true class,
// columns: predicted class).
func (m *Matrix) Markdown() string {
	var b strings.Builder
	b.WriteString("| true \\ predicted |")
	for _, c := range m.Classes {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n| --- |")
	for range m.Classes {
		b.WriteString(" ---: |")
	}
	b.WriteByte('\n')
	for i, r := range m.Counts {
		fmt.Fprintf(&b, "| %s |", m.Classes[i])
		for _, c := range r {
			fmt.Fprintf(&b, " %d |", c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
