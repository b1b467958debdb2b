// Command autocollide adds physics colliders to glTF 2.0 assets.
//
// Run `autocollide --help` for the commands and examples.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/autocollide/autocollide/safetext"
	"github.com/spf13/cobra"
)

// Exit codes. A Go runtime fatal error (out of memory, a panic in a
// goroutine nobody recovers) would exit 2 like a usage error; main sets
// the traceback level to "crash" so those end in SIGABRT instead, and a
// usage code always means the command line was wrong.
const (
	exitOK       = 0
	exitFailed   = 1 // some input failed
	exitUsage    = 2 // the command line was wrong
	exitInternal = 3 // a bug: a recovered panic
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// usageError marks errors in the command line itself.
type usageError struct{ error }

// failedError says some inputs failed; each was reported already.
var errFailed = errors.New("some inputs failed")

// errInternal says an input hit a bug (a recovered panic); it was
// reported already.
var errInternal = errors.New("internal error")

func main() {
	debug.SetTraceback("crash")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	return execute(root, stderr)
}

// execute runs a command tree and maps its outcome to an exit code: a
// panic is an internal error, never a usage one.
func execute(root *cobra.Command, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "autocollide: internal error (a bug; please report it): %v\n", r)
			code = exitInternal
		}
	}()
	err := root.Execute()
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInternal):
		return exitInternal
	case errors.Is(err, errFailed):
		return exitFailed
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "autocollide: %s\n", safetext.Term(err.Error()))
		return exitUsage
	default:
		// cobra's own flag and argument errors are usage errors too.
		fmt.Fprintf(stderr, "autocollide: %s\n", safetext.Term(err.Error()))
		return exitUsage
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "autocollide",
		Short: "Add physics colliders to glTF 2.0 assets",
		Long: `autocollide adds collision shapes and rigid bodies to glTF 2.0 assets, written
as the OMI physics extensions (OMI_physics_shape + OMI_physics_body) or the
Khronos ones (KHR_implicit_shapes + KHR_physics_rigid_bodies).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newGenerate(), newConvert(), newValidate(), newInspect(), newVersion(), newProfiles(), newPreview(), newReview())
	return root
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			fmt.Fprintf(c.OutOrStdout(), "autocollide %s (%s, %s/%s)\n", toolVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// toolVersion is the build-time version, else the module version, else
// "devel".
func toolVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
