package cli

import (
	"errors"
	"fmt"
)

// Exit codes. They are part of the CLI contract: scripts branch on them.
const (
	ExitFailure = 1 // a rejection, a tool error, or a failed operation
	ExitUsage   = 2 // bad flags, arguments or subcommand
	// ExitTrouble is what `lock --diff` exits with when it could not
	// compare (no lock, a bad config, no connection): like diff(1), it
	// exits 0 when nothing differs and 1 when something does.
	ExitTrouble = 2
)

// ErrToolError is the cause of the exit error returned when a tool answers
// with isError: the call reached the tool and the tool said it failed.
var ErrToolError = errors.New("the tool reported an error")

// ExitError carries the process exit code for an error. main maps it to
// os.Exit with errors.As against interface{ ExitCode() int }.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode returns the process exit code.
func (e *ExitError) ExitCode() int { return e.Code }

// usageErrorf is a bad invocation: exit 2.
func usageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}
