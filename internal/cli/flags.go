package cli

import (
	"fmt"

	"github.com/spf13/pflag"
)

// aliasValue is the value of a hidden alias flag: setting it sets the flag it
// stands for, which then counts as given (Changed), so required-flag checks and
// cmd.Flags().Changed(name) see one flag whichever spelling was used.
type aliasValue struct {
	pflag.Value
	primary *pflag.Flag
}

func (a aliasValue) Set(s string) error {
	a.primary.Changed = true
	return a.Value.Set(s)
}

// hiddenAlias adds old, an older spelling of the flag name, bound to the same
// variable and hidden from --help. Old scripts keep working; the help shows
// one spelling per concept (docs/build.md, "Progress and output spelling").
func hiddenAlias(f *pflag.FlagSet, old, name string) {
	p := f.Lookup(name)
	if p == nil {
		panic(fmt.Sprintf("cli: hiddenAlias(%q, %q): no flag %q", old, name, name))
	}
	f.AddFlag(&pflag.Flag{
		Name:        old,
		Usage:       "the older spelling of --" + name,
		Value:       aliasValue{Value: p.Value, primary: p},
		DefValue:    p.DefValue,
		NoOptDefVal: p.NoOptDefVal,
		Hidden:      true,
	})
}

// defaultSeed is the default of every seed flag (--seed of train, search,
// eval's first seed, quantize's GA, emit's test vectors, build; --split-seed of
// train, quantize, search, eval and build): one default everywhere, so a
// command run without seeds reproduces another run without seeds.
const defaultSeed = 0
