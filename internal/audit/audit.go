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
	DefaultMaxBytes = 100 << 20
	DefaultMaxFiles = 5
)

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
	return nil
}

// rotate shifts path.N-1 → path.N … path → path.1 and starts a new file.
func (l *Log) rotate() error {
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

// Close closes the file. Writes after Close fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
