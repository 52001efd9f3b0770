package svgplot

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
)

// Mark is a highlighted point: a ring around it and its label beside it.
type Mark struct {
	X, Y  float64
	Label string
}

// PointSeries is one set of points of a Points plot.
type PointSeries struct {
	Name   string
	Points []Point
	// Front joins the series' Pareto front (the points no other point of
	// the series beats in both a smaller X and a larger Y) by a step line.
	Front bool
}

// NiceTicks are the tick values of [lo, hi] at a step of 1, 2 or 5 times a
// power of ten giving about n intervals, and the decimals that print each
// of them differently.
func NiceTicks(lo, hi float64, n int) ([]float64, int) {
	if !(hi > lo) {
		return []float64{lo}, 0
	}
	raw := (hi - lo) / float64(max(n, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	step := p // the step of 1, 2, 5 or 10 × p whose count of intervals is nearest n
	for _, m := range []float64{2, 5, 10} {
		if math.Abs((hi-lo)/(m*p)-float64(n)) < math.Abs((hi-lo)/step-float64(n)) {
			step = m * p
		}
	}
	var ticks []float64
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, math.Round(v/step)*step+0) // +0: no "-0"
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	return ticks, dec
}

// niceAxes draws the frame, grid lines and ticks at NiceTicks' values.
func (c *canvas) niceAxes() {
	x0, y0 := marginLeft, marginTop+c.ph
	fmt.Fprintf(&c.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="black"/>`+"\n", f(x0), f(marginTop), f(c.pw), f(c.ph))
	xt, xd := NiceTicks(c.x.Min, c.x.Max, tickCount)
	for _, v := range xt {
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(c.px(v)), f(marginTop), f(c.px(v)), f(y0))
		fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(c.px(v)), f(y0+18), strconv.FormatFloat(v, 'f', xd, 64))
	}
	yt, yd := NiceTicks(c.y.Min, c.y.Max, tickCount)
	for _, v := range yt {
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(x0), f(c.py(v)), f(x0+c.pw), f(c.py(v)))
		fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f(x0-6), f(c.py(v)+4), strconv.FormatFloat(v, 'f', yd, 64))
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(marginLeft+c.pw/2), f(height-14), html.EscapeString(c.x.Label))
	fmt.Fprintf(&c.b, `<text transform="translate(18 %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", f(marginTop+c.ph/2), html.EscapeString(c.y.Label))
}

// front is the Pareto front of pts (smaller X, larger Y), by increasing X.
func front(pts []Point) []Point {
	s := slices.Clone(pts)
	slices.SortStableFunc(s, func(a, b Point) int {
		if a.X != b.X {
			return cmpF(a.X, b.X)
		}
		return cmpF(b.Y, a.Y)
	})
	var out []Point
	for _, p := range s {
		if len(out) == 0 || p.Y > out[len(out)-1].Y {
			out = append(out, p)
		}
	}
	return out
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Points draws series as points (no line through them but an optional
// Pareto front), horizontal references and marked points, with ticks at
// round values. Every label stays inside the picture.
func Points(title string, x, y Axis, series []PointSeries, refs []Reference, marks []Mark) []byte {
	c := &canvas{x: x, y: y, pw: width - marginLeft - marginRight, ph: height - marginTop - marginBottom}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&c.b, `<rect width="%g" height="%g" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&c.b, `<text x="%g" y="%g" text-anchor="middle" font-size="14">%s</text>`+"\n", width/2, marginTop/2+4, html.EscapeString(title))
	c.niceAxes()
	row := 0
	for _, r := range refs {
		fmt.Fprintf(&c.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black" stroke-width="1.5" stroke-dasharray="6 3"/>`+"\n", f(marginLeft), f(c.py(r.Y)), f(marginLeft+c.pw), f(c.py(r.Y)))
		c.legend(row, r.Name, "black", "6 3", false)
		row++
	}
	for i, s := range series {
		color := palette[i%len(palette)]
		if s.Front {
			fr := front(s.Points)
			var pts string
			for k, p := range fr {
				if k > 0 { // a step: the front holds its accuracy until the next point
					pts += " " + f(c.px(p.X)) + "," + f(c.py(fr[k-1].Y))
				}
				if k > 0 {
					pts += " "
				}
				pts += f(c.px(p.X)) + "," + f(c.py(p.Y))
			}
			fmt.Fprintf(&c.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1" stroke-opacity="0.6"/>`+"\n", pts, color)
		}
		for _, p := range s.Points {
			fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="%g" fill="%s" fill-opacity="0.8"><title>%s</title></circle>`+"\n",
				f(c.px(p.X)), f(c.py(p.Y)), pointRadius, color, html.EscapeString(p.Label))
		}
		name := s.Name
		if s.Front {
			name += " (line: the Pareto front)"
		}
		c.legend(row, name, color, "", true)
		row++
	}
	for _, m := range marks {
		cx, cy := c.px(m.X), c.py(m.Y)
		fmt.Fprintf(&c.b, `<circle cx="%s" cy="%s" r="7" fill="none" stroke="#d62728" stroke-width="2"/>`+"\n", f(cx), f(cy))
		// The label right of the point, or left of it near the right edge;
		// below it near the top.
		anchor, tx := "start", cx+10
		if cx > marginLeft+c.pw*0.6 {
			anchor, tx = "end", cx-10
		}
		ty := cy - 10
		if ty < marginTop+14 {
			ty = cy + 20
		}
		fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="%s" fill="#d62728">%s</text>`+"\n", f(tx), f(ty), anchor, html.EscapeString(m.Label))
	}
	return c.bytes()
}
