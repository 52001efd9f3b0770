// Package cli implements the hdlgen command line: one file per command, each with
// an options struct, a constructor that binds flags into it, and a run function.
// Only this package (and cmd/hdlgen) imports all the others.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK       = 0
	exitError    = 1 // the command failed (bad input, failed verification, …)
	exitUsage    = 2 // wrong flags or arguments
	exitCanceled = 130
)

// App carries the streams every command writes to, so tests can inject them.
type App struct {
	In     io.Reader
	Out    io.Writer // results
	Err    io.Writer // progress, warnings and errors
	Getenv func(string) string
}

// usageError marks errors in flags or arguments (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// Main runs hdlgen with args and returns the process exit code.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	app := &App{In: in, Out: out, Err: errw, Getenv: os.Getenv}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := NewRootCmd(app)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return app.exitCode(err)
}

func (app *App) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(app.Err, "hdlgen:", err)
	var ue usageError
	switch {
	case errors.Is(err, context.Canceled):
		return exitCanceled
	case errors.As(err, &ue), isCobraUsageError(err):
		return exitUsage
	}
	return exitError
}

// isCobraUsageError recognises the argument and required-flag errors cobra
// returns as plain errors.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"required flag(s)", "unknown command", "accepts ", "requires at least", "unknown shorthand flag", "unknown flag"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// NewRootCmd builds the command tree.
func NewRootCmd(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "hdlgen",
		Short: "Train intRVFL networks and emit verified FPGA hardware",
		Long: `hdlgen trains small randomly connected neural networks — the density-encoded
intRVFL of Kleyko et al. (IEEE TNNLS 2020) and the conventional RVFL — and turns
them into synthesizable Verilog for a Zynq-7020, proven bit-exact against a Go
simulator with Verilator and Icarus, with resource, latency and energy estimates.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(app.Out)
	root.SetErr(app.Err)
	root.SetIn(app.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newDemoCmd(app),
		newTrainCmd(app),
		newEvalCmd(app),
		newSearchCmd(app),
		newReproduceCmd(app),
		newPredictCmd(app),
		newQuantizeCmd(app),
		newEmitCmd(app),
		newSimCmd(app),
		newVerifyCmd(app),
		newSynthCmd(app),
		newPowerCmd(app),
		newSizeCmd(app),
		newWeightsCmd(app),
		newVersionCmd(app),
	)
	return root
}
