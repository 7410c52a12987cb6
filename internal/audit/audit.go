package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Defaults for zero Config fields.
const (
	DefaultMaxBytes     = 100 << 20
	DefaultMaxFiles     = 5
	DefaultSyncInterval = time.Second
)

// Sync modes, for Config.Sync: when written lines are forced to disk
// (fsync), so that a machine crash, not only a killed process, keeps them.
const (
	// SyncAlways forces each line to disk before Write returns: no line a
	// call has recorded is lost, at the cost of one fsync per call.
	SyncAlways = "always"
	// SyncInterval (the default) forces lines to disk at most
	// SyncInterval after they were written, in the background, and on
	// rotation and Close: a machine crash loses at most the last interval.
	SyncInterval = "interval"
	// SyncNever leaves flushing to the operating system, as a plain log
	// file does; rotation and Close do not fsync either.
	SyncNever = "never"
)

// SyncModes lists the valid Config.Sync values.
func SyncModes() []string { return []string{SyncAlways, SyncInterval, SyncNever} }

// Config says where the log goes.
type Config struct {
	// Path is the log file; its folder must exist.
	Path string
	// MaxBytes rotates the file before a line would take it past this
	// size (0 = DefaultMaxBytes). A single longer line still gets a file
	// of its own.
	MaxBytes int64
	// MaxFiles is how many rotated files are kept (0 = DefaultMaxFiles).
	MaxFiles int
	// Sync is SyncAlways, SyncInterval or SyncNever; "" means
	// SyncInterval.
	Sync string
	// SyncInterval bounds how long a line waits for its fsync under
	// SyncInterval (0 = DefaultSyncInterval).
	SyncInterval time.Duration
}

// Record is one line of the log.
type Record struct {
	Time time.Time `json:"time"`
	// Caller is the caller id (mcpfleet.WithCaller: for mcpfleet serve, a
	// hash of the bearer token, never the token); "" for the anonymous
	// caller.
	Caller  string `json:"caller"`
	Server  string `json:"server"`
	Kind    string `json:"kind,omitempty"`
	Tool    string `json:"tool"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// DurationMS is the call's duration in milliseconds, gates included.
	DurationMS float64 `json:"duration_ms"`
	// TraceID links the line to the call's trace, when tracing is on.
	TraceID string `json:"trace_id,omitempty"`
	// ArgsSHA256 is Hash of the arguments sent upstream; "" when the call
	// was refused before its arguments were settled.
	ArgsSHA256 string   `json:"args_sha256,omitempty"`
	Repairs    []string `json:"repairs,omitempty"`
}

// Hash is the hex SHA-256 of args' canonical JSON: object keys sorted,
// no insignificant whitespace, no HTML escaping, numbers as
// encoding/json writes float64 (the shortest form that reads back). Two
// calls with the same arguments hash alike whatever order their keys came
// in.
func Hash(args map[string]any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return ""
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:])
}

// Log is an open audit log. Its methods are safe for concurrent use.
type Log struct {
	cfg  Config
	mu   sync.Mutex
	f    *os.File
	size int64
	// syncing is set while a background fsync is scheduled (SyncInterval).
	syncing bool
}

// Open opens (or creates) the log at cfg.Path for appending, first cutting
// a torn last line left by a process that died mid-write.
func Open(cfg Config) (*Log, error) {
	if cfg.Path == "" {
		return nil, errors.New("audit: Config.Path is required")
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxFiles <= 0 {
		cfg.MaxFiles = DefaultMaxFiles
	}
	switch cfg.Sync {
	case "":
		cfg.Sync = SyncInterval
	case SyncAlways, SyncInterval, SyncNever:
	default:
		return nil, fmt.Errorf("audit: Config.Sync %q, want one of %v", cfg.Sync, SyncModes())
	}
	if cfg.SyncInterval <= 0 {
		cfg.SyncInterval = DefaultSyncInterval
	}
	if err := repair(cfg.Path); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	l := &Log{cfg: cfg}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open() error {
	f, err := os.OpenFile(l.cfg.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	l.f, l.size = f, st.Size()
	return nil
}

// repair truncates path after its last newline, if it does not end with
// one.
func repair(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	end := st.Size()
	buf := make([]byte, 4096)
	for pos := end; pos > 0; {
		n := int64(len(buf))
		if pos < n {
			n = pos
		}
		pos -= n
		if _, err := f.ReadAt(buf[:n], pos); err != nil && err != io.EOF {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			if cut := pos + int64(i) + 1; cut != end {
				return f.Truncate(cut)
			}
			return nil
		}
	}
	return f.Truncate(0)
}

// Write appends r as one line, rotating first when the line would take
// the file past MaxBytes.
func (l *Log) Write(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("audit: log closed")
	}
	if l.size > 0 && l.size+int64(len(line)) > l.cfg.MaxBytes {
		if err := l.rotate(); err != nil {
			return err
		}
	}
	n, err := l.f.Write(line) // one write(2): O_APPEND places it whole
	l.size += int64(n)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	switch {
	case l.cfg.Sync == SyncAlways:
		if err := l.f.Sync(); err != nil {
			return fmt.Errorf("audit: sync: %w", err)
		}
	case l.cfg.Sync == SyncInterval && !l.syncing:
		l.syncing = true
		time.AfterFunc(l.cfg.SyncInterval, l.syncNow)
	}
	return nil
}

// syncNow forces what was written to disk (SyncInterval's background
// fsync). The fsync runs outside the lock, so writers do not wait for the
// disk; a file rotated or closed meanwhile was synced then.
func (l *Log) syncNow() {
	l.mu.Lock()
	f := l.f
	l.syncing = false
	l.mu.Unlock()
	if f != nil {
		_ = f.Sync() // fails only for a file closed meanwhile, which was synced
	}
}

// syncBeforeClose forces the current file to disk unless Sync is never.
func (l *Log) syncBeforeClose() error {
	if l.cfg.Sync == SyncNever {
		return nil
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("audit: sync: %w", err)
	}
	return nil
}

// rotate shifts path.N-1 → path.N … path → path.1 and starts a new file.
func (l *Log) rotate() error {
	if err := l.syncBeforeClose(); err != nil {
		return err
	}
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	l.f = nil
	p := l.cfg.Path
	for i := l.cfg.MaxFiles - 1; i >= 1; i-- {
		if err := os.Rename(fmt.Sprintf("%s.%d", p, i), fmt.Sprintf("%s.%d", p, i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit: rotating: %w", err)
		}
	}
	err := os.Rename(p, p+".1")
	// Keep logging even when the rename failed: to the same file, then.
	if oerr := l.open(); oerr != nil {
		return errors.Join(err, oerr)
	}
	if err != nil {
		return fmt.Errorf("audit: rotating: %w", err)
	}
	return nil
}

// Close forces the file to disk (unless Sync is never) and closes it.
// Writes after Close fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := errors.Join(l.syncBeforeClose(), l.f.Close())
	l.f = nil
	return err
}
