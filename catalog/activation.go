package catalog

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// ActivationStore keeps the tools a conversation loaded, so that the next
// session of the same conversation starts with them active instead of
// paying the loadTools round trip again. Keys are caller-supplied
// conversation IDs (SessionConfig.ConversationID).
//
// Implementations must be safe for concurrent use. Load of an unknown
// conversation returns nil, nil. Save replaces the stored list; sessions
// merge with what is stored before saving, so two sessions of one
// conversation in the same process do not lose each other's loads.
type ActivationStore interface {
	Load(ctx context.Context, convID string) ([]string, error)
	Save(ctx context.Context, convID string, names []string) error
}

// MemoryStore is the in-memory ActivationStore. The zero value is ready to
// use. Every Catalog has one, used when SessionConfig.Store is nil.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string][]string
}

// Load implements ActivationStore.
func (m *MemoryStore) Load(_ context.Context, convID string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.m[convID]), nil
}

// Save implements ActivationStore.
func (m *MemoryStore) Save(_ context.Context, convID string, names []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string][]string{}
	}
	m.m[convID] = slices.Clone(names)
	return nil
}

// Store operations, for StoreError.Op.
const (
	StoreOpLoad = "load"
	StoreOpSave = "save"
)

// StoreError is an ActivationStore failure. Loads themselves still
// happened: a store failure costs persistence, never the current run.
type StoreError struct {
	Op           string // StoreOpLoad or StoreOpSave
	Conversation string
	Err          error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("catalog: activation store %s for conversation %q: %v", e.Op, e.Conversation, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

// persistLocked merges names into the conversation's stored list. The
// caller holds s.mu.
func (s *Session) persistLocked(ctx context.Context, names []string) error {
	if s.conv == "" || len(names) == 0 {
		return nil
	}
	stored, err := s.store.Load(ctx, s.conv)
	if err != nil {
		return &StoreError{Op: StoreOpLoad, Conversation: s.conv, Err: err}
	}
	merged := slices.Clone(stored)
	for _, n := range names {
		if !slices.Contains(merged, n) {
			merged = append(merged, n)
		}
	}
	if len(merged) == len(stored) {
		return nil
	}
	if err := s.store.Save(ctx, s.conv, merged); err != nil {
		return &StoreError{Op: StoreOpSave, Conversation: s.conv, Err: err}
	}
	return nil
}
