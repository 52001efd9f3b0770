// Package registry keeps the network types of one layer (model, rtl/plan,
// rtl/sim, power): each network type's file adds its value from init, and the
// layer looks values up by architecture name. Names are kept sorted, so
// listings and error messages do not depend on file order.
package registry

import (
	"slices"
	"strings"
)

// Registry maps names to values of one kind.
type Registry[T any] struct {
	what  string // e.g. "plan: layer", for the duplicate panic
	names []string
	vals  map[string]T
}

// New returns an empty registry; what names its values in panics.
func New[T any](what string) *Registry[T] {
	return &Registry[T]{what: what, vals: map[string]T{}}
}

// Add registers v under name. Registering a name twice is a programmer
// error and panics.
func (r *Registry[T]) Add(name string, v T) {
	if _, dup := r.vals[name]; dup {
		panic(r.what + " " + name + " registered twice")
	}
	r.vals[name] = v
	r.names = append(r.names, name)
	slices.Sort(r.names)
}

// Get returns the value registered under name.
func (r *Registry[T]) Get(name string) (T, bool) {
	v, ok := r.vals[name]
	return v, ok
}

// Values returns the values in name order.
func (r *Registry[T]) Values() []T {
	out := make([]T, len(r.names))
	for i, n := range r.names {
		out[i] = r.vals[n]
	}
	return out
}

// Names returns the names in order.
func (r *Registry[T]) Names() []string { return slices.Clone(r.names) }

// Alternatives lists the names for an error message: "a, b or c".
func (r *Registry[T]) Alternatives() string { return Join(r.names) }

// Join lists names for a message or a help text: "a, b or c" ("none" for
// no name).
func Join(names []string) string {
	switch n := len(names); n {
	case 0:
		return "none"
	case 1:
		return names[0]
	default:
		return strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
}
