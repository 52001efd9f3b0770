package logreg

import (
	"context"
	"math"
)

// lbfgsMemory is the number of correction pairs L-BFGS keeps.
const lbfgsMemory = 10

// minimize minimises f (which returns the value and writes the gradient)
// from x by L-BFGS with a backtracking (Armijo) line search, in place; it
// stops when the gradient's largest component is below gradTol, after
// maxIterations iterations, or when a step no longer lowers f. (gonum's
// optimize package would need a module this project does not carry.)
func minimize(ctx context.Context, f func(x, grad []float64) float64, x []float64) ([]float64, error) {
	n := len(x)
	g := make([]float64, n)
	fx := f(x, g)
	var ss, ys [][]float64
	var rho []float64
	d, xn, gn := make([]float64, n), make([]float64, n), make([]float64, n)
	alpha := make([]float64, lbfgsMemory)
	for it := 0; it < maxIterations && maxAbs(g) > gradTol; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// d = −H·g by the two-loop recursion.
		for i := range d {
			d[i] = -g[i]
		}
		for i := len(ss) - 1; i >= 0; i-- {
			alpha[i] = rho[i] * dot(ss[i], d)
			axpy(-alpha[i], ys[i], d)
		}
		if k := len(ss) - 1; k >= 0 {
			gamma := dot(ss[k], ys[k]) / dot(ys[k], ys[k])
			for i := range d {
				d[i] *= gamma
			}
		} else {
			scaleBy(1/math.Max(1, math.Sqrt(dot(g, g))), d)
		}
		for i := range ss {
			b := rho[i] * dot(ys[i], d)
			axpy(alpha[i]-b, ss[i], d)
		}
		slope := dot(g, d)
		if slope >= 0 { // not a descent direction: restart from the gradient
			ss, ys, rho = nil, nil, nil
			for i := range d {
				d[i] = -g[i]
			}
			slope = -dot(g, g)
		}
		step, fn := 1.0, 0.0
		for {
			for i := range x {
				xn[i] = x[i] + step*d[i]
			}
			fn = f(xn, gn)
			if fn <= fx+1e-4*step*slope || step < 1e-12 {
				break
			}
			step /= 2
		}
		if !(fn < fx) { // no progress: the minimum as far as doubles go
			break
		}
		s, y := make([]float64, n), make([]float64, n)
		for i := range x {
			s[i], y[i] = xn[i]-x[i], gn[i]-g[i]
		}
		if sy := dot(s, y); sy > 1e-12 {
			if len(ss) == lbfgsMemory {
				ss, ys, rho = ss[1:], ys[1:], rho[1:]
			}
			ss, ys, rho = append(ss, s), append(ys, y), append(rho, 1/sy)
		}
		copy(x, xn)
		copy(g, gn)
		fx = fn
	}
	return x, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func scaleBy(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
