package toolcache_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/toolcache"
)

func sample() *toolcache.File {
	key := toolcache.Key(toolcache.Launch{Transport: "stdio", Command: "/bin/k8s", Args: []string{"--read-only"}, EnvNames: []string{"B", "A"}})
	return &toolcache.File{Version: toolcache.Version, Fleet: "/srv/fleet.yaml", Servers: map[string]toolcache.Entry{
		"k8s-1": {Key: key, Info: mcp.Implementation{Name: "kubernetes-mcp-server", Version: "0.0.50"}, Instructions: "Be careful.",
			Tools: []mcp.Tool{
				{Name: "pods_list", Description: "List pods", RawInputSchema: json.RawMessage(`{"type":"object","properties":{"namespace":{"type":"string"}}}`)},
				{Name: "pods_get", Description: "Get a pod", RawInputSchema: json.RawMessage(`{"type":"object"}`)},
			}},
	}}
}

func TestRoundTrip(t *testing.T) {
	f := sample()
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := toolcache.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fleet != f.Fleet || got.Version != toolcache.Version {
		t.Errorf("header: got %q v%d", got.Fleet, got.Version)
	}
	e := got.Servers["k8s-1"]
	want := f.Servers["k8s-1"]
	if e.Key != want.Key || e.Info.Name != want.Info.Name || e.Info.Version != want.Info.Version || e.Instructions != want.Instructions {
		t.Errorf("entry: got %+v", e)
	}
	var names []string
	for _, tl := range e.Tools {
		names = append(names, tl.Name)
	}
	if diff := cmp.Diff([]string{"pods_list", "pods_get"}, names); diff != "" {
		t.Errorf("tool order (-want +got):\n%s", diff)
	}
	if p := e.Tools[0].InputSchema.Properties["namespace"]; p == nil {
		t.Errorf("schema lost: %+v", e.Tools[0].InputSchema)
	}
}

func TestKey(t *testing.T) {
	base := toolcache.Launch{Transport: "stdio", Command: "srv", Args: []string{"a"}, EnvNames: []string{"X", "Y"}}
	same := base
	same.EnvNames = []string{"Y", "X"}
	if toolcache.Key(base) != toolcache.Key(same) {
		t.Error("env name order changed the key")
	}
	for name, edit := range map[string]func(*toolcache.Launch){
		"command": func(l *toolcache.Launch) { l.Command = "srv2" },
		"args":    func(l *toolcache.Launch) { l.Args = []string{"b"} },
		"env":     func(l *toolcache.Launch) { l.EnvNames = []string{"X"} },
		"url":     func(l *toolcache.Launch) { l.URL = "http://127.0.0.1:1/mcp" },
	} {
		l := base
		edit(&l)
		if toolcache.Key(l) == toolcache.Key(base) {
			t.Errorf("%s: a changed launch config kept its key", name)
		}
	}
}

func TestParseErrors(t *testing.T) {
	key := strings.Repeat("a", 64)
	tests := []struct {
		name, doc, field string
		whole            bool // the whole file is refused
	}{
		{"not json", `{"version":`, "(file)", true},
		{"two objects", `{} {}`, "(file)", true},
		{"version", `{"version":2,"fleet":"/f","servers":{}}`, "version", true},
		{"fleet", `{"version":1,"servers":{}}`, "fleet", true},
		{"key", `{"version":1,"fleet":"/f","servers":{"a":{"key":"x","tools":[]}}}`, "servers.a.key", false},
		{"tools missing", `{"version":1,"fleet":"/f","servers":{"a":{"key":"` + key + `"}}}`, "servers.a.tools", false},
		{"tool name", `{"version":1,"fleet":"/f","servers":{"a":{"key":"` + key + `","tools":[{"name":"ok"},{"description":"x"}]}}}`, "servers.a.tools[1].name", false},
		{"tool shape", `{"version":1,"fleet":"/f","servers":{"a":{"key":"` + key + `","tools":[7]}}}`, "servers.a.tools[0]", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := toolcache.Parse([]byte(tc.doc))
			var fe *toolcache.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FieldError", err)
			}
			if fe.Field != tc.field {
				t.Errorf("field: got %q, want %q (%v)", fe.Field, tc.field, err)
			}
			if (f == nil) != tc.whole {
				t.Errorf("file refused: got %v, want %v", f == nil, tc.whole)
			}
			if f != nil {
				if _, ok := f.Servers["a"]; ok {
					t.Error("a bad entry was kept")
				}
			}
		})
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	fleet := filepath.Join(dir, "fleet.yaml")
	path, err := toolcache.Write(fleet, sample())
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "fleet.tools.json") {
		t.Errorf("written to %s, want beside the fleet file", path)
	}
	got, _, err := toolcache.Read(fleet)
	if err != nil || got.Servers["k8s-1"].Key != sample().Servers["k8s-1"].Key {
		t.Fatalf("read back: %v %+v", err, got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".fleet.tools.json.*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteFallsBackToUserCache(t *testing.T) {
	dir := t.TempDir()
	// A folder nobody can write into, even root: a path under a file.
	ro := filepath.Join(dir, "ro")
	if err := os.WriteFile(ro, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg"))
	fleet := filepath.Join(ro, "fleet.yaml")
	path, err := toolcache.Write(fleet, sample())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, filepath.Join(dir, "xdg", "mcpfleet")) {
		t.Errorf("written to %s, want under XDG_CACHE_HOME/mcpfleet", path)
	}
	if _, _, err := toolcache.Read(fleet); err != nil {
		t.Errorf("read back: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	data, _ := sample().Marshal()
	f.Add(data)
	f.Add([]byte(`{"version":1,"fleet":"/f","servers":{"a":{"key":"x","tools":[{}]}}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"version":"1","fleet":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := toolcache.Parse(data)
		if err == nil && file == nil {
			t.Fatal("nil file without an error")
		}
		if err != nil {
			var fe *toolcache.FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("error names no field: %v", err)
			}
		}
		if file != nil {
			for name, e := range file.Servers {
				if len(e.Key) != 64 {
					t.Fatalf("%s: kept a bad key %q", name, e.Key)
				}
				for _, tl := range e.Tools {
					if tl.Name == "" {
						t.Fatalf("%s: kept a tool without a name", name)
					}
				}
			}
		}
	})
}
