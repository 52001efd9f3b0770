// Package confusion counts a classifier's predictions against the true
// labels: accuracy and the confusion matrix, as text and Markdown tables.
package confusion

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Matrix counts predictions: Counts[t][p] rows of true class t predicted as
// class p.
type Matrix struct {
	Classes []string
	Counts  [][]int
}

// Score is a matrix with its totals, as values for JSON (hdlgen predict
// --score --json prints one).
type Score struct {
	Accuracy float64  `json:"accuracy"`
	Correct  int      `json:"correct"`
	Total    int      `json:"total"`
	Classes  []string `json:"classes"`
	Counts   [][]int  `json:"counts"` // Counts[t][p]: rows of true class t predicted as p
}

// Score returns m with its totals.
func (m *Matrix) Score() Score {
	return Score{Accuracy: m.Accuracy(), Correct: m.Correct(), Total: m.Total(), Classes: m.Classes, Counts: m.Counts}
}

// Matrix returns the matrix of s.
func (s Score) Matrix() *Matrix { return &Matrix{Classes: s.Classes, Counts: s.Counts} }

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
	names := m.labels()
	width := len("true \\ predicted")
	for _, c := range names {
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
	for _, c := range names {
		fmt.Fprintf(&b, "  %*s", width, c)
	}
	b.WriteByte('\n')
	for i, r := range m.Counts {
		fmt.Fprintf(&b, "%-*s", width, names[i])
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
	names := m.labels()
	b.WriteString("| true \\ predicted |")
	for _, c := range names {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n| --- |")
	for range m.Classes {
		b.WriteString(" ---: |")
	}
	b.WriteByte('\n')
	for i, r := range m.Counts {
		fmt.Fprintf(&b, "| %s |", names[i])
		for _, c := range r {
			fmt.Fprintf(&b, " %d |", c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// SVG draws the matrix as a grid: one row per true class, one column per
// predicted class, each cell shaded by its share of the row (white 0, dark
// blue 1) and labelled with its count. The output is deterministic.
//
// The picture is wide enough for its title, its footer and the class names,
// measured at a generous 0.6 em per character (so nothing is clipped with
// two or three classes).
func (m *Matrix) SVG(title string) []byte {
	// Cells of 48 pixels up to 12 classes, else 28 (room for 3 digits at
	// 12 pixels): 26 classes stay within a page's width, so no browser
	// scales the labels down.
	n := len(m.Classes)
	cell := 48
	if n > 12 {
		cell = 28
	}
	labels := m.labels()
	names := 0
	for _, c := range labels {
		names = max(names, utf8.RuneCountInString(c))
	}
	// Column labels longer than a cell is wide are written at 45°, above
	// their column, with room for them.
	slanted := textWidth(names, 12) > cell-6
	top := 70
	if slanted {
		top = 50 + textWidth(names, 12)*3/4
	}
	left := max(120, 30+textWidth(names, 12))
	footer := fmt.Sprintf("accuracy %.4f (%d/%d)", m.Accuracy(), m.Correct(), m.Total())
	w := max(left+n*cell+20, 10+textWidth(utf8.RuneCountInString(title), 14)+10, left+textWidth(len(footer), 12)+10)
	if slanted {
		w = max(w, left+n*cell+textWidth(names, 12)*3/4+10)
	}
	h := top + n*cell + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="10" y="18" font-size="14">%s</text>`+"\n", xmlEscape(title))
	fmt.Fprintf(&b, `<text x="%d" y="40" text-anchor="middle">predicted</text>`+"\n", left+n*cell/2)
	fmt.Fprintf(&b, `<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">true</text>`+"\n", top+n*cell/2, top+n*cell/2)
	for i, c := range labels {
		if slanted {
			x := left + i*cell + cell/2
			fmt.Fprintf(&b, `<text x="%d" y="%d" transform="rotate(-45 %d %d)">%s</text>`+"\n", x, top-8, x, top-8, xmlEscape(c))
		} else {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", left+i*cell+cell/2, top-8, xmlEscape(c))
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-6, top+i*cell+cell/2+4, xmlEscape(c))
	}
	for i, r := range m.Counts {
		sum := 0
		for _, v := range r {
			sum += v
		}
		for j, v := range r {
			share := 0.0
			if sum > 0 {
				share = float64(v) / float64(sum)
			}
			// Interpolate white → #08306b.
			cr, cg, cb := 255-int(share*(255-8)), 255-int(share*(255-48)), 255-int(share*(255-107))
			text := "black"
			if share > 0.5 {
				text = "white"
			}
			x, y := left+j*cell, top+i*cell
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#%02x%02x%02x" stroke="#999"/>`+"\n", x, y, cell, cell, cr, cg, cb)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="%s">%d</text>`+"\n", x+cell/2, y+cell/2+4, text, v)
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", left, top+n*cell+24, footer)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// textWidth is the width in pixels of chars characters at size px (0.6 em
// each, wider than the average sans-serif character).
func textWidth(chars, px int) int { return (chars*px*6 + 9) / 10 }

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// Label is a class name as reports print it: unchanged when it is plain
// (letters, digits, spaces and punctuation that means nothing to Markdown,
// HTML or a text table), else in double quotes with every other character
// escaped as in Go (\n, \t, \x60 for a backtick, \x7c for a bar, …), so that
// a name can break neither a Markdown fence or table nor a page.
func Label(name string) string {
	plain := name != "" && strings.TrimSpace(name) == name
	for _, r := range name {
		if !safeRune(r) {
			plain = false
		}
	}
	if plain {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range name {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case safeRune(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsPrint(r) && !unicode.IsSpace(r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// safeRune reports whether r prints as itself in Markdown, HTML and a text
// table.
func safeRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	case strings.ContainsRune(" .,:;-+=/()'?!@%^~{}", r):
		return true
	case r >= 0x80:
		return unicode.IsPrint(r) && !unicode.IsSpace(r) && r != '\u2028' && r != '\u2029'
	}
	return false
}

// labels are the matrix's class names as Label prints them.
func (m *Matrix) labels() []string {
	out := make([]string, len(m.Classes))
	for i, c := range m.Classes {
		out[i] = Label(c)
	}
	return out
}
