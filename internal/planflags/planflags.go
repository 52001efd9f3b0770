// Package planflags turns the design options of plan.Options into
// command-line flags and back, from the fields' struct tags: a new option is
// one tagged field of plan.Options, and `hdlgen emit` has its flag, the
// verification campaign draws it and reports it, and the hardware study's
// variants can name it, without a line here or there.
//
// A field takes part when it has a flag tag:
//
//	HoldInput bool `json:"hold_input,omitempty" flag:"hold-input" help:"…"`
//
// with an optional default tag (the flag's default; the zero value without
// it). int, bool and string fields are supported.
package planflags

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Option is one tagged field of plan.Options.
type Option struct {
	Flag    string // flag name without dashes
	Help    string
	Default string
	Kind    reflect.Kind
	index   int
}

// Options lists the tagged fields in declaration order.
func Options() []Option {
	t := reflect.TypeOf(plan.Options{})
	var out []Option
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("flag")
		if name == "" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Bool, reflect.String:
		default:
			panic(fmt.Sprintf("planflags: plan.Options.%s: %s fields are not supported", f.Name, f.Type))
		}
		out = append(out, Option{Flag: name, Help: f.Tag.Get("help"), Default: f.Tag.Get("default"), Kind: f.Type.Kind(), index: i})
	}
	return out
}

// Bind adds a flag for every tagged field of o to fs, bound to the field,
// with the tag's default.
func Bind(fs *pflag.FlagSet, o *plan.Options) { bind(fs, o, true) }

// bind adds the flags; their defaults are the tags' (withDefaults) or o's
// current values.
func bind(fs *pflag.FlagSet, o *plan.Options, withDefaults bool) {
	v := reflect.ValueOf(o).Elem()
	for _, opt := range Options() {
		def := opt.Value(*o)
		if withDefaults {
			def = opt.Default
		}
		field := v.Field(opt.index).Addr().Interface()
		switch opt.Kind {
		case reflect.Int:
			n, _ := strconv.Atoi(def)
			fs.IntVar(field.(*int), opt.Flag, n, opt.Help)
		case reflect.Bool:
			b, _ := strconv.ParseBool(def)
			fs.BoolVar(field.(*bool), opt.Flag, b, opt.Help)
		case reflect.String:
			fs.StringVar(field.(*string), opt.Flag, def, opt.Help)
		}
	}
}

// Value returns the value of option opt in o as its flag would spell it.
func (opt Option) Value(o plan.Options) string {
	return fmt.Sprint(reflect.ValueOf(o).Field(opt.index).Interface())
}

// IsDefault reports whether o has opt's default value (a zero value counts
// as the default when the default tag names the value the zero stands for,
// as "auto" for the ROM style and 1 for P).
func (opt Option) IsDefault(o plan.Options) bool {
	v := reflect.ValueOf(o).Field(opt.index)
	return v.IsZero() || opt.Value(o) == opt.Default
}

// Args returns the flags that set o's options that are not at their
// default, in declaration order: ["--parallel", "4", "--hold-input"].
func Args(o plan.Options) []string {
	var args []string
	for _, opt := range Options() {
		if opt.IsDefault(o) {
			continue
		}
		if opt.Kind == reflect.Bool {
			args = append(args, "--"+opt.Flag)
			continue
		}
		args = append(args, "--"+opt.Flag, opt.Value(o))
	}
	return args
}

// Parse sets the options named by args (flags as Args writes them) on base;
// options args leaves out keep base's values.
func Parse(base plan.Options, args []string) (plan.Options, error) {
	o := base
	fs := pflag.NewFlagSet("options", pflag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	bind(fs, &o, false)
	if err := fs.Parse(args); err != nil {
		return plan.Options{}, fmt.Errorf("planflags: %q: %w", strings.Join(args, " "), err)
	}
	if fs.NArg() > 0 {
		return plan.Options{}, fmt.Errorf("planflags: %q: unexpected argument %q", strings.Join(args, " "), fs.Arg(0))
	}
	return o, nil
}
