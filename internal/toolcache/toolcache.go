package toolcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Version is the file format this package reads and writes.
const Version = 1

// File is a whole tool cache.
type File struct {
	Version int
	// Fleet is the absolute path of the fleet file the cache was written for.
	Fleet   string
	Servers map[string]Entry
}

// Entry is one server's cached listing.
type Entry struct {
	// Key is the server's launch config hash ([Key]) when it was listed.
	Key          string
	Info         mcp.Implementation
	Instructions string
	Tools        []mcp.Tool
}

// Launch is what identifies a server's launch config. Env and header
// values are left out: they may be secrets, and a file beside the fleet
// file must not hold even their hashes.
type Launch struct {
	Transport string
	Command   string
	Args      []string
	EnvNames  []string
	URL       string
	Headers   []string
}

// Key hashes a launch config: 64 lower-case hex digits. Name order in
// EnvNames and Headers does not matter.
func Key(l Launch) string {
	l.EnvNames, l.Headers = sorted(l.EnvNames), sorted(l.Headers)
	b, _ := json.Marshal(struct {
		T, C, U string
		A, E, H []string
	}{l.Transport, l.Command, l.URL, l.Args, l.EnvNames, l.Headers})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// FieldError is one thing wrong with a cache file. Server is "" for a
// problem of the whole file.
type FieldError struct {
	Server string
	Field  string // e.g. "version", "servers.k8s-1.tools[3].name"
	Want   string
}

func (e *FieldError) Error() string { return "tool cache: " + e.Field + ": want " + e.Want }

// wire is the JSON form.
type wire struct {
	Version json.RawMessage      `json:"version"`
	Fleet   json.RawMessage      `json:"fleet"`
	Servers map[string]wireEntry `json:"servers"`
}

type wireEntry struct {
	Key          string             `json:"key"`
	Info         mcp.Implementation `json:"server_info"`
	Instructions string             `json:"instructions,omitempty"`
	Tools        []json.RawMessage  `json:"tools"`
}

// Marshal encodes f as JSON, servers sorted by name, ending in a newline.
func (f *File) Marshal() ([]byte, error) {
	w := struct {
		Version int                  `json:"version"`
		Fleet   string               `json:"fleet"`
		Servers map[string]wireEntry `json:"servers"`
	}{Version, f.Fleet, make(map[string]wireEntry, len(f.Servers))}
	for name, e := range f.Servers {
		we := wireEntry{Key: e.Key, Info: e.Info, Instructions: e.Instructions, Tools: make([]json.RawMessage, 0, len(e.Tools))}
		for _, t := range e.Tools {
			b, err := json.Marshal(t)
			if err != nil {
				return nil, fmt.Errorf("tool cache: servers.%s: tool %q: %w", name, t.Name, err)
			}
			we.Tools = append(we.Tools, b)
		}
		w.Servers[name] = we
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, fmt.Errorf("tool cache: %w", err)
	}
	return b.Bytes(), nil
}

// Parse decodes a cache file. A problem with the whole file (not JSON,
// another version, no fleet) returns a nil File. A problem with one
// server's entry drops that entry: the File holds the good ones, and the
// error, an errors.Join of *[FieldError]s, names each bad one.
func Parse(data []byte) (*File, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&w); err != nil {
		return nil, &FieldError{Field: "(file)", Want: "a JSON object as mcpfleet writes (" + err.Error() + ")"}
	}
	if dec.More() {
		return nil, &FieldError{Field: "(file)", Want: "one JSON object, not several"}
	}
	if string(w.Version) != fmt.Sprint(Version) {
		return nil, &FieldError{Field: "version", Want: fmt.Sprint(Version)}
	}
	f := &File{Version: Version, Servers: make(map[string]Entry, len(w.Servers))}
	if err := json.Unmarshal(w.Fleet, &f.Fleet); err != nil || f.Fleet == "" {
		return nil, &FieldError{Field: "fleet", Want: "the fleet file's absolute path"}
	}
	var errs []error
	for name, we := range w.Servers {
		e, err := parseEntry(name, we)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f.Servers[name] = e
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return f, errors.Join(errs...)
}

func parseEntry(name string, we wireEntry) (Entry, error) {
	loc := "servers." + name
	bad := func(field, want string) (Entry, error) {
		return Entry{}, &FieldError{Server: name, Field: loc + field, Want: want}
	}
	if len(we.Key) != 64 || strings.Trim(we.Key, "0123456789abcdef") != "" {
		return bad(".key", "a launch config hash (64 hex digits)")
	}
	if we.Tools == nil {
		return bad(".tools", "a list of tools")
	}
	e := Entry{Key: we.Key, Info: we.Info, Instructions: we.Instructions, Tools: make([]mcp.Tool, 0, len(we.Tools))}
	for i, raw := range we.Tools {
		var t mcp.Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return bad(fmt.Sprintf(".tools[%d]", i), "a tool object ("+err.Error()+")")
		}
		if t.Name == "" {
			return bad(fmt.Sprintf(".tools[%d].name", i), "a non-empty tool name")
		}
		e.Tools = append(e.Tools, t)
	}
	return e, nil
}

// Path is the cache file beside the fleet file: fleet.yaml's is
// fleet.tools.json.
func Path(fleetPath string) string {
	base := filepath.Base(fleetPath)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return filepath.Join(filepath.Dir(fleetPath), base+".tools.json")
}

// FallbackPath is the cache file under the user cache folder
// ($XDG_CACHE_HOME/mcpfleet), named for the fleet file's path so that two
// fleets never share one.
func FallbackPath(fleetPath string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(fleetPath))
	base := strings.TrimSuffix(filepath.Base(fleetPath), filepath.Ext(fleetPath))
	return filepath.Join(dir, "mcpfleet", base+"-"+hex.EncodeToString(sum[:8])+".tools.json"), nil
}

// Read reads the cache of the fleet file at fleetPath: beside it, else
// under the user cache folder. os.ErrNotExist means there is none.
func Read(fleetPath string) (*File, string, error) {
	path := Path(fleetPath)
	data, err := os.ReadFile(path)
	if err != nil {
		if fb, ferr := FallbackPath(fleetPath); ferr == nil {
			if fdata, ferr := os.ReadFile(fb); ferr == nil {
				path, data, err = fb, fdata, nil
			}
		}
	}
	if err != nil {
		return nil, path, err
	}
	f, err := Parse(data)
	return f, path, err
}

// Write writes f atomically beside the fleet file, or under the user
// cache folder when that fails, and returns the path written.
func Write(fleetPath string, f *File) (string, error) {
	data, err := f.Marshal()
	if err != nil {
		return "", err
	}
	path := Path(fleetPath)
	err = writeAtomic(path, data)
	if err == nil {
		return path, nil
	}
	fb, ferr := FallbackPath(fleetPath)
	if ferr != nil {
		return "", err
	}
	if ferr = os.MkdirAll(filepath.Dir(fb), 0o700); ferr == nil {
		ferr = writeAtomic(fb, data)
	}
	if ferr != nil {
		return "", errors.Join(err, ferr)
	}
	return fb, nil
}

// writeAtomic writes data to a temporary file in path's folder and
// renames it over path.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}
