// Package kindgroups folds servers that run the same software into kinds.
//
// A fleet of 23 MCP servers often runs a handful of server programs many
// times over: five Kubernetes clusters, four GitLab instances. To a model
// those are one kind of tool set with the server as an argument. Fold turns a
// list of servers with their tools into one [Group] per kind, with the union
// of tool names, which servers have which tool, and any drift: the same tool
// name with a different input schema on servers of one kind.
//
// [Overview] renders the orchestrator's view, one line per kind:
//
//	gitlab: gitlab-a, gitlab-a-write, gitlab-b, gitlab-b-write
//	kubernetes: k8s-1, k8s-2, k8s-3, k8s-4, k8s-5
//
// Everything here is a pure function over tool lists, so it is testable
// without servers.
package kindgroups
