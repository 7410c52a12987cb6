package cli_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpfleet/mcpfleet/internal/cli"
)

// Run takes its I/O as arguments, so a program or a test can embed the CLI.
// An unknown subcommand is a usage error (exit 2) naming the nearest one.
func ExampleRun() {
	err := cli.Run(context.Background(), nil, nil, os.Stdout, os.Stdout, []string{"overveiw"})
	fmt.Println("exit", err.(*cli.ExitError).ExitCode())
	// Output:
	// mcpfleet: unknown command "overveiw"; did you mean "overview"?
	// run 'mcpfleet help' for the list of commands
	// exit 2
}
