package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpfleet/mcpfleet/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Environ(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(exitCode(err))
}

// exitCode maps Run's error to the process status. Run has already printed
// every diagnostic; the error only carries the code.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return 1
}
