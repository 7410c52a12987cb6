package gateway

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet"
)

// HeaderConversation names the conversation an HTTP request belongs to.
// The protocol revision mcp-go speaks by default has no sessions, and a
// load balancer may send each request of one client to another replica;
// a client that sends this header gets the tools it described kept for
// the conversation (in Config.Activations), whichever replica answers.
const HeaderConversation = "Mcp-Conversation-Id"

// maxConversationID bounds the header's value; a longer one is ignored.
const maxConversationID = 256

type conversationKey struct{}

func withConversation(ctx context.Context, id string) context.Context {
	if id == "" || len(id) > maxConversationID {
		return ctx
	}
	return context.WithValue(ctx, conversationKey{}, id)
}

// conversation returns the activation store key of the request's
// conversation: the caller's identity, then the conversation id, so that
// two tokens naming the same conversation never share loads. "" when the
// request names no conversation or there is no store.
func (g *Gateway) conversation(ctx context.Context) string {
	id, _ := ctx.Value(conversationKey{}).(string)
	if id == "" || g.cfg.Activations == nil {
		return ""
	}
	caller := mcpfleet.CallerFrom(ctx)
	if caller == "" {
		caller = "anonymous"
	}
	return caller + "/" + id
}

// recordLoads adds names (kind.tool) to the request's conversation: with
// an activationAdder in one step, else by a Load and, when the
// conversation gains a name, a Save. A store failure
// costs persistence, never the call: it is logged.
func (g *Gateway) recordLoads(ctx context.Context, names []string) {
	conv := g.conversation(ctx)
	if conv == "" || len(names) == 0 {
		return
	}
	if a, ok := g.cfg.Activations.(activationAdder); ok {
		now := time.Now()
		if g.added.has(conv, names, now) {
			return
		}
		if err := a.Add(ctx, conv, names); err != nil {
			g.log.Warn("gateway: keeping the conversation's loaded tools failed", "err", err)
			return
		}
		g.added.note(conv, names, now)
		return
	}
	stored, err := g.cfg.Activations.Load(ctx, conv)
	if err != nil {
		g.log.Warn("gateway: reading the conversation's loaded tools failed", "err", err)
		return
	}
	merged := slices.Clone(stored)
	for _, n := range names {
		if !slices.Contains(merged, n) {
			merged = append(merged, n)
		}
	}
	if len(merged) == len(stored) {
		return
	}
	if err := g.cfg.Activations.Save(ctx, conv, merged); err != nil {
		g.log.Warn("gateway: keeping the conversation's loaded tools failed", "err", err)
	}
}

// addedFor is how long a replica remembers names it added to a
// conversation, and skips adding them again: a conversation that
// describes the same tools on every turn then costs the shared store no
// round trip. Names are only ever added (a conversation's list shrinks
// only when its whole key expires, a day after the last add), so a
// remembered name is in the store unless the store lost its data within
// the last addedFor; then a re-describe on this replica restores it
// after addedFor. The store's TTL is renewed at least every addedFor by
// an active conversation on some replica that describes a new name, or
// once addedFor has passed.
const addedFor = time.Minute

// maxAddedConversations bounds the memory of added; past it, it starts
// over, which costs one round trip per conversation.
const maxAddedConversations = 4096

// addedMemo remembers, per conversation, the names this replica added to
// the activation store and when.
type addedMemo struct {
	mu sync.Mutex
	m  map[string]addedNames
}

type addedNames struct {
	at    time.Time
	names map[string]bool
}

// has reports whether every name was added to conv within addedFor.
func (a *addedMemo) has(conv string, names []string, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[conv]
	if !ok || now.Sub(e.at) >= addedFor {
		return false
	}
	for _, n := range names {
		if !e.names[n] {
			return false
		}
	}
	return true
}

// note records that names were added to conv at now. An add renews the
// whole list's TTL, so the names remembered before count from now too.
func (a *addedMemo) note(conv string, names []string, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil || len(a.m) >= maxAddedConversations {
		a.m = map[string]addedNames{}
	}
	e, ok := a.m[conv]
	if !ok || now.Sub(e.at) >= addedFor {
		e = addedNames{names: map[string]bool{}}
	}
	e.at = now
	for _, n := range names {
		e.names[n] = true
	}
	a.m[conv] = e
}

// activationAdder is an ActivationStore that adds names in one atomic
// step, as stores/redisstore's does: replicas recording loads of one
// conversation at once then lose none, and a record costs one round trip.
type activationAdder interface {
	Add(ctx context.Context, conv string, names []string) error
}

// loaded returns the tools the request's conversation has loaded.
func (g *Gateway) loaded(ctx context.Context) []string {
	conv := g.conversation(ctx)
	if conv == "" {
		return nil
	}
	names, err := g.cfg.Activations.Load(ctx, conv)
	if err != nil {
		g.log.Warn("gateway: reading the conversation's loaded tools failed", "err", err)
		return nil
	}
	return names
}
