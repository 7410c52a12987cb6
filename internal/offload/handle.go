package offload

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Defaults of a result store's bounds (the fleet file's result_store), the
// same for the in-memory store and Redis.
const (
	DefaultMaxBytes = 256 << 20
	DefaultTTL      = time.Hour
)

// NewHandle returns a fresh random handle, short enough for a model to copy
// without error ("r-" and 12 hex digits).
func NewHandle() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "r-" + hex.EncodeToString(b[:])
}
