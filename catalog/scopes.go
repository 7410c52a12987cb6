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
	if slices.Contains(scopes, ScopeAll) {
		return true
	}
	for _, need := range e.Scopes {
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
