package eino

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// maxCacheEntries bounds each map of a Cache. A long-running process whose
// servers keep changing schemas would otherwise grow it without end; when a
// map is full it is cleared, which costs one round of conversions.
const maxCacheEntries = 8192

// Cache shares the costly conversions of fleet tool definitions between the
// tools and subagents of one Mux: MCP input schemas decoded into eino's
// jsonschema type, the ToolInfos built from them (per server enum), and the
// o200k cost of MCP definitions. Converting every permitted tool of a
// 23-server fleet took most of the time of building a subagent.
//
// Entries are keyed by (server, tool, schema hash), so a tool whose schema
// changes is converted again, and sharing a Cache across Muxes is safe. The
// ToolInfos it returns are shared: callers must not modify them. A nil
// *Cache is valid and caches nothing. A Cache is safe for concurrent use.
type Cache struct {
	seed   maphash.Seed
	mu     sync.Mutex
	decode map[schemaKey]*jsonschema.Schema
	infos  map[infoKey]*schema.ToolInfo
	costs  map[costKey]int
}

type schemaKey struct {
	server, tool string
	hash         uint64
	size         int
}

type infoKey struct {
	schemaKey
	name, kind, desc string
	serverArg        bool
	enum             string // servers joined by "\x00"
}

type costKey struct {
	schemaKey
	desc string
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{seed: maphash.MakeSeed(), decode: map[schemaKey]*jsonschema.Schema{},
		infos: map[infoKey]*schema.ToolInfo{}, costs: map[costKey]int{}}
}

func (c *Cache) key(server, tool string, raw []byte) schemaKey {
	return schemaKey{server: server, tool: tool, hash: maphash.Bytes(c.seed, raw), size: len(raw)}
}

// NewTool is the package's NewTool with conversions shared through c.
func (c *Cache) NewTool(mx *mcpfleet.Mux, s Spec, onCall func(context.Context, CallRecord)) (*Tool, error) {
	t := &Tool{mx: mx, spec: s, onCall: onCall, cache: c}
	info, err := c.info(s, s.Servers, false)
	if err != nil {
		return nil, err
	}
	t.info = info
	return t, nil
}

// info returns the ToolInfo of spec with the server enum set to servers;
// bound leaves the server parameter out (one server, chosen by the caller).
func (c *Cache) info(s Spec, servers []string, bound bool) (*schema.ToolInfo, error) {
	if bound {
		s.ServerArg = false
	}
	if c == nil {
		return convert(s, servers, nil)
	}
	k := infoKey{schemaKey: c.key(s.Servers[0], s.Tool, s.Schema), name: s.Name, kind: s.Kind, desc: s.Desc, serverArg: s.ServerArg}
	if s.ServerArg {
		k.enum = strings.Join(servers, "\x00")
	}
	c.mu.Lock()
	info, ok := c.infos[k]
	base := c.decode[k.schemaKey]
	c.mu.Unlock()
	if ok {
		return info, nil
	}
	if base == nil {
		var err error
		if base, err = decodeSchema(s.Schema); err != nil {
			return nil, fmt.Errorf("eino: tool %s: %w", s.Name, err)
		}
	}
	info, err := convert(s, servers, base)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.infos) >= maxCacheEntries {
		clear(c.infos)
	}
	if len(c.decode) >= maxCacheEntries {
		clear(c.decode)
	}
	c.infos[k] = info
	c.decode[k.schemaKey] = base
	return info, nil
}

// convert builds the ToolInfo of s from base, the decoded schema (decoded
// here when nil). base is not modified: withServer copies what it changes.
func convert(s Spec, servers []string, base *jsonschema.Schema) (*schema.ToolInfo, error) {
	if base == nil {
		var err error
		if base, err = decodeSchema(s.Schema); err != nil {
			return nil, fmt.Errorf("eino: tool %s: %w", s.Name, err)
		}
	}
	js := base
	if s.ServerArg {
		js = withServer(base, s.Kind, servers)
	}
	return &schema.ToolInfo{Name: s.Name, Desc: s.Desc, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(js)}, nil
}

// ToolTokens is tokens.MCPTools for one definition, memoised by (name,
// description, schema). Annotations are not part of the key: they change
// the figure by a few tokens and are fixed for a given schema in practice.
func (c *Cache) ToolTokens(t mcp.Tool) int {
	if c == nil {
		return tokens.MCPTools([]mcp.Tool{t})
	}
	k := costKey{schemaKey: c.key(t.Name, "", kindgroups.SchemaOf(t)), desc: t.Description}
	c.mu.Lock()
	n, ok := c.costs[k]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = tokens.MCPTools([]mcp.Tool{t})
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.costs) >= maxCacheEntries {
		clear(c.costs)
	}
	c.costs[k] = n
	return n
}
