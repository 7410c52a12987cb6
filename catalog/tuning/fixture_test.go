package tuning_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// The shared fleets, under the names the tests use.

func testFleet(tb testing.TB) []kindgroups.Server { return catalogtest.Fleet(tb) }
func wideFleet(tb testing.TB) []kindgroups.Server { return catalogtest.WideFleet(tb) }
func fleetConfig(aliases bool) catalog.Config     { return catalogtest.FleetConfig(aliases) }
func handConfig() catalog.Config                  { return catalogtest.HandConfig() }
func buildFleet(tb testing.TB) *catalog.Catalog   { return catalogtest.BuildFleet(tb) }
func tool(name, desc string, readOnly bool) mcp.Tool {
	return catalogtest.Tool(name, desc, readOnly)
}
func loadQueries(tb testing.TB) []tuning.Query { return catalogtest.Queries(tb) }
func keys(es []catalog.Entry) []string         { return catalogtest.Keys(es) }
