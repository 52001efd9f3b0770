package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/internal/output"
)

// Every command declares the paths it reads and writes once, on its flags
// (and, for positional arguments, on the command); the root command's pre-run
// hands them to one output.Guard and checks every output before the command
// does any work, and commands write files through that guard (app.writeFile).
// TestEveryOutputIsGuarded walks the command tree and holds every command to it.
const (
	// annInput marks a flag whose value is a path the command reads.
	annInput = "hdlgen-input"
	// annOutput marks a flag whose value is a path the command writes:
	// outputFile, outputDir (files are written into it) or outputDesign (a
	// design folder replaced as a whole, whose model.json may be the input).
	annOutput = "hdlgen-output"
	// annArgs on a command names its positional arguments, which are input
	// paths (e.g. "model.json", "DIR").
	annArgs = "hdlgen-args"
)

// Kinds of annotated paths.
const (
	inputPath    = "path"
	outputFile   = "file"
	outputDir    = "dir"
	outputDesign = "design"
)

// markInputs declares flags of cmd whose values are paths it reads.
func markInputs(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		annotate(cmd, n, annInput, inputPath)
	}
}

// markOutput declares a flag whose value is a path cmd writes, of kind
// outputFile, outputDir or outputDesign.
func markOutput(cmd *cobra.Command, name, kind string) { annotate(cmd, name, annOutput, kind) }

// argsAreInputs declares that cmd's positional arguments are paths it reads;
// what names them in messages.
func argsAreInputs(cmd *cobra.Command, what string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[annArgs] = what
}

func annotate(cmd *cobra.Command, name, key, value string) {
	fs := cmd.Flags()
	if fs.Lookup(name) == nil {
		fs = cmd.PersistentFlags()
	}
	if err := fs.SetAnnotation(name, key, []string{value}); err != nil {
		panic(fmt.Sprintf("cli: %s: annotate --%s: %v", cmd.CommandPath(), name, err))
	}
}

// flagLabel is how messages name a flag: -o for --out, else --name.
func flagLabel(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return "-" + f.Shorthand
	}
	return "--" + f.Name
}

// guardFor builds the guard of cmd run with args from its annotations.
func guardFor(cmd *cobra.Command, args []string) *output.Guard {
	g := output.NewGuard()
	if what := cmd.Annotations[annArgs]; what != "" {
		for _, a := range args {
			g.Add(output.Input{Name: what, Path: a})
		}
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if len(f.Annotations[annInput]) == 0 {
			return
		}
		v := f.Value.String()
		name := "--" + f.Name
		if ds := cmd.Flags().Lookup("dataset"); f.Name == "data" && ds != nil && ds.Value.String() != "" {
			// A dataset of a collection: its own folder, not the whole
			// collection (which may well hold the output folder).
			v, name = filepath.Join(v, ds.Value.String()), "--data/--dataset"
		}
		g.Add(output.Input{Name: name, Path: v})
	})
	return g
}

// checkOutputs refuses, before cmd runs, every output path that would
// destroy one of its inputs or that cannot be written; it keeps the guard in
// app for the command's writes.
func (app *App) checkOutputs(cmd *cobra.Command, args []string) error {
	g := guardFor(cmd, args)
	app.guard = g
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		kind := f.Annotations[annOutput]
		if err != nil || len(kind) == 0 {
			return
		}
		path := f.Value.String()
		if path == "" {
			return // not asked for (a command with a required output says so itself)
		}
		switch kind[0] {
		case outputFile:
			err = g.CheckFile(flagLabel(f), path)
		case outputDir:
			err = g.CheckDir(flagLabel(f), path)
		case outputDesign:
			err = g.CheckReplacedDir(flagLabel(f), path, filepath.Join(path, "model.json"))
		default:
			panic(fmt.Sprintf("cli: --%s: unknown output kind %q", f.Name, kind[0]))
		}
		if err == nil {
			err = g.AddOutput(flagLabel(f), path)
		}
	})
	if err != nil {
		return usageError{err}
	}
	return nil
}

// writeFile writes data to path, an output of the running command named by
// flag, through the command's guard.
func (app *App) writeFile(flag, path string, data []byte) error {
	if app.guard == nil {
		panic("cli: writeFile before the outputs were checked")
	}
	if err := app.guard.WriteFile(flag, path, data); err != nil {
		if _, ok := err.(*output.RefusedError); ok {
			return usageError{err}
		}
		return err
	}
	return nil
}
