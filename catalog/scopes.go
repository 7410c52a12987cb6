package catalog

import (
	"context"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Well-known scopes.
const (
	ScopeRead  = "read"
	ScopeWrite = "write"
	// ScopeAll grants every scope.
	ScopeAll = "*"
)

type scopesKey struct{}

// WithScopes returns a context carrying the caller's scopes. Search and
// rendering filter by them before anything else happens.
func WithScopes(ctx context.Context, scopes ...string) context.Context {
	return context.WithValue(ctx, scopesKey{}, slices.Clone(scopes))
}

// ScopesFrom returns the scopes in ctx. With none set it returns ["read"]
// and ok=false: a caller that forgot to say who it is gets the read-only
// view, never the write tools. Grant everything explicitly with "*".
func ScopesFrom(ctx context.Context) (scopes []string, ok bool) {
	s, ok := ctx.Value(scopesKey{}).([]string)
	if !ok {
		return []string{ScopeRead}, false
	}
	return slices.Clone(s), true
}

// Permitted reports whether scopes grant every scope e requires. "*" grants
// all; "write" implies "read", since whoever may change a thing may look
// at it. Any other scope (say "k8s:exec") must be held as is.
func Permitted(e Entry, scopes []string) bool {
	return permits(scopes, e.Scopes)
}

// permits is Permitted on the scopes an entry requires.
func permits(scopes, required []string) bool {
	if slices.Contains(scopes, ScopeAll) {
		return true
	}
	for _, need := range required {
		if slices.Contains(scopes, need) {
			continue
		}
		if need == ScopeRead && slices.Contains(scopes, ScopeWrite) {
			continue
		}
		return false
	}
	return true
}

// defaultScopes derives the required scopes from annotations: a tool that
// declares readOnlyHint: true needs "read", anything else needs "write".
// This is stricter than "destructive needs write": the MCP spec makes an
// unannotated tool destructive by default, and a tool that creates or edits
// without destroying (create_dashboard, add_comment) still changes the
// world, which a read-only caller must not do. Config.Kinds[…].ToolScopes
// relaxes it for servers that do not annotate their read tools.
func defaultScopes(a mcp.ToolAnnotation) []string {
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		return []string{ScopeRead}
	}
	return []string{ScopeWrite}
}

// Permit is the scope gate for a caller with no session (the gateway):
// nil if scopes grant what server's tool requires, else a *GateError with
// ReasonNotPermitted naming the scopes it needs. A pair the catalog does
// not know passes: the Mux refuses it with its own reason. A Session's
// gate (Session.AllowContext) checks scopes itself, and hides a tool the
// scopes do not permit as unknown.
func (c *Catalog) Permit(server, tool string, scopes []string) error {
	kind, ok := c.serverKind[server]
	if !ok {
		return nil
	}
	e, ok := c.Lookup(kind, tool)
	if !ok || !slices.Contains(e.Servers, server) || Permitted(e, scopes) {
		return nil
	}
	return &GateError{Server: server, Tool: tool, Kind: kind, Reason: ReasonNotPermitted, Needs: slices.Clone(e.Scopes)}
}
