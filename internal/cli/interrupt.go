package cli

import (
	"context"
)

// interruptible runs f and returns its results, or ctx's error as soon as ctx
// ends, without waiting for f. It serves long computations that take no
// context themselves (model.Train, power.Size): the command returns at once
// and the process exits, ending f. f must not write files, since it may be
// abandoned half-way.
func interruptible[T any](ctx context.Context, f func() (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}
