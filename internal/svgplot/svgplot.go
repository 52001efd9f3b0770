// Package svgplot draws the few plots hdlgen's studies need — a scatter plot with a
// diagonal and a line plot with a horizontal reference — as small, deterministic
// SVG files (same data, same bytes; no timestamps, fixed number formatting).
package svgplot

import (
	"bytes"
	"fmt"
	"html"
	"math"
)

// Geometry of every plot, in SVG user units.
const (
	width, height  = 640.0, 480.0
	marginLeft     = 70.0
	marginRight    = 20.0
	marginTop      = 40.0
	marginBottom   = 60.0
	tickCount      = 5
	pointRadius    = 3.0
	legendRowStep  = 18.0
	legendInsetTop = 12.0
)

// Palette for series, in order.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}

// Dash patterns for series, in order ("" is solid).
var dashes = []string{"", "6 3", "2 3", "8 3 2 3"}

// Axis is a linear axis.
type Axis struct {
	Label    string
	Min, Max float64
}

// Point is one scatter point.
type Point struct {
	X, Y  float64
	Label string // shown as a tooltip (<title>)
}

// Series is one line of a line plot.
type Series struct {
	Name string
	X, Y []float64
}

// Reference is a horizontal reference line.
type Reference struct {
	Name string
	Y    float64
}

type canvas struct {
	b      bytes.Buffer
	x, y   Axis
	pw, ph float64
}

func newCanvas(title string, x, y Axis) *canvas {
	c := &canvas{x: x, y: y, pw: width - marginLeft - marginRight, ph: height - marginTop - marginBottom}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&c.b, `<rect width="%g" height="%g" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&c.b, `<text x="%g" y="%g" text-anchor="middle" font-size="14">%s</text>`+"\n", width/2, marginTop/2+4, html.EscapeString(title))
	c.axes()
	return c
}

func (c *canvas) px(v float64) float64 {
	return marginLeft + (v-c.x.Min)/(c.x.Max-c.x.Min)*c.pw
}

func (c *canvas) py(v float64) float64 {
	return marginTop + c.ph - (v-c.y.Min)/(c.y.Max-c.y.Min)*c.ph
}

func f(v float64) string { return fmt.Sprintf("%.2f", v) }

func (c *canvas) axes() {
	x0, y0 := marginLeft, marginTop+c.ph
	fmt.Fprintf(&c.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="black"/>`+"\n", f(x0), f(marginTop), f(c.pw), f(c.ph))
	for i := 0; i <= tickCount; i++ {
		xv := c.x.Min + (c.x.Max-c.x.Min)*float64(i)/tickCount
		yv := c.y.Min + (c.y.Max-c.y.Min)*float64(i)/tickCount
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(c.px(xv)), f(marginTop), f(c.px(xv)), f(y0))
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(x0), f(c.py(yv)), f(x0+c.pw), f(c.py(yv)))
		fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(c.px(xv)), f(y0+18), tick(xv))
		fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f(x0-6), f(c.py(yv)+4), tick(yv))
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(marginLeft+c.pw/2), f(height-14), html.EscapeString(c.x.Label))
	fmt.Fprintf(&c.b, `<text transform="translate(18 %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", f(marginTop+c.ph/2), html.EscapeString(c.y.Label))
}

func tick(v float64) string {
	if math.Abs(v-math.Round(v)) < 1e-9 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func (c *canvas) legend(i int, name, color, dash string, marker bool) {
	x := marginLeft + 12
	y := marginTop + legendInsetTop + legendRowStep*float64(i)
	if marker {
		fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%g" fill="%s"/>`+"\n", f(x+10), f(y-4), pointRadius, color)
	} else {
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`+"\n", f(x), f(y-4), f(x+20), f(y-4), color, dash)
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s">%s</text>`+"\n", f(x+26), f(y), html.EscapeString(name))
}

func (c *canvas) bytes() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}

// Scatter draws points with the diagonal y = x and a legend line per note.
func Scatter(title string, x, y Axis, pts []Point, notes []string) []byte {
	c := newCanvas(title, x, y)
	lo, hi := math.Max(x.Min, y.Min), math.Min(x.Max, y.Max)
	fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="gray" stroke-dasharray="4 4"/>`+"\n", f(c.px(lo)), f(c.py(lo)), f(c.px(hi)), f(c.py(hi)))
	for _, p := range pts {
		fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%g" fill="%s" fill-opacity="0.7"><title>%s</title></circle>`+"\n",
			f(c.px(p.X)), f(c.py(p.Y)), pointRadius, palette[0], html.EscapeString(p.Label))
	}
	for i, n := range notes {
		fmt.Fprintf(&c.b, `<text x="%s" y="%s">%s</text>`+"\n", f(marginLeft+12), f(marginTop+legendInsetTop+legendRowStep*float64(i)), html.EscapeString(n))
	}
	return c.bytes()
}

// Lines draws series as lines with markers, plus horizontal reference lines.
func Lines(title string, x, y Axis, series []Series, refs []Reference) []byte {
	c := newCanvas(title, x, y)
	row := 0
	for _, r := range refs {
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black" stroke-width="1.5" stroke-dasharray="1 0"/>`+"\n", f(marginLeft), f(c.py(r.Y)), f(marginLeft+c.pw), f(c.py(r.Y)))
		c.legend(row, r.Name, "black", "", false)
		row++
	}
	for i, s := range series {
		color, dash := palette[i%len(palette)], dashes[i%len(dashes)]
		var pts bytes.Buffer
		for k := range s.X {
			if k > 0 {
				pts.WriteByte(' ')
			}
			pts.WriteString(f(c.px(s.X[k])) + "," + f(c.py(s.Y[k])))
		}
		fmt.Fprintf(&c.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-dasharray="%s"/>`+"\n", pts.String(), color, dash)
		for k := range s.X {
			fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%g" fill="%s"><title>%s: %s, %s</title></circle>`+"\n", f(c.px(s.X[k])), f(c.py(s.Y[k])), pointRadius, color, html.EscapeString(s.Name), tick(s.X[k]), fmt.Sprintf("%.4f", s.Y[k]))
		}
		c.legend(row, s.Name, color, dash, false)
		row++
	}
	return c.bytes()
}
