// Command fleetserver serves one simulated MCP server of the incident fleet
// over stdio:
//
//	fleetserver --kind kubernetes --name k8s-3 [--readonly]
//
// It exits cleanly on stdin EOF or SIGTERM and logs only to stderr.
package main
