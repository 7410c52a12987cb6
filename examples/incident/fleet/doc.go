// Package fleet is the simulated incident fleet behind examples/incident: real
// MCP servers, built with mcp-go, whose tools mirror the public servers of
// each kind (tool and argument names are facts; descriptions are our own) and
// whose data tells one consistent incident.
//
// One binary serves every kind: fleet/cmd/fleetserver --kind K --name N
// speaks MCP over stdio. The example can also host the servers in-process.
package fleet
