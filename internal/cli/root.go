// Package cli implements the hdlgen command line: one file per command, each with
// an options struct, a constructor that binds flags into it, and a run function.
// Only this package (and cmd/hdlgen) imports all the others.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/output"
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
	// MemTotal reports the machine's memory in bytes for the memory rule
	// (limits.go); nil means /proc/meminfo.
	MemTotal func() (uint64, bool)

	ctx context.Context // Main's context, for the cause of an interruption
	// guard holds the running command's inputs; its outputs are checked
	// against them before it runs and written through it (outputs.go).
	guard *output.Guard
}

// usageError marks errors in flags or arguments (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// Main runs hdlgen with args and returns the process exit code.
func Main(args []string, in io.Reader, out, errw io.Writer) int {
	app := &App{In: in, Out: out, Err: errw, Getenv: os.Getenv}
	ctx, stop := notifyContext(context.Background())
	defer stop()
	app.ctx = ctx
	root := NewRootCmd(app)
	root.SetArgs(args)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	select {
	case err := <-done:
		return app.exitCode(err)
	case <-ctx.Done():
	}
	// Interrupted. Commands watch the context and stop within a moment,
	// removing what they were writing; one busy in code that does not watch
	// it (a CSV being parsed, a linear-algebra kernel) is not waited for: its
	// pending temporary files are removed and the process ends (cmd/hdlgen
	// exits with the code returned).
	select {
	case err := <-done:
		if err == nil {
			// Finished after the signal without noticing it: still an
			// interrupted run (exit 130, the promise whatever the phase).
			fmt.Fprintf(app.Err, "hdlgen: %v: stopped\n", context.Cause(ctx))
			return exitCanceled
		}
		return app.exitCode(err)
	case <-time.After(interruptGrace):
		atomicfile.RemovePending()
		fmt.Fprintf(app.Err, "hdlgen: %v: stopped\n", context.Cause(ctx))
		return exitCanceled
	}
}

// interruptGrace is how long an interrupted command may take to stop by
// itself before Main stops waiting for it (the promise is one second).
const interruptGrace = 500 * time.Millisecond

// interrupted is the cause of Main's context when a signal ended it.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "interrupted (SIGINT)"
	case syscall.SIGTERM:
		return "interrupted (SIGTERM)"
	}
	return "interrupted (" + e.sig.String() + ")"
}

// notifyContext returns a context that ends at the first SIGINT or SIGTERM,
// with an interrupted cause. The handler is then removed, so a second signal
// ends the process at once (the default action). stop releases it.
func notifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(interrupted{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

func (app *App) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ue usageError
	var sig interrupted
	if errors.Is(err, context.Canceled) && app.ctx != nil && errors.As(context.Cause(app.ctx), &sig) {
		fmt.Fprintf(app.Err, "hdlgen: %v: %v\n", sig, err)
		return exitCanceled
	}
	fmt.Fprintln(app.Err, "hdlgen:", err)
	switch {
	case errors.Is(err, context.Canceled):
		return exitCanceled
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitError
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
	addProfileFlag(root, app)
	profile := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := checkFlagRanges(cmd); err != nil {
			return err
		}
		if err := app.checkOutputs(cmd, args); err != nil {
			return err
		}
		if profile != nil {
			return profile(cmd, args)
		}
		return nil
	}
	root.AddCommand(
		newDemoCmd(app),
		newBuildCmd(app),
		newTrainCmd(app),
		newEvalCmd(app),
		newSearchCmd(app),
		newReproduceCmd(app),
		newPredictCmd(app),
		newQuantizeCmd(app),
		newEmitCmd(app),
		newSimCmd(app),
		newVerifyCmd(app),
		newCampaignCmd(app),
		newSynthCmd(app),
		newPowerCmd(app),
		newSizeCmd(app),
		newWeightsCmd(app),
		newVersionCmd(app),
	)
	typeUsageErrors(root)
	return root
}

// printJSON writes v to w as indented JSON and a newline (a command's --json
// output); cmd names the command in an error.
func printJSON(w io.Writer, cmd string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
