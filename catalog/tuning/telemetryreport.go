package tuning

import (
	"cmp"
	"slices"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// SearchReport is what a telemetry log says about search quality. Each
// list is evidence for an operator to act on: an alias or catalog line to
// add, a tool description to fix, or a mode to change.
type SearchReport struct {
	Sessions int `json:"sessions"`
	Searches int `json:"searches"`
	Loads    int `json:"loads"` // loadTools calls, restores excluded
	Calls    int `json:"calls"` // allowed gate decisions
	// FalseNegatives are tools a session loaded after searching, when none
	// of its earlier searches returned them: the model knew (from the
	// catalog block or elsewhere) what search did not find.
	FalseNegatives []FalseNegative `json:"likely_false_negatives"`
	// EmptyQueries are queries that returned nothing.
	EmptyQueries []EmptyQuery `json:"empty_queries"`
	// NeverFound are tools that were loaded or called but that no search
	// in the log ever returned.
	NeverFound []ToolCount `json:"never_found"`
	// LoadedNotCalled are tools loaded in a session that never called
	// them there: deferral cost a round trip for nothing.
	LoadedNotCalled []ToolCount `json:"loaded_not_called"`
}

// FalseNegative is a tool loaded by name after searches that missed it.
type FalseNegative struct {
	Session string `json:"session"`
	Tool    string `json:"tool"` // kind.tool
	Name    string `json:"name"` // as passed to loadTools
	// Queries are the session's searches before the load, in order.
	Queries []string `json:"queries"`
}

// EmptyQuery is a query that found nothing, with how often it was asked.
type EmptyQuery struct {
	Query string `json:"query"`
	Count int    `json:"count"`
}

// ToolCount counts a tool's loads and allowed calls.
type ToolCount struct {
	Tool  string `json:"tool"` // kind.tool
	Loads int    `json:"loads"`
	Calls int    `json:"calls"`
}

// AnalyzeLog builds a SearchReport from events in log order (see ReadLog).
// Lists are never nil, so their JSON is [] rather than null.
func AnalyzeLog(events []LogEvent) SearchReport {
	rep := SearchReport{FalseNegatives: []FalseNegative{}, EmptyQueries: []EmptyQuery{},
		NeverFound: []ToolCount{}, LoadedNotCalled: []ToolCount{}}
	type sessState struct {
		queries []string
		found   map[string]bool
		loaded  []string // kind.tool, first-load order
		called  map[string]bool
	}
	sessions := map[string]*sessState{}
	var order []string
	sess := func(id string) *sessState {
		st := sessions[id]
		if st == nil {
			st = &sessState{found: map[string]bool{}, called: map[string]bool{}}
			sessions[id] = st
			order = append(order, id)
		}
		return st
	}
	foundAnywhere := map[string]bool{}
	counts := map[string]*ToolCount{}
	count := func(tool string) *ToolCount {
		tc := counts[tool]
		if tc == nil {
			tc = &ToolCount{Tool: tool}
			counts[tool] = tc
		}
		return tc
	}
	empty := map[string]int{}
	for _, ev := range events {
		switch {
		case ev.Search != nil:
			e := ev.Search
			st := sess(e.Session)
			rep.Searches++
			st.queries = append(st.queries, e.Query)
			for _, r := range e.Results {
				st.found[r] = true
				foundAnywhere[r] = true
			}
			if len(e.Results) == 0 {
				empty[e.Query]++
			}
		case ev.Load != nil:
			e := ev.Load
			st := sess(e.Session)
			if e.Restored {
				continue
			}
			rep.Loads++
			for _, n := range e.Names {
				if n.Status != catalog.LoadStatusLoaded || n.Tool == "" {
					continue
				}
				count(n.Tool).Loads++
				if !slices.Contains(st.loaded, n.Tool) {
					st.loaded = append(st.loaded, n.Tool)
				}
				if len(st.queries) > 0 && !st.found[n.Tool] {
					rep.FalseNegatives = append(rep.FalseNegatives, FalseNegative{Session: e.Session, Tool: n.Tool,
						Name: n.Name, Queries: slices.Clone(st.queries)})
				}
			}
		case ev.Call != nil:
			e := ev.Call
			st := sess(e.Session)
			if !e.Allowed {
				continue
			}
			rep.Calls++
			count(e.Tool).Calls++
			st.called[e.Tool] = true
		}
	}
	rep.Sessions = len(order)
	for q, n := range empty {
		rep.EmptyQueries = append(rep.EmptyQueries, EmptyQuery{Query: q, Count: n})
	}
	slices.SortFunc(rep.EmptyQueries, func(a, b EmptyQuery) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Query, b.Query))
	})
	// Calls to tools that were active from the start are not evidence
	// about search unless the tool was also loaded somewhere: only
	// deferred tools needed finding.
	for _, tc := range counts {
		if tc.Loads > 0 && !foundAnywhere[tc.Tool] {
			rep.NeverFound = append(rep.NeverFound, *tc)
		}
	}
	unused := map[string]int{}
	for _, id := range order {
		st := sessions[id]
		for _, t := range st.loaded {
			if !st.called[t] {
				unused[t]++
			}
		}
	}
	for t, n := range unused {
		rep.LoadedNotCalled = append(rep.LoadedNotCalled, ToolCount{Tool: t, Loads: n, Calls: 0})
	}
	byUse := func(a, b ToolCount) int {
		return cmp.Or(b.Loads+b.Calls-a.Loads-a.Calls, cmp.Compare(a.Tool, b.Tool))
	}
	slices.SortFunc(rep.NeverFound, byUse)
	slices.SortFunc(rep.LoadedNotCalled, byUse)
	return rep
}
