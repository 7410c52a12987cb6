package mcpfleet

import "context"

// callerKey is the context key of the caller id; unexported so that only
// WithCaller can set it.
type callerKey struct{}

// WithCaller returns ctx carrying id, an opaque identity of whoever makes
// the calls made with it. A result offloaded during a call is owned by its
// caller, and ReadResult and GrepResult refuse it to any other caller with
// ErrResultNotFound, exactly as for an unknown handle. A server that serves
// several principals (mcpfleet serve with bearer tokens) sets it per
// request. id should not be a secret itself: it is kept with the result;
// use a name or a hash of the credential.
//
// A ctx without a caller, or with id "", is the anonymous caller: a program
// that never calls WithCaller reads every result it offloaded, as before.
func WithCaller(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callerKey{}, id)
}

// CallerFrom returns the caller id set by WithCaller, or "" for none.
func CallerFrom(ctx context.Context) string {
	id, _ := ctx.Value(callerKey{}).(string)
	return id
}
