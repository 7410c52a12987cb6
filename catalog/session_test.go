package catalog_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func TestNewSessionErrors(t *testing.T) {
	servers := []kindgroups.Server{
		{Name: "ro", Kind: "k", Tools: []mcp.Tool{catalogtest.Tool("look", "Look.", true)}},
		{Name: "rw", Kind: "w", Tools: []mcp.Tool{catalogtest.Tool("wipe", "Wipe.", false)}},
	}
	c := catalog.Build(servers, catalog.Config{})
	tests := []struct {
		name string
		cfg  catalog.SessionConfig
		want *catalog.SessionError
	}{
		{"unknown server", catalog.SessionConfig{Servers: []string{"ro", "nope"}},
			&catalog.SessionError{UnknownServers: []string{"nope"}, ValidServers: []string{"ro"}}},
		// A server whose tools the scopes do not permit looks unknown.
		{"unpermitted server", catalog.SessionConfig{Servers: []string{"rw"}, Scopes: []string{"read"}},
			&catalog.SessionError{UnknownServers: []string{"rw"}, ValidServers: []string{"ro"}}},
		{"bad mode", catalog.SessionConfig{Mode: "sometimes", Scopes: []string{"*"}},
			&catalog.SessionError{ValidServers: []string{"ro", "rw"}, BadMode: "sometimes"}},
		{"bad auto", catalog.SessionConfig{Mode: "auto:x%"},
			&catalog.SessionError{ValidServers: []string{"ro"}, BadMode: "auto:x%"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.NewSession(tc.cfg)
			var se *catalog.SessionError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *SessionError", err)
			}
			if diff := cmp.Diff(tc.want, se); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	_, err := c.NewSession(catalog.SessionConfig{Servers: []string{"nope"}})
	if want := "catalog: unknown servers nope (valid servers: ro)"; err.Error() != want {
		t.Errorf("text = %q, want %q", err, want)
	}
}

func refKeys(rs []catalog.Ref) []string {
	var out []string
	for _, r := range rs {
		for _, s := range r.Servers {
			out = append(out, s+"."+r.Tool)
		}
	}
	return out
}

func TestSessionModes(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	tests := []struct {
		name       string
		cfg        catalog.SessionConfig
		wantMode   string
		wantActive []string // nil: not checked
	}{
		{"on: core tools of the slice", catalog.SessionConfig{Servers: []string{"k8s-1", "prom-eu"}, Mode: "on"}, "on",
			[]string{"k8s-1.events_list", "k8s-1.pods_list", "k8s-1.pods_log", "prom-eu.execute_query"}},
		{"off: every permitted slice tool", catalog.SessionConfig{Servers: []string{"prom-eu"}, Mode: "off"}, "off",
			[]string{"prom-eu.execute_query", "prom-eu.execute_range_query", "prom-eu.get_metric_metadata",
				"prom-eu.get_targets", "prom-eu.health_check", "prom-eu.list_metrics"}},
		{"auto: a small slice stays whole", catalog.SessionConfig{Servers: []string{"k8s-1"}}, "off", nil},
		{"auto: the fleet is deferred", catalog.SessionConfig{}, "on", nil},
		{"auto:1% defers a small slice", catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "auto:1%"}, "on", nil},
		{"auto:N tokens", catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "auto:100000"}, "off", nil},
		{"auto: small window", catalog.SessionConfig{Servers: []string{"k8s-1"}, ContextWindow: 8192}, "on", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.NewSession(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.wantMode {
				t.Fatalf("mode = %s (%s), want %s", s.Mode(), s.Reason(), tc.wantMode)
			}
			if s.MetaTools() != (tc.wantMode == "on") {
				t.Errorf("MetaTools = %v in mode %s", s.MetaTools(), s.Mode())
			}
			if tc.wantActive != nil {
				if diff := cmp.Diff(tc.wantActive, refKeys(s.Active())); diff != "" {
					t.Errorf("active (-want +got)\n%s", diff)
				}
			}
			if s.Mode() == "off" {
				if s.CatalogBlock() != "" || len(s.Deferred()) != 0 {
					t.Error("mode off has a catalog")
				}
				// Every permitted tool of the slice is active.
				for _, e := range c.Entries() {
					for _, srv := range e.Servers {
						in := slices.Contains(tc.cfg.Servers, srv) && catalog.Permitted(e, s.Scopes())
						if got := s.Allow(srv, e.Tool) == nil; got != in {
							t.Errorf("Allow(%s, %s) ok=%v, want %v", srv, e.Tool, got, in)
						}
					}
				}
			}
		})
	}
}

func TestServerCoreTools(t *testing.T) {
	f := fixtures.MustLoad(t, "kubernetes")
	servers := []kindgroups.Server{{Name: "a", Kind: "k", Tools: f.Tools}, {Name: "b", Kind: "k", Tools: f.Tools}}
	c := catalog.Build(servers, catalog.Config{ServerCoreTools: map[string][]string{"b": {"nodes_top"}}})
	s, err := c.NewSession(catalog.SessionConfig{Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b.nodes_top"}, refKeys(s.Active())); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// The tool stays deferred on the server where it is not core.
	for _, e := range s.Deferred() {
		if e.Tool == "nodes_top" && !slices.Equal(e.Servers, []string{"a"}) {
			t.Errorf("deferred nodes_top on %v, want [a]", e.Servers)
		}
	}
}

func TestLoad(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		names    []string
		want     catalog.LoadResult
		problems []catalog.NameProblem
	}{
		{[]string{"pods_top", "k8s-2.nodes_top"},
			catalog.LoadResult{Loaded: []string{"pods_top", "k8s-2.nodes_top"}, AlreadyActive: []string{}}, nil},
		{[]string{"kubernetes.pods_top", "pods_log", "k8s-2.nodes_top", "k8s-3.nodes_top"},
			// pods_log was core on k8s-1 only; the bare name loads it for the kind.
			catalog.LoadResult{Loaded: []string{"pods_log", "k8s-3.nodes_top"}, AlreadyActive: []string{"kubernetes.pods_top", "k8s-2.nodes_top"}},
			nil},
		{[]string{"pods_lgo", "execute_query", "ghost.tool"},
			catalog.LoadResult{Loaded: []string{"execute_query"}, AlreadyActive: []string{}},
			[]catalog.NameProblem{
				{Name: "pods_lgo", Reason: "unknown", Options: []string{"pods_log", "pods_get", "pods_list"}},
				{Name: "ghost.tool", Reason: "unknown"},
			}},
	}
	for i, st := range steps {
		got, err := s.Load(st.names)
		var le *catalog.LoadError
		if errors.As(err, &le) {
			for j := range le.Problems {
				if st.problems != nil && j < len(st.problems) && st.problems[j].Options == nil {
					le.Problems[j].Options = nil // only the reason matters
				}
			}
		}
		var gotProblems []catalog.NameProblem
		if le != nil {
			gotProblems = le.Problems
		} else if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Errorf("step %d result (-want +got)\n%s", i, diff)
		}
		if diff := cmp.Diff(st.problems, gotProblems); diff != "" {
			t.Errorf("step %d problems (-want +got)\n%s", i, diff)
		}
	}
	// pods_top is now active on every kubernetes server; pods_log only on
	// the slice plus wherever it was loaded (it was loaded for the kind).
	want := map[string][]string{
		"pods_top":  {"k8s-1", "k8s-2", "k8s-3", "k8s-4", "k8s-5"},
		"nodes_top": {"k8s-2", "k8s-3"},
	}
	for _, r := range s.Active() {
		if w, ok := want[r.Tool]; ok && !slices.Equal(w, r.Servers) {
			t.Errorf("%s active on %v, want %v", r.Tool, r.Servers, w)
		}
	}
}

func TestLoadAmbiguous(t *testing.T) {
	gh := fixtures.MustLoad(t, "github")
	gl := fixtures.MustLoad(t, "gitlab")
	c := catalog.Build([]kindgroups.Server{
		{Name: "gh", Kind: "github", Tools: gh.Tools},
		{Name: "gl", Kind: "gitlab", Tools: gl.Tools},
	}, catalog.Config{})
	s, err := c.NewSession(catalog.SessionConfig{Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Load([]string{"get_file_contents"})
	want := "loadTools: get_file_contents is in kinds github and gitlab: use github.get_file_contents or gitlab.get_file_contents"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	res, err := s.Load([]string{"gitlab.get_file_contents"})
	if err != nil || !slices.Equal(res.Loaded, []string{"gitlab.get_file_contents"}) {
		t.Errorf("qualified load: %+v, %v", res, err)
	}
	if err := s.Allow("gl", "get_file_contents"); err != nil {
		t.Error(err)
	}
	if err := s.Allow("gh", "get_file_contents"); err == nil {
		t.Error("github.get_file_contents allowed without loading")
	}
}

func TestAllow(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		server, tool string
		reason       string // "" = allowed
		text         string
	}{
		{"k8s-1", "pods_log", "", ""},
		{"k8s-2", "pods_log", catalog.ReasonNotLoaded,
			`tool pods_log is not loaded on server k8s-2: call loadTools with ["k8s-2.pods_log"] (or "kubernetes.pods_log" for every kubernetes server), then call it on your next step`},
		{"k8s-1", "pods_top", catalog.ReasonNotLoaded, ""},
		{"k8s-1", "no_such", catalog.ReasonUnknown,
			"no tool no_such on server k8s-1: use searchTools to find the right tool, then loadTools"},
		// Destructive under read scope: exactly like a tool that does not exist.
		{"k8s-1", "pods_delete", catalog.ReasonUnknown,
			"no tool pods_delete on server k8s-1: use searchTools to find the right tool, then loadTools"},
		{"nowhere", "pods_log", catalog.ReasonUnknown, ""},
		{"gitlab-a-ro", "merge_merge_request", catalog.ReasonUnknown, ""},
	}
	for _, tc := range tests {
		t.Run(tc.server+"."+tc.tool, func(t *testing.T) {
			err := s.Allow(tc.server, tc.tool)
			if tc.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ge *catalog.GateError
			if !errors.As(err, &ge) {
				t.Fatalf("err = %v, want *GateError", err)
			}
			if ge.Reason != tc.reason {
				t.Errorf("reason = %s, want %s", ge.Reason, tc.reason)
			}
			if tc.text != "" && err.Error() != tc.text {
				t.Errorf("text = %q\nwant   %q", err, tc.text)
			}
		})
	}
	if _, err := s.Load([]string{"k8s-2.pods_log"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Allow("k8s-2", "pods_log"); err != nil {
		t.Errorf("after load: %v", err)
	}
}

// TestReadOnlyNeverSeesWrites: under read scope no write tool shows up in
// search, the catalog block, loadTools or the gate, however it is asked.
func TestReadOnlyNeverSeesWrites(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Scopes: []string{"read"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	var writes []catalog.Entry
	for _, e := range c.Entries() {
		if !catalog.Permitted(e, []string{"read"}) {
			writes = append(writes, e)
		}
	}
	if len(writes) < 50 {
		t.Fatalf("only %d write tools in the fleet; the test needs many", len(writes))
	}
	block := s.CatalogBlock()
	listed := map[string]bool{}
	for _, kt := range parseBlock(t, block).pairs {
		listed[kt] = true
	}
	fleetCtx := catalog.WithScopes(t.Context()) // explicit, empty: nothing permitted
	for _, e := range writes {
		if listed[e.Key()] {
			t.Errorf("catalog lists %s", e.Key())
		}
		for _, q := range []string{e.Tool, e.Key(), strings.ReplaceAll(e.Tool, "_", " "), e.Line} {
			for _, h := range s.Search(t.Context(), q, 20) {
				if h.Kind == e.Kind && h.Tool == e.Tool {
					t.Errorf("session search %q found %s", q, e.Key())
				}
			}
			for _, h := range c.Search(t.Context(), q, 20) { // no scopes in ctx: read-only
				if h.Kind == e.Kind && h.Tool == e.Tool {
					t.Errorf("fleet search %q found %s", q, e.Key())
				}
			}
		}
		res, err := s.Load([]string{e.Key(), e.Servers[0] + "." + e.Tool})
		if len(res.Loaded)+len(res.AlreadyActive) > 0 || err == nil {
			t.Errorf("loaded %s: %+v", e.Key(), res)
		}
		var le *catalog.LoadError
		if errors.As(err, &le) {
			for _, p := range le.Problems {
				if p.Reason != catalog.ProblemUnknown || slices.Contains(p.Options, e.Tool) || slices.Contains(p.Options, e.Key()) {
					t.Errorf("load problem reveals %s: %+v", e.Key(), p)
				}
			}
		}
		for _, srv := range e.Servers {
			var ge *catalog.GateError
			if err := s.Allow(srv, e.Tool); !errors.As(err, &ge) || ge.Reason != catalog.ReasonUnknown {
				t.Errorf("Allow(%s, %s) = %v", srv, e.Tool, err)
			}
		}
	}
	if hits := c.Search(fleetCtx, "pods", 5); len(hits) != 0 {
		t.Errorf("empty scopes found %d tools", len(hits))
	}
}

// TestModeAgreesWithConfig holds SessionConfig.Mode to the rule of the
// fleet file's deferred_tools (config.ParseDeferred): a mode one accepts
// and the other rejects would fail only at run time.
func TestModeAgreesWithConfig(t *testing.T) {
	c := catalog.Build([]kindgroups.Server{{Name: "ro", Kind: "k", Tools: []mcp.Tool{catalogtest.Tool("look", "Look.", true)}}}, catalog.Config{})
	for _, m := range []string{
		"", "on", "off", "auto", "auto:10%", "auto:100%", "auto:0.5%", "auto:5000", "auto:+5",
		"auto:0", "auto:0%", "auto:-1", "auto:-1%", "auto:101%", "auto:NaN%", "auto:", "auto:%",
		"auto:x", "auto:1.5", "auto:10 %", "Auto", "ON", "sometimes", "auto:10%%",
	} {
		t.Run(m, func(t *testing.T) {
			_, cerr := config.ParseDeferred(m)
			_, serr := c.NewSession(catalog.SessionConfig{Mode: m})
			if (cerr == nil) != (serr == nil) {
				t.Fatalf("config.ParseDeferred err = %v, catalog NewSession err = %v; want both nil or both non-nil", cerr, serr)
			}
			if serr != nil && !strings.Contains(serr.Error(), "auto:N% with 0 < N <= 100, or auto:N with N > 0 tokens") {
				t.Errorf("error %q does not name the valid forms", serr)
			}
		})
	}
}

// TestLoadServerNamedLikeKind: in "name.tool" a server wins over a kind of
// the same name, so loading one server's tool never loads its siblings.
func TestLoadServerNamedLikeKind(t *testing.T) {
	gh := fixtures.MustLoad(t, "github")
	gl := fixtures.MustLoad(t, "gitlab")
	jira := fixtures.MustLoad(t, "jira")
	c := catalog.Build([]kindgroups.Server{
		{Name: "gitlab", Kind: "gitlab", Tools: gl.Tools},
		{Name: "gitlab-b", Kind: "gitlab", Tools: gl.Tools},
		{Name: "gh", Kind: "github", Tools: gh.Tools},
		{Name: "jira", Kind: "jira", Tools: jira.Tools},
	}, catalog.Config{})
	tests := []struct {
		name    string
		load    []string
		want    []string // server.tool now active
		wantErr string
	}{
		{"server named like its kind", []string{"gitlab.list_commits"}, []string{"gitlab.list_commits"}, ""},
		{"sibling server", []string{"gitlab-b.list_commits"}, []string{"gitlab-b.list_commits"}, ""},
		{"bare name loads the whole kind", []string{"approve_merge_request"}, []string{"gitlab.approve_merge_request", "gitlab-b.approve_merge_request"}, ""},
		{"single-server kind", []string{"jira.jira_get_issue"}, []string{"jira.jira_get_issue"}, ""},
		// get_file_contents is in github too, so the bare name is
		// ambiguous and "gitlab.get_file_contents" means server gitlab:
		// the whole kind is named server by server.
		{"shadowed kind, ambiguous bare name", []string{"get_file_contents"}, nil,
			"loadTools: get_file_contents is in kinds github and gitlab: use github.get_file_contents, gitlab.get_file_contents or gitlab-b.get_file_contents"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.NewSession(catalog.SessionConfig{Mode: "on", Scopes: []string{"*"}})
			if err != nil {
				t.Fatal(err)
			}
			before := map[string]bool{}
			for _, k := range refKeys(s.Active()) {
				before[k] = true
			}
			_, err = s.Load(tc.load)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.wantErr {
				t.Fatalf("err = %q, want %q", gotErr, tc.wantErr)
			}
			var got []string
			for _, k := range refKeys(s.Active()) {
				if !before[k] {
					got = append(got, k)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("newly active (-want +got)\n%s", diff)
			}
		})
	}
	s, err := c.NewSession(catalog.SessionConfig{Mode: "on", Scopes: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ server, tool, want string }{
		{"gitlab-b", "approve_merge_request", `tool approve_merge_request is not loaded on server gitlab-b: call loadTools with ["gitlab-b.approve_merge_request"] (or "approve_merge_request" for every gitlab server), then call it on your next step`},
		{"gitlab-b", "get_file_contents", `tool get_file_contents is not loaded on server gitlab-b: call loadTools with ["gitlab-b.get_file_contents"], then call it on your next step`},
		{"jira", "jira_get_issue", `tool jira_get_issue is not loaded on server jira: call loadTools with ["jira.jira_get_issue"], then call it on your next step`},
	} {
		if err := s.Allow(tc.server, tc.tool); err == nil || err.Error() != tc.want {
			t.Errorf("Allow(%s, %s) = %v\nwant %s", tc.server, tc.tool, err, tc.want)
		}
	}
}

// TestModeGolden pins, per deferred_tools mode, what a session over a
// three-server slice hands the model: the resolved mode and its reason,
// the active tools, and the catalog block (testdata/mode_*.golden).
func TestModeGolden(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	slice := []string{"gitlab-a", "k8s-1", "prom-eu"}
	tests := []struct {
		name, mode string
		window     int
		wantMode   string
	}{
		{"on", "on", 0, "on"},
		{"off", "off", 0, "off"},
		// The slice's full definitions are over 10% of 128k: auto defers.
		{"auto", "auto", 0, "on"},
		// A million-token window fits them all: auto keeps them active.
		{"auto_large_window", "auto", 1_000_000, "off"},
		{"auto_tokens", "auto:500", 0, "on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.NewSession(catalog.SessionConfig{Servers: slice, Mode: tc.mode, ContextWindow: tc.window, Scopes: []string{"read"}})
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.wantMode {
				t.Fatalf("mode %s resolved to %s (%s), want %s", tc.mode, s.Mode(), s.Reason(), tc.wantMode)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "mode %s -> %s (%s)\nmeta-tools: %v\n\n## active\n", tc.mode, s.Mode(), s.Reason(), s.MetaTools())
			for _, r := range s.Active() {
				fmt.Fprintf(&b, "%s.%s [%s]\n", r.Kind, r.Tool, strings.Join(r.Servers, ", "))
			}
			block := s.CatalogBlock()
			fmt.Fprintf(&b, "\n## catalog block (%d tokens)\n%s", tokens.Count(block), block)
			goldenfile.CheckNamed(t, "mode_"+tc.name, b.String())

			// What the golden file shows, asserted: off has no catalog and
			// no meta-tools; on lists every permitted tool exactly once,
			// active or deferred.
			if (block == "") != (s.Mode() == catalog.ModeOff) {
				t.Errorf("mode %s with catalog block %q", s.Mode(), block)
			}
			if s.Mode() == catalog.ModeOn {
				listed := map[string]int{}
				for _, kt := range parseBlock(t, block).pairs {
					listed[kt]++
				}
				deferred := 0
				for _, e := range s.Deferred() {
					deferred++
					if listed[e.Key()] != 1 && parseBlock(t, block).more[e.Kind] == 0 {
						t.Errorf("%s listed %d times", e.Key(), listed[e.Key()])
					}
				}
				if deferred == 0 {
					t.Error("mode on defers nothing")
				}
			}
		})
	}
}

// TestAutoSmallSlice: a slice of a few small tools stays whole under the
// default threshold, and defers once the threshold is below its size.
func TestAutoSmallSlice(t *testing.T) {
	f := fixtures.MustLoad(t, "prometheus")
	c := catalog.Build([]kindgroups.Server{{Name: "prom", Kind: "prometheus", Tools: f.Tools}}, catalog.Config{})
	size := tokens.MCPTools(f.Tools)
	tests := []struct {
		mode string
		want string
	}{
		{"auto", "off"},
		{"", "off"},
		{fmt.Sprintf("auto:%d", size), "off"},
		{fmt.Sprintf("auto:%d", size-1), "on"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			s, err := c.NewSession(catalog.SessionConfig{Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.want {
				t.Errorf("%d tools (%d tokens) in mode %q: %s (%s), want %s", len(f.Tools), size, tc.mode, s.Mode(), s.Reason(), tc.want)
			}
		})
	}
}
