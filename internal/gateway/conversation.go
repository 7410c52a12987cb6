package gateway

import (
	"context"
	"errors"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
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

// recordLoads keeps names (kind.tool) as loaded in the request's
// conversation, through a catalog session so that the merge with what is
// stored is the catalog's. A store failure costs persistence, never the
// call: it is logged.
func (g *Gateway) recordLoads(ctx context.Context, names []string) {
	conv := g.conversation(ctx)
	if conv == "" || len(names) == 0 {
		return
	}
	s, err := g.catalog().NewSessionContext(ctx, catalog.SessionConfig{
		Scopes: g.scopes(ctx), Mode: catalog.ModeOn, ConversationID: conv, Store: g.cfg.Activations})
	var se *catalog.StoreError
	if err != nil && !errors.As(err, &se) {
		g.log.Warn("gateway: conversation session", "err", err)
		return
	}
	if _, err := s.LoadContext(ctx, names); err != nil {
		g.log.Warn("gateway: keeping the conversation's loaded tools failed", "err", err)
	}
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
