package gateway

import (
	"context"
	"slices"

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
		if err := a.Add(ctx, conv, names); err != nil {
			g.log.Warn("gateway: keeping the conversation's loaded tools failed", "err", err)
		}
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
