package openai

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/cloudwego/eino/components/embedding"
)

// DefaultEmbedCacheEntries is an EmbedCache's bound when NewEmbedCache is
// given none: room for the entries of a large fleet's catalog and the
// queries searched between two rebuilds. A 1536-dimension vector takes
// 12 KiB, so a full cache of them holds about 48 MiB.
const DefaultEmbedCacheEntries = 4096

// EmbedCache is an eino embedding.Embedder that remembers the vectors of
// another, keyed by model and exact text, so that rebuilding a catalog
// asks the endpoint only for the entries whose text changed. It sends
// the texts it has not seen, each once and in input order, in one call to
// the wrapped embedder with the caller's options; the embedding.WithModel
// option, if given, is part of the key. A failed call caches nothing,
// except that when the wrapped embedder is an *Embedder whose
// later batch failed, the earlier batches' vectors
// ([EmbedError.Embedded]) are kept.
//
// The cache holds at most its bound of vectors and drops the least
// recently used first. Vectors are shared between callers, which must not
// modify them. It is safe for concurrent use. Concurrent calls missing
// the same text each send it: catalog computes its entry vectors once per
// build, and holding one call's texts until another's answer arrives
// would tie a search's wait to someone else's batch.
type EmbedCache struct {
	e   embedding.Embedder
	max int

	mu      sync.Mutex
	entries map[embedKey]*list.Element // values are *embedEntry
	lru     list.List                  // most recently used first
}

// embedKey's model is "" for the wrapped embedder's own model, which
// only it knows.
type embedKey struct{ model, text string }

type embedEntry struct {
	key embedKey
	vec []float64
}

// NewEmbedCache wraps e in a cache of at most maxEntries vectors
// (DefaultEmbedCacheEntries when not positive). A nil e, or a nil
// *Embedder as EmbedderFromEnv returns when embeddings are off,
// gives a nil *EmbedCache, which CatalogEmbedder turns into no embedder.
func NewEmbedCache(e embedding.Embedder, maxEntries int) *EmbedCache {
	if o, ok := e.(*Embedder); e == nil || ok && o == nil {
		return nil
	}
	if maxEntries <= 0 {
		maxEntries = DefaultEmbedCacheEntries
	}
	return &EmbedCache{e: e, max: maxEntries, entries: map[embedKey]*list.Element{}}
}

// EmbedStrings returns one vector per text, in order, from the cache
// where it can and from the wrapped embedder otherwise. Its errors are the
// wrapped embedder's, unchanged.
func (c *EmbedCache) EmbedStrings(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	var model string
	if o := embedding.GetCommonOptions(nil, opts...); o.Model != nil {
		model = *o.Model
	}
	out := make([][]float64, len(texts))
	var misses []string
	var waiting map[string][]int // a missed text's places in out
	c.mu.Lock()
	for i, t := range texts {
		if el, ok := c.entries[embedKey{model, t}]; ok {
			c.lru.MoveToFront(el)
			out[i] = el.Value.(*embedEntry).vec
			continue
		}
		if waiting == nil {
			waiting = map[string][]int{}
		}
		if _, seen := waiting[t]; !seen {
			misses = append(misses, t)
		}
		waiting[t] = append(waiting[t], i)
	}
	c.mu.Unlock()
	if len(misses) == 0 {
		return out, nil
	}
	vecs, err := c.e.EmbedStrings(ctx, misses, opts...)
	if err != nil {
		c.keepEmbedded(model, misses, err)
		return nil, err
	}
	if len(vecs) != len(misses) {
		return nil, fmt.Errorf("eino: embedding cache: the wrapped embedder returned %d vectors for %d texts", len(vecs), len(misses))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, t := range misses {
		for _, i := range waiting[t] {
			out[i] = vecs[j]
		}
		c.putValid(embedKey{model, t}, vecs[j])
	}
	return out, nil
}

// keepEmbedded caches the vectors of the batches that succeeded before
// a later one failed, so that the next call, typically the catalog's
// after its cool-down, sends only the texts still missing. Only an
// *Embedder wrapped directly is trusted with this: a decorator in
// between might have sent other texts than misses, and its *EmbedError's
// vectors would then be cached under the wrong keys for good.
func (c *EmbedCache) keepEmbedded(model string, misses []string, err error) {
	var ee *EmbedError
	if _, direct := c.e.(*Embedder); !direct || !errors.As(err, &ee) || len(ee.Embedded) > len(misses) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, v := range ee.Embedded {
		c.putValid(embedKey{model, misses[j]}, v)
	}
}

// putValid is put, except for an empty vector: that is a broken answer,
// and caching it would keep it. c.mu is held.
func (c *EmbedCache) putValid(k embedKey, v []float64) {
	if len(v) > 0 {
		c.put(k, v)
	}
}

// put stores v under k as the most recently used, dropping the least
// recently used beyond the bound. c.mu is held.
func (c *EmbedCache) put(k embedKey, v []float64) {
	if el, ok := c.entries[k]; ok {
		el.Value.(*embedEntry).vec = v
		c.lru.MoveToFront(el)
		return
	}
	c.entries[k] = c.lru.PushFront(&embedEntry{k, v})
	for c.lru.Len() > c.max {
		old := c.lru.Remove(c.lru.Back()).(*embedEntry)
		delete(c.entries, old.key)
	}
}
