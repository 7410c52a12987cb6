package fleet

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// gitlabKind simulates zereight/gitlab-mcp. Instances whose name starts with
// gitlab-a serve the platform group (where !482 lives); every other
// instance serves gitlab-b's unrelated projects. Read-only instances expose
// exactly the ReadOnly subset, as the real server does.
func gitlabKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			tools := gitlabTools()
			return bind(tools, map[string]handler{
				"list_merge_requests":              glListMRs,
				"get_merge_request":                glGetMR,
				"get_merge_request_diffs":          glMRDiffs,
				"list_merge_request_diffs":         glMRDiffs,
				"get_merge_request_file_diff":      glMRDiffs,
				"list_merge_request_changed_files": glMRChangedFiles,
				"list_merge_request_pipelines":     glMRPipelines,
				"list_commits":                     glListCommits,
				"get_commit":                       glGetCommit,
				"get_commit_diff":                  glCommitDiff,
				"get_file_contents":                glFileContents,
				"list_commit_statuses":             glCommitStatuses,
				"get_project":                      glGetProject,
				"list_projects":                    glListProjects,
				"search_repositories":              glListProjects,
				"get_project_events":               glProjectEvents,
				"mr_discussions":                   glMRNotes,
				"get_merge_request_notes":          glMRNotes,
				"get_merge_request_approval_state": glApprovals,
			}, glDefault)
		},
		Default: glDefault("unknown", true),
	}
}

type glProject struct {
	ID            int    `json:"id"`
	Path          string `json:"path_with_namespace"`
	Description   string `json:"description"`
	DefaultBranch string `json:"default_branch"`
	WebURL        string `json:"web_url"`
	LastActivity  string `json:"last_activity_at"`
}

type glMR struct {
	IID          int      `json:"iid"`
	ProjectID    int      `json:"project_id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	State        string   `json:"state"`
	Author       string   `json:"author"`
	Reviewers    []string `json:"reviewers"`
	SourceBranch string   `json:"source_branch"`
	TargetBranch string   `json:"target_branch"`
	Labels       []string `json:"labels"`
	CreatedAt    string   `json:"created_at"`
	MergedAt     string   `json:"merged_at,omitempty"`
	MergedBy     string   `json:"merged_by,omitempty"`
	MergeCommit  string   `json:"merge_commit_sha,omitempty"`
	WebURL       string   `json:"web_url"`
}

type glCommit struct {
	ShortID   string   `json:"short_id"`
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Author    string   `json:"author_name"`
	Committed string   `json:"committed_date"`
	Files     []string `json:"-"`
}

// gitlabSideA reports whether an instance serves gitlab-a's data.
func gitlabSideA(in Instance) bool { return strings.HasPrefix(in.Name, "gitlab-a") }

func glHost(in Instance) string {
	if gitlabSideA(in) {
		return "https://gitlab-a.example"
	}
	return "https://gitlab-b.example"
}

func glProjects(in Instance) []glProject {
	h := glHost(in)
	if gitlabSideA(in) {
		return []glProject{
			{payProjectID, payProject, "Card payments HTTP API (Java, Spring Boot)", "main", h + "/" + payProject, "2026-11-30T02:14:02Z"},
			{1188, "platform/checkout-web", "Checkout front end", "main", h + "/platform/checkout-web", "2026-11-28T14:19:40Z"},
			{1215, "platform/ledger", "Double-entry ledger service", "main", h + "/platform/ledger", "2026-11-21T10:10:12Z"},
			{1101, "platform/deploy-pipelines", "Shared CI templates that deploy services to the k8s clusters", "main", h + "/platform/deploy-pipelines", "2026-11-12T09:00:00Z"},
		}
	}
	return []glProject{
		{2301, "data/etl-jobs", "Nightly warehouse loads", "main", h + "/data/etl-jobs", "2026-11-30T01:05:00Z"},
		{2410, "mobile/ios-app", "Customer iOS app", "develop", h + "/mobile/ios-app", "2026-11-29T18:44:00Z"},
		{2455, "web/marketing-site", "Public marketing site", "main", h + "/web/marketing-site", "2026-11-27T12:00:00Z"},
	}
}

func glMRs(in Instance) []glMR {
	h := glHost(in)
	mr := func(pid int, path string, m glMR) glMR {
		m.ProjectID = pid
		m.WebURL = fmt.Sprintf("%s/%s/-/merge_requests/%d", h, path, m.IID)
		return m
	}
	if gitlabSideA(in) {
		return []glMR{
			mr(payProjectID, payProject, glMR{IID: 483, Title: "Bump jackson-databind to 2.18.2", Description: "Automated dependency update.", State: "opened", Author: "renovate-bot",
				SourceBranch: "renovate/jackson-2.x", TargetBranch: "main", Labels: []string{"dependencies"}, CreatedAt: "2026-11-30T00:12:00Z"}),
			mr(payProjectID, payProject, glMR{IID: badMR, Title: badMRTitle,
				Description: "The DB team asked services to hold fewer idle connections on the shared Postgres cluster.\n\nChanges `" + configFile + "`: `maxPoolSize: 50 -> 10` (and minIdle 10 -> 2).\n\nShould be plenty: we rarely see more than 8 active connections in staging.",
				State:       "merged", Author: badMRAuthor, Reviewers: []string{reviewer}, SourceBranch: badMRBranch, TargetBranch: "main", Labels: []string{"config", "database"},
				CreatedAt: tMRCreated, MergedAt: tMerge, MergedBy: badMRAuthor, MergeCommit: badCommitLong}),
			mr(payProjectID, payProject, glMR{IID: 481, Title: "Add idempotency key check to refunds", Description: "Rejects duplicate refund requests within 24h.", State: "merged", Author: reviewer,
				Reviewers: []string{badMRAuthor}, SourceBranch: "ml/refund-idempotency", TargetBranch: "main", Labels: []string{"feature"}, CreatedAt: "2026-11-25T10:00:00Z",
				MergedAt: tPrevDeploy, MergedBy: reviewer, MergeCommit: goodCommitLong}),
			mr(payProjectID, payProject, glMR{IID: 479, Title: "Retry charges on HTTP 409 from the card network", Description: "Superseded by !481.", State: "closed", Author: "k.ito",
				SourceBranch: "ki/retry-409", TargetBranch: "main", CreatedAt: "2026-11-20T15:30:00Z"}),
			mr(1188, "platform/checkout-web", glMR{IID: 1310, Title: "Update payment form copy", Description: "Wording tweaks from UX.", State: "merged", Author: "p.novak",
				SourceBranch: "pn/copy", TargetBranch: "main", CreatedAt: "2026-11-27T09:00:00Z", MergedAt: "2026-11-28T14:10:00Z", MergedBy: "p.novak", MergeCommit: "c41e09a7d2b35f6e18a9c0d4b7e2f5a1c3d8e6b9"}),
			mr(1215, "platform/ledger", glMR{IID: 77, Title: "Nightly reconciliation report", Description: "Adds a CSV export.", State: "opened", Author: "r.gupta",
				SourceBranch: "rg/recon", TargetBranch: "main", CreatedAt: "2026-11-29T11:00:00Z"}),
		}
	}
	return []glMR{
		mr(2301, "data/etl-jobs", glMR{IID: 214, Title: "Partition orders table load by day", Description: "Speeds up the nightly load.", State: "merged", Author: "d.costa",
			SourceBranch: "dc/partition", TargetBranch: "main", CreatedAt: "2026-11-28T08:00:00Z", MergedAt: "2026-11-29T16:00:00Z", MergedBy: "d.costa", MergeCommit: "aa17c3e5f0b2d4968e1c7a3b5d9f2e4c6a8b0d1e"}),
		mr(2410, "mobile/ios-app", glMR{IID: 902, Title: "Dark mode for receipts screen", Description: "UI only.", State: "opened", Author: "s.kim",
			SourceBranch: "sk/dark-receipts", TargetBranch: "develop", CreatedAt: "2026-11-29T18:40:00Z"}),
		mr(2455, "web/marketing-site", glMR{IID: 58, Title: "Black Friday banner removal", Description: "Campaign over.", State: "merged", Author: "l.moreau",
			SourceBranch: "lm/banner", TargetBranch: "main", CreatedAt: "2026-11-27T10:00:00Z", MergedAt: "2026-11-27T11:58:00Z", MergedBy: "l.moreau", MergeCommit: "3e9b1f0c7a5d2e8b4f6a1c3e5d7b9f0a2c4e6d8b"}),
	}
}

// glFindProject resolves an ID or path (URL-encoded or not).
func glFindProject(in Instance, ref string) (glProject, bool) {
	if dec, err := url.PathUnescape(ref); err == nil {
		ref = dec
	}
	ref = strings.Trim(strings.TrimSpace(ref), "/")
	for _, p := range glProjects(in) {
		if strconv.Itoa(p.ID) == ref || strings.EqualFold(p.Path, ref) || strings.HasSuffix(strings.ToLower(p.Path), "/"+strings.ToLower(ref)) {
			return p, true
		}
	}
	return glProject{}, false
}

// glProjectArg returns the project named by project_id; when the project is
// required and unknown it returns a 404-style tool error.
func glProjectArg(in Instance, args map[string]any, required bool) (glProject, bool, *mcp.CallToolResult) {
	ref := argStr(args, "project_id", "id")
	if ref == "" {
		if required {
			return glProject{}, false, errResult("project_id is required")
		}
		return glProject{}, false, nil
	}
	p, ok := glFindProject(in, ref)
	if !ok {
		return glProject{}, false, errResult("GitLab API error: 404 Project Not Found: %q does not exist on %s or you lack access", ref, glHost(in))
	}
	return p, true, nil
}

func glListMRs(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, scoped, bad := glProjectArg(in, args, false)
	if bad != nil {
		return bad, nil
	}
	state, author, search := argStr(args, "state"), argStr(args, "author_username"), argStr(args, "search")
	source, target := argStr(args, "source_branch"), argStr(args, "target_branch")
	after, before := argStr(args, "created_after", "updated_after"), argStr(args, "created_before", "updated_before")
	var out []glMR
	for _, m := range glMRs(in) {
		switch {
		case scoped && m.ProjectID != p.ID,
			state != "" && state != "all" && state != m.State,
			author != "" && !strings.EqualFold(author, m.Author),
			search != "" && !mentions(m.Title+" "+m.Description, search),
			source != "" && source != m.SourceBranch,
			target != "" && target != m.TargetBranch,
			after != "" && maxStr(m.CreatedAt, m.MergedAt) < after,
			before != "" && m.CreatedAt > before:
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		where := "any project on " + glHost(in)
		if scoped {
			where = p.Path
		}
		return text("No merge requests found in %s matching the given filters.", where), nil
	}
	return jsonResult(out), nil
}

func maxStr(a, b string) string {
	if a > b {
		return a
	}
	return b
}

// glMRArg resolves project_id + merge_request_iid (or source_branch).
func glMRArg(in Instance, args map[string]any) (glMR, *mcp.CallToolResult) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return glMR{}, bad
	}
	iid := argInt(args, 0, "merge_request_iid")
	branch := argStr(args, "source_branch", "branch_name")
	if iid == 0 && branch == "" {
		return glMR{}, errResult("merge_request_iid (or source_branch) is required")
	}
	for _, m := range glMRs(in) {
		if m.ProjectID == p.ID && (iid != 0 && m.IID == iid || iid == 0 && m.SourceBranch == branch) {
			return m, nil
		}
	}
	return glMR{}, errResult("GitLab API error: 404 Not Found: merge request !%d does not exist in %s", iid, p.Path)
}

func glGetMR(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	v := map[string]any{"merge_request": m}
	if m.IID == badMR && m.ProjectID == payProjectID {
		v["head_pipeline"] = map[string]any{"id": pipelineID, "status": "success", "ref": "main", "sha": badCommitLong, "source": "push",
			"stages": []string{"build", "test", "deploy"}, "deployed_to": "production/" + badCluster, "finished_at": tDeploy}
		v["changes_count"] = "1"
		v["approved_by"] = []string{reviewer}
	}
	return jsonResult(v), nil
}

// badDiff is the whole change of !482.
func badDiff() string {
	return fmt.Sprintf(`@@ -1,9 +1,9 @@
 datasource:
   url: jdbc:postgresql://payments-db.payments:5432/payments
   username: payments_api
   pool:
-    maxPoolSize: %d
-    minIdle: 10
+    maxPoolSize: %d
+    minIdle: 2
     connectionTimeout: 30000ms
     idleTimeout: 600000ms
     maxLifetime: 1800000ms
`, oldPoolSize, newPoolSize)
}

func glMRDiffs(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	if m.IID == badMR && m.ProjectID == payProjectID {
		return jsonResult([]map[string]any{{"old_path": configFile, "new_path": configFile, "new_file": false, "deleted_file": false, "diff": badDiff()}}), nil
	}
	return jsonResult([]map[string]any{{"old_path": "README.md", "new_path": "README.md", "diff": "@@ -3,3 +3,4 @@\n " + m.Title + "\n+See the merge request description.\n"}}), nil
}

func glMRChangedFiles(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	path := "README.md"
	if m.IID == badMR && m.ProjectID == payProjectID {
		path = configFile
	}
	return jsonResult([]map[string]any{{"old_path": path, "new_path": path, "status": "modified"}}), nil
}

func glMRPipelines(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	if m.IID == badMR && m.ProjectID == payProjectID {
		return jsonResult([]map[string]any{
			{"id": pipelineID, "status": "success", "ref": "main", "sha": badCommitLong, "source": "push", "created_at": tPipelineStart, "finished_at": tDeploy,
				"note": "post-merge pipeline on main: build, test, deploy to production/" + badCluster},
			{"id": 9905, "status": "success", "ref": "refs/merge-requests/482/head", "sha": "e2d7a95c04b1f3e6a8d2c5b7f9e1a3c5d7b9f1e3", "source": "merge_request_event", "created_at": "2026-11-29T16:43:10Z", "finished_at": "2026-11-29T16:51:02Z"},
		}), nil
	}
	return text("No pipelines found for !%d in project %d.", m.IID, m.ProjectID), nil
}

func glCommits(in Instance, pid int) []glCommit {
	if !gitlabSideA(in) || pid != payProjectID {
		return []glCommit{{"1c2d3e4", "1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d", "Routine maintenance", "ci-bot", "2026-11-26T08:00:00Z", []string{"README.md"}}}
	}
	return []glCommit{
		{badCommit, badCommitLong, "Merge branch '" + badMRBranch + "' into 'main': " + badMRTitle + " (!482)", badMRAuthor, tMerge, []string{configFile}},
		{"e2d7a95", "e2d7a95c04b1f3e6a8d2c5b7f9e1a3c5d7b9f1e3", "Lower DB connection pool size to 10", badMRAuthor, "2026-11-29T16:40:00Z", []string{configFile}},
		{goodCommit, goodCommitLong, "Merge branch 'ml/refund-idempotency' into 'main': Add idempotency key check to refunds (!481)", reviewer, tPrevDeploy, []string{"src/main/java/com/example/payments/refunds/RefundService.java"}},
		{"8a3f1c2", "8a3f1c2d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c", "Add idempotency key check to refunds", reviewer, "2026-11-26T17:20:00Z", []string{"src/main/java/com/example/payments/refunds/RefundService.java"}},
		{"5b9e0d7", "5b9e0d7a1c3e5f7b9d1f3a5c7e9b1d3f5a7c9e1b", "Log trace IDs in access log", "k.ito", "2026-11-19T12:05:00Z", []string{"src/main/resources/logback.xml"}},
	}
}

func glListCommits(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return bad, nil
	}
	since, until, path := argStr(args, "since"), argStr(args, "until"), argStr(args, "path")
	var out []glCommit
	for _, c := range glCommits(in, p.ID) {
		if since != "" && c.Committed < since || until != "" && c.Committed > until || path != "" && !strings.HasPrefix(strings.Join(c.Files, " "), path) {
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return text("No commits found in %s for the given ref, path and time window.", p.Path), nil
	}
	return jsonResult(out), nil
}

func glFindCommit(in Instance, args map[string]any) (glProject, glCommit, *mcp.CallToolResult) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return p, glCommit{}, bad
	}
	sha := argStr(args, "sha", "commit_sha", "ref")
	if sha == "" {
		return p, glCommit{}, errResult("sha is required")
	}
	for _, c := range glCommits(in, p.ID) {
		if strings.HasPrefix(c.ID, sha) || strings.HasPrefix(sha, c.ShortID) {
			return p, c, nil
		}
	}
	return p, glCommit{}, errResult("GitLab API error: 404 Commit Not Found: %s in %s", sha, p.Path)
}

func glGetCommit(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	_, c, bad := glFindCommit(in, args)
	if bad != nil {
		return bad, nil
	}
	return jsonResult(map[string]any{"id": c.ID, "short_id": c.ShortID, "title": c.Title, "author_name": c.Author, "committed_date": c.Committed, "files": c.Files}), nil
}

func glCommitDiff(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	_, c, bad := glFindCommit(in, args)
	if bad != nil {
		return bad, nil
	}
	if c.Files[0] == configFile {
		return jsonResult([]map[string]any{{"old_path": configFile, "new_path": configFile, "diff": badDiff()}}), nil
	}
	return jsonResult([]map[string]any{{"old_path": c.Files[0], "new_path": c.Files[0], "diff": "@@ -10,6 +10,9 @@\n+// " + c.Title + "\n"}}), nil
}

func dbYAML(pool, minIdle int) string {
	return fmt.Sprintf("datasource:\n  url: jdbc:postgresql://payments-db.payments:5432/payments\n  username: payments_api\n  pool:\n    maxPoolSize: %d\n    minIdle: %d\n    connectionTimeout: 30000ms\n    idleTimeout: 600000ms\n    maxLifetime: 1800000ms\n", pool, minIdle)
}

func glFileContents(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return bad, nil
	}
	path := strings.TrimPrefix(argStr(args, "file_path", "path"), "/")
	ref := argStr(args, "ref")
	if ref == "" {
		ref = p.DefaultBranch
	}
	files := map[string]string{
		"README.md": "# " + p.Path + "\n\n" + p.Description + "\n",
	}
	if p.ID == payProjectID {
		// Refs from before the merge still hold the old pool size.
		old := ref == "v1.36.0" || len(ref) >= 7 && (strings.HasPrefix(goodCommitLong, ref) || strings.HasPrefix("8a3f1c2d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c", ref))
		if old {
			files[configFile] = dbYAML(oldPoolSize, 10)
		} else {
			files[configFile] = dbYAML(newPoolSize, 2)
		}
		files[".gitlab-ci.yml"] = "include:\n  - project: platform/deploy-pipelines\n    file: /java-service.yml\nvariables:\n  DEPLOY_CLUSTER: k8s-3\n  K8S_NAMESPACE: payments\n"
	}
	if path == "" || path == "." {
		return jsonResult(map[string]any{"type": "tree", "entries": sortedFileNames(files)}), nil
	}
	if path == "config" {
		return jsonResult(map[string]any{"type": "tree", "entries": []string{configFile}}), nil
	}
	body, ok := files[path]
	if !ok {
		return errResult("GitLab API error: 404 File Not Found: %s at %s in %s", path, ref, p.Path), nil
	}
	return jsonResult(map[string]any{"file_path": path, "ref": ref, "size": len(body), "encoding": "text", "content": body}), nil
}

func sortedFileNames(m map[string]string) []string {
	var out []string
	for _, k := range []string{".gitlab-ci.yml", "README.md", configFile} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

func glCommitStatuses(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, c, bad := glFindCommit(in, args)
	if bad != nil {
		return bad, nil
	}
	if c.ShortID != badCommit {
		return text("No deploy statuses on %s in %s besides a successful build.", c.ShortID, p.Path), nil
	}
	return jsonResult([]map[string]any{
		{"name": "build", "stage": "build", "status": "success", "pipeline_id": pipelineID, "started_at": "2026-11-30T02:10:41Z", "finished_at": "2026-11-30T02:12:05Z"},
		{"name": "unit-test", "stage": "test", "status": "success", "pipeline_id": pipelineID, "started_at": "2026-11-30T02:12:07Z", "finished_at": "2026-11-30T02:13:30Z"},
		{"name": "deploy-" + badCluster, "stage": "deploy", "status": "success", "pipeline_id": pipelineID, "environment": "production/" + badCluster,
			"description": "helm upgrade payments-api image " + badImage + " (revision 37)", "started_at": "2026-11-30T02:13:35Z", "finished_at": tDeploy},
	}), nil
}

func glGetProject(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return bad, nil
	}
	return jsonResult(p), nil
}

func glListProjects(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "search", "query")
	var out []glProject
	for _, p := range glProjects(in) {
		if q == "" || mentions(p.Path+" "+p.Description, q) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return text("No projects matching %q on %s.", q, glHost(in)), nil
	}
	return jsonResult(out), nil
}

func glProjectEvents(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, _, bad := glProjectArg(in, args, true)
	if bad != nil {
		return bad, nil
	}
	if p.ID != payProjectID {
		return jsonResult([]map[string]any{{"action_name": "pushed to", "author": "ci-bot", "created_at": p.LastActivity, "ref": p.DefaultBranch}}), nil
	}
	return jsonResult([]map[string]any{
		{"action_name": "deployed", "author": "ci-bot", "created_at": tDeploy, "target": fmt.Sprintf("pipeline #%d to production/%s", pipelineID, badCluster)},
		{"action_name": "pushed to", "author": badMRAuthor, "created_at": tMerge, "ref": "main", "commit": badCommit},
		{"action_name": "accepted", "author": badMRAuthor, "created_at": tMerge, "target_type": "MergeRequest", "target_iid": badMR, "target_title": badMRTitle},
		{"action_name": "approved", "author": reviewer, "created_at": "2026-11-30T01:52:00Z", "target_type": "MergeRequest", "target_iid": badMR},
		{"action_name": "opened", "author": badMRAuthor, "created_at": tMRCreated, "target_type": "MergeRequest", "target_iid": badMR, "target_title": badMRTitle},
	}), nil
}

func glMRNotes(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	if m.IID != badMR || m.ProjectID != payProjectID {
		return text("No discussions on !%d.", m.IID), nil
	}
	return jsonResult([]map[string]any{
		{"author": reviewer, "created_at": "2026-11-30T01:50:00Z", "body": "Do we know peak concurrency in prod? Staging is much quieter than prod at month end."},
		{"author": badMRAuthor, "created_at": "2026-11-30T01:51:30Z", "body": "Dashboards show ~8 active in staging; DB team wants us under 20 per pod. 10 should be fine."},
		{"author": reviewer, "created_at": "2026-11-30T01:52:00Z", "body": "OK, approving. Keep an eye on it after deploy.", "system": false},
		{"author": badMRAuthor, "created_at": tMerge, "body": "merged", "system": true},
	}), nil
}

func glApprovals(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m, bad := glMRArg(in, args)
	if bad != nil {
		return bad, nil
	}
	by := m.Reviewers
	return jsonResult(map[string]any{"iid": m.IID, "approved": len(by) > 0, "approvals_required": 1, "approved_by": by}), nil
}

// glDefault answers the rest: reads find nothing beyond the data above,
// writes acknowledge without changing it.
func glDefault(tool string, _ bool) handler {
	return func(ctx context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		if _, _, bad := glProjectArg(in, args, false); bad != nil {
			return bad, nil
		}
		switch {
		case tool == "whoami":
			return jsonResult(map[string]any{"username": "sre-bot", "name": "SRE automation", "host": glHost(in)}), nil
		case tool == "health_check":
			return text("ok: %s reachable, API v4", glHost(in)), nil
		case tool == "list_namespaces":
			if gitlabSideA(in) {
				return jsonResult([]string{"platform", "sre-bot"}), nil
			}
			return jsonResult([]string{"data", "mobile", "web", "sre-bot"}), nil
		case tool == "list_issues" || tool == "my_issues":
			return text("No issues found on %s matching the given filters.", glHost(in)), nil
		case strings.HasPrefix(tool, "list_") || strings.HasPrefix(tool, "get_") || tool == "mr_discussions":
			return text("%s on %s: no results for %s.", tool, glHost(in), describeArgs(args)), nil
		case strings.HasPrefix(tool, "validate_"):
			return jsonResult(map[string]any{"valid": true, "errors": []string{}, "warnings": []string{}}), nil
		}
		return text("%s accepted on %s (%s). The simulated server records nothing.", tool, glHost(in), describeArgs(args)), nil
	}
}

// describeArgs renders arguments compactly for "not found" texts.
func describeArgs(args map[string]any) string {
	if len(args) == 0 {
		return "no arguments"
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+argStr(args, k))
	}
	return strings.Join(parts, ", ")
}
