package fleet

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The wiki kind mirrors the Confluence half of the public Atlassian MCP
// server (sooperset/mcp-atlassian). Its key page is the payments-api runbook:
// the pool must stay >= 40 under prod load, and how to roll back.

// wikiKind is the simulated Confluence server.
func wikiKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(atlassianDefaults(wikiTools()), wikiHandlers(), fallbackHandler) },
		Default: fallbackHandler("wiki", true),
	}
}

const (
	wPageID   = "Id of the Confluence page: the number in its URL after /pages/, e.g. '123456789'. A full page URL is accepted as well."
	wSpaceKey = "Key of the Confluence space, the short code in its URL after /spaces/, such as 'DEV', 'OPS' or a personal space '~jsmith'."
	wMarkdown = "Return the body converted to Markdown (true, the default) or as raw storage-format XHTML (false). Raw XHTML keeps macros intact for editing but is much longer."
	wFormat   = "Format of the content you pass: 'markdown' (default), 'wiki' for Confluence wiki markup, or 'storage' for storage-format XHTML."
	wContent  = "Id of the page or blog post the attachments belong to."
	wMinor    = "Mark the change as minor so that watchers are not notified."
	wAnchors  = "Add anchor ids to headings so that sections can be linked directly."
	wTable    = "Table layout to apply to tables in the content: 'default' or 'full-width'."
	wWidth    = "Width of the page body: 'fixed' (centered column) or 'full-width'."
	wEmoji    = "Emoji shown as the page icon, e.g. a single character like a rocket."
	wCFile    = "Path of a local file whose text becomes the page body, instead of passing content inline."
	wIncl     = "Include the page body in the answer; leave false to get only the page id, title and URL, which saves context."
)

func wikiTools() []toolSpec {
	return []toolSpec{
		{Name: "confluence_search", Title: "Search content", ReadOnly: true,
			Desc: "Search Confluence pages and blog posts. Plain words run a site-wide text search; a CQL expression gives full control. Each hit returns id, title, space, URL and an excerpt. Results are ranked by relevance. Search first, then read the best hit with confluence_get_page; an excerpt is rarely enough to act on.",
			Params: []param{
				pReq("query", "Words to search for, or a CQL query. Plain text like 'deployment rollback' searches everywhere. CQL examples: 'type=page AND space=OPS', 'title ~ \"onboarding\"', 'text ~ \"timeout\" AND lastmodified > now(\"-30d\")', 'label = runbook'. Quote multi-word values inside CQL."),
				pInt("limit", "Largest number of hits to return, between 1 and 50.", 10),
				pStr("spaces_filter", "Comma-separated space keys that hits must belong to. Empty searches every space the user can see, unless the server is configured with a default filter."),
			}},
		{Name: "confluence_get_page", Title: "Get page", ReadOnly: true,
			Desc: "Read one Confluence page, found either by its id or by its exact title within a space. Returns the body as Markdown by default, with metadata such as version, author, last update and labels. An unknown id or title fails with a not-found message. Prefer the id when you have it: titles are only unique within one space.",
			Params: []param{
				pStr("page_id", wPageID+" When given, title and space_key are ignored."),
				pStr("title", "Exact title of the page, used together with space_key when the id is not known."),
				pStr("space_key", wSpaceKey+" Needed when looking a page up by title."),
				{Name: "include_metadata", Type: "boolean", Default: true, Desc: "Include creation and update dates, version number, author and labels."},
				{Name: "convert_to_markdown", Type: "boolean", Default: true, Desc: wMarkdown},
			}},
		{Name: "confluence_get_page_children", Title: "Get page children", ReadOnly: true,
			Desc: "List the pages (and optionally folders) directly under a parent page, with or without their bodies. Children come in the order they appear in the page tree. Use start and limit to page through large sections.",
			Params: []param{
				pReq("parent_id", "Id of the parent page or folder."),
				pStr("expand", "Comma-separated expansions passed to the REST API, e.g. 'version,ancestors'."),
				pInt("limit", "Largest number of children to return, between 1 and 50.", 25),
				pBool("include_content", "Include each child's body, which can make the answer long."),
				{Name: "convert_to_markdown", Type: "boolean", Default: true, Desc: wMarkdown},
				pInt("start", "Zero-based index of the first child to return, for paging.", 0),
				pBool("include_folders", "Also list folder entries among the children."),
			}},
		{Name: "confluence_get_space_page_tree", Title: "Get space page tree", ReadOnly: true,
			Desc: "Return the page hierarchy of a whole space as an indented tree of titles and ids, without bodies. Cheap way to see how a space is organised before reading pages one by one; large spaces are cut off at the limit. Each entry shows the page id, so a page can be read next without searching.",
			Params: []param{
				pReq("space_key", wSpaceKey),
				pInt("limit", "Largest number of pages to include in the tree.", 200),
			}},
		{Name: "confluence_get_comments", Title: "Get comments", ReadOnly: true,
			Desc:   "Return the footer comments of a page with their authors and dates, threaded. Each comment has an id usable with confluence_reply_to_comment. Inline comments are separate; see confluence_get_inline_comments.",
			Params: []param{pReq("page_id", wPageID)}},
		{Name: "confluence_get_labels", Title: "Get labels", ReadOnly: true,
			Desc:   "List the labels of a page, blog post or attachment, with their prefixes (global, my, team). Labels help find related pages through CQL, e.g. 'label = runbook AND space = OPS'.",
			Params: []param{pReq("page_id", "Id of the page, blog post or attachment.")}},
		{Name: "confluence_add_label", Title: "Add label",
			Desc: "Put a label on a page, blog post or attachment. Labels are lower case and contain no spaces; they make content findable with 'label = x' in CQL. Returns the labels after the change. Adding a label that is already present changes nothing.",
			Params: []param{
				pReq("page_id", "Id of the page, blog post or attachment to label."),
				pReq("name", "The label, e.g. 'runbook' or 'postmortem'."),
			}},
		{Name: "confluence_create_page", Title: "Create page",
			Desc: "Create a page in a space, optionally under a parent page. Returns the id and URL of the new page. Markdown is converted to storage format; headings, tables, code blocks and links survive the conversion. Fails if the title is already taken in the space.",
			Params: []param{
				pReq("space_key", wSpaceKey),
				pReq("title", "Title of the new page; it must be unique within the space."),
				pStr("content", "Body of the page, in the format given by content_format."),
				pStr("parent_id", "Id of the page to nest the new page under. Empty puts it at the top of the space."),
				pEnum("content_format", wFormat, "markdown", "wiki", "storage"),
				pBool("enable_heading_anchors", wAnchors),
				pBool("include_content", wIncl),
				pStr("emoji", wEmoji),
				pStr("content_file", wCFile),
				pEnum("page_width", wWidth, "fixed", "full-width"),
				pEnum("table_layout", wTable, "default", "full-width"),
				pEnum("subtype", "Create a live page (collaborative editing) instead of a classic page.", "live"),
			}},
		{Name: "confluence_update_page", Title: "Update page", Destructive: true,
			Desc: "Replace the title and body of an existing page, creating a new version. Read the page first: the whole body is replaced. Fails when someone else saved a newer version in between; read the page again and retry. Returns the page with its new version number.",
			Params: []param{
				pReq("page_id", wPageID),
				pReq("title", "Title of the page after the update; repeat the current one to keep it."),
				pStr("content", "New body of the page, in the format given by content_format."),
				pBool("is_minor_edit", wMinor),
				pStr("version_comment", "Short note describing the change, shown in the page history."),
				pStr("parent_id", "Id of a new parent page, to move the page while updating it."),
				pEnum("content_format", wFormat, "markdown", "wiki", "storage"),
				pBool("enable_heading_anchors", wAnchors),
				pBool("include_content", wIncl),
				pStr("emoji", wEmoji),
				pStr("content_file", wCFile),
				pEnum("page_width", wWidth, "fixed", "full-width"),
				pEnum("table_layout", wTable, "default", "full-width"),
			}},
		{Name: "confluence_update_page_section", Title: "Update page section", Destructive: true,
			Desc: "Replace the content under one heading of a page, leaving the rest untouched. The section runs from the heading to the next heading of the same or a higher level; the heading itself is kept. Safer than rewriting a long page to change one part.",
			Params: []param{
				pReq("page_id", wPageID),
				pReq("heading_text", "Exact text of the heading whose section to replace."),
				pReq("new_content", "New content of the section, without the heading."),
				pEnum("content_format", wFormat, "markdown", "wiki", "storage"),
				pBool("is_minor_edit", wMinor),
				pStr("version_comment", "Short note describing the change."),
			}},
		{Name: "confluence_delete_page", Title: "Delete page", Destructive: true,
			Desc:   "Move a page to the space trash. Child pages are moved up to the deleted page's parent. Space administrators can restore it from the trash; there is no undo through this server.",
			Params: []param{pReq("page_id", wPageID)}},
		{Name: "confluence_move_page", Title: "Move page", Destructive: true,
			Desc: "Move a page under another parent or into another space. Give either a new parent, a new space, or both. Child pages move along with the page.",
			Params: []param{
				pReq("page_id", wPageID),
				pStr("target_parent_id", "Id of the new parent page."),
				pStr("target_space_key", "Key of the space to move the page into."),
				pEnum("position", "Where to put the page relative to the target: as its child (append), or as a sibling before or after it.", "append", "before", "after"),
			}},
		{Name: "confluence_add_comment", Title: "Add comment",
			Desc: "Add a footer comment to a page. Returns the comment id. Mentions and links in Markdown are kept.",
			Params: []param{
				pReq("page_id", wPageID),
				pReq("body", "Text of the comment in Markdown."),
			}},
		{Name: "confluence_reply_to_comment", Title: "Reply to comment",
			Desc: "Answer an existing footer comment, continuing its thread. Returns the id of the reply.",
			Params: []param{
				pReq("comment_id", "Id of the comment being answered."),
				pReq("body", "Text of the reply in Markdown."),
			}},
		{Name: "confluence_get_inline_comments", Title: "Get inline comments", ReadOnly: true,
			Desc:   "Return the comments anchored to highlighted text of a page, with the text they refer to and whether they are resolved. Useful to see review remarks left on specific sentences.",
			Params: []param{pReq("page_id", wPageID)}},
		{Name: "confluence_add_inline_comment", Title: "Add inline comment", Destructive: true,
			Desc: "Attach a comment to a piece of text on a page. The text must occur on the page; when it occurs several times, say which occurrence.",
			Params: []param{
				pReq("page_id", wPageID),
				pReq("body", "Text of the comment."),
				pReq("text_selection", "Exact text of the page to anchor the comment to."),
				pInt("text_selection_match_count", "How many times the selected text occurs on the page.", 1),
				pInt("text_selection_match_index", "Zero-based occurrence of the selected text to anchor to.", 0),
			}},
		{Name: "confluence_search_user", Title: "Search users", ReadOnly: true,
			Desc: "Find Confluence users by name or email; returns account ids usable in restrictions and mentions. Cloud returns account ids; Server and Data Center return usernames and user keys.",
			Params: []param{
				pReq("query", "Name, username or email fragment, or a CQL user query such as 'user.fullname ~ \"Ada\"'."),
				pInt("limit", "Largest number of users to return.", 10),
				pStr("group_name", "Only users in this group (Server/Data Center)."),
			}},
		{Name: "confluence_get_page_history", Title: "Get page version", ReadOnly: true,
			Desc: "Return one earlier version of a page: its body, author, date and version message. Use it to see what a page said before a change, e.g. at the time of an incident.",
			Params: []param{
				pReq("page_id", wPageID),
				{Name: "version", Type: "integer", Required: true, Desc: "Version number to read, starting at 1."},
				{Name: "convert_to_markdown", Type: "boolean", Default: true, Desc: wMarkdown},
			}},
		{Name: "confluence_get_page_diff", Title: "Get page diff", ReadOnly: true,
			Desc: "Show what changed between two versions of a page as a unified diff of their Markdown. Lines removed start with '-', lines added with '+'.",
			Params: []param{
				pReq("page_id", wPageID),
				{Name: "from_version", Type: "integer", Required: true, Desc: "The older version number."},
				{Name: "to_version", Type: "integer", Required: true, Desc: "The newer version number."},
			}},
		{Name: "confluence_get_page_views", Title: "Get page views", ReadOnly: true,
			Desc: "Return how often a page was viewed and by how many distinct people (Confluence Cloud analytics only). Not available on Server or Data Center.",
			Params: []param{
				pReq("page_id", wPageID),
				pBool("include_title", "Also return the page title, at the cost of one more request."),
			}},
		{Name: "confluence_upload_attachment", Title: "Upload attachment", Destructive: true,
			Desc: "Attach one file to a page or blog post, either from a local path or from base64 content. Uploading a file with a name that is already attached creates a new version of it rather than a duplicate. Returns the attachment id, size and download link.",
			Params: []param{
				pReq("content_id", wContent),
				pStr("file_path", "Local path of the file to upload. Either this or content_base64 is needed."),
				pStr("content_base64", "File contents encoded in base64, for callers without a shared file system."),
				pStr("filename", "Name to give the attachment; required with content_base64, defaults to the file name otherwise."),
				pStr("comment", "Note stored with this version of the attachment."),
				pBool("minor_edit", wMinor),
			}},
		{Name: "confluence_upload_attachments", Title: "Upload attachments", Destructive: true,
			Desc: "Attach several local files to a page or blog post at once. Each file is uploaded separately; failures are reported per file.",
			Params: []param{
				pReq("content_id", wContent),
				pReq("file_paths", "Comma-separated local paths of the files to upload."),
				pStr("comment", "Note stored with every uploaded file."),
				pBool("minor_edit", wMinor),
			}},
		{Name: "confluence_get_attachments", Title: "Get attachments", ReadOnly: true,
			Desc: "List the attachments of a page or blog post with id, file name, media type, size, version and download link. Filter by file name or media type to find one file among many; page through long lists with start and limit. Use confluence_download_attachment to fetch the contents.",
			Params: []param{
				pReq("content_id", wContent),
				pInt("start", "Zero-based index of the first attachment to list.", 0),
				pInt("limit", "Largest number of attachments to list, between 1 and 100.", 50),
				pStr("filename", "Only attachments with exactly this file name."),
				pStr("media_type", "Only attachments of this MIME type, e.g. 'application/pdf' or 'image/png'."),
			}},
		{Name: "confluence_download_attachment", Title: "Download attachment", ReadOnly: true,
			Desc:   "Fetch one attachment and return it as an embedded resource: base64 contents with file name and MIME type. Very large files are refused with their size.",
			Params: []param{pReq("attachment_id", "Id of the attachment, e.g. 'att123456789', from confluence_get_attachments.")}},
		{Name: "confluence_download_content_attachments", Title: "Download all attachments", ReadOnly: true,
			Desc:   "Fetch every attachment of a page or blog post as embedded resources, skipping files above the size limit and naming them instead.",
			Params: []param{pReq("content_id", wContent)}},
		{Name: "confluence_delete_attachment", Title: "Delete attachment", Destructive: true,
			Desc:   "Remove an attachment, with all of its versions, from its page. Pages that embed or link the file show a broken reference afterwards. This cannot be undone from the API.",
			Params: []param{pReq("attachment_id", "Id of the attachment to delete.")}},
		{Name: "confluence_get_page_images", Title: "Get page images", ReadOnly: true,
			Desc:   "Return the image attachments of a page (PNG, JPEG, GIF, SVG, ...) as inline images for a vision model, such as diagrams and screenshots. Other files are ignored.",
			Params: []param{pReq("content_id", "Id of the page whose images to return.")}},
		{Name: "confluence_list_page_templates", Title: "List page templates", ReadOnly: true,
			Desc: "List the page templates available in a space, or the global ones when no space is given, with their ids and descriptions. Blueprints are not included.",
			Params: []param{
				pStr("space_key", wSpaceKey+" Empty lists the global templates."),
				pInt("limit", "Largest number of templates to return.", 25),
			}},
		{Name: "confluence_get_page_template", Title: "Get page template", ReadOnly: true,
			Desc:   "Return one template with its body, to see what a page created from it will contain. Template variables show up as placeholders.",
			Params: []param{pReq("template_id", "Id of the template, from confluence_list_page_templates.")}},
		{Name: "confluence_create_page_from_template", Title: "Create page from template",
			Desc: "Create a page whose body starts as a copy of a template, with template variables left for editing. Returns the new page id and URL.",
			Params: []param{
				pReq("space_key", wSpaceKey),
				pReq("title", "Title of the new page."),
				pReq("template_id", "Id of the template to start from."),
				pStr("parent_id", "Id of the page to nest the new page under."),
			}},
		{Name: "confluence_get_page_restrictions", Title: "Get page restrictions", ReadOnly: true,
			Desc:   "Show who may view and who may edit a page: the users and groups in its read and update restrictions. Empty lists mean the page inherits the space permissions.",
			Params: []param{pReq("page_id", wPageID)}},
		{Name: "confluence_set_page_restrictions", Title: "Set page restrictions", Destructive: true,
			Desc: "Replace the view and edit restrictions of a page. Lists that are passed replace the current ones; omitted lists are left as they are.",
			Params: []param{
				pReq("page_id", wPageID),
				pArr("read_users", "string", "Account ids or usernames allowed to view the page."),
				pArr("read_groups", "string", "Group names allowed to view the page."),
				pArr("edit_users", "string", "Account ids or usernames allowed to edit the page."),
				pArr("edit_groups", "string", "Group names allowed to edit the page."),
			}},
		{Name: "confluence_copy_page", Title: "Copy page", Destructive: true,
			Desc: "Copy a page, with its body, labels and optionally its attachments, to a new title in the same or another space. Child pages are not copied.",
			Params: []param{
				pReq("source_page_id", "Id of the page to copy."),
				pReq("destination_space_key", "Space to create the copy in."),
				pReq("new_title", "Title of the copy; must be unique in the destination space."),
				pStr("destination_parent_id", "Id of the page to nest the copy under."),
				{Name: "copy_attachments", Type: "boolean", Default: true, Desc: "Copy the attachments as well."},
			}},
		{Name: "confluence_check_content_permissions", Title: "Check content permissions", ReadOnly: true,
			Desc: "Check whether a user or group may perform an operation (read, update, delete) on a page or blog post, taking space permissions and page restrictions together. Answers yes or no with the reason when it is no.",
			Params: []param{
				pReq("content_id", "Id of the page or blog post."),
				pReq("user_identifier", "Account id, username or email of the user, or the group name."),
				pEnum("operation", "The operation to check.", "read", "update", "delete"),
				pEnum("subject_type", "Whether user_identifier names a user or a group.", "user", "group"),
			}},
		{Name: "confluence_get_space_permissions", Title: "Get space permissions", ReadOnly: true,
			Desc: "List the permissions granted in a space: which users and groups may view, create, delete, comment or administer. Paged with a cursor on Cloud. Needs the space id, not the key.",
			Params: []param{
				pReq("space_id", "Numeric id of the space (not its key)."),
				pInt("limit", "Largest number of grants to return.", 50),
				pStr("cursor", "Cursor from a previous answer, to fetch the next page."),
			}},
	}
}

// wikiPage is one page of the simulated Confluence.
type wikiPage struct {
	ID, Space, Title, Author, Updated string
	Version                           int
	Labels                            []string
	Body                              string
	Comments                          []jiraComment
}

const runbookID = "884201"

func wikiPages() []wikiPage {
	return []wikiPage{
		{ID: runbookID, Space: "PAY", Title: runbookTitle, Author: reviewer, Updated: "2026-10-02T09:14:00Z", Version: 12,
			Labels: []string{"runbook", "payments", "oncall"},
			Body: fmt.Sprintf(`# payments-api runbook

Owner: team Payments (#team-payments). Escalation: PagerDuty service "%[1]s".

## What it is
payments-api (repository %[2]s) takes card charges (POST /v1/charges) and talks to the payments-db PostgreSQL cluster through a HikariCP connection pool. It runs as deployment %[3]s in namespace %[4]s on every production cluster (k8s-1 to k8s-5), 3 replicas each, deployed by ArgoCD (one application per cluster, e.g. payments-api-k8s-3).

## DB connection pool (config/db.yaml)
- maxPoolSize must stay >= %[5]d under prod load. A pod runs up to ~35 concurrent DB calls at peak, and the pool also serves the health checks.
- Below that, requests queue for a connection; after 30s Hikari gives up with "Connection is not available, request timed out", callers see 5xx, the liveness probe (which touches the DB) times out and the pods end up in CrashLoopBackOff.
- Symptoms: HikariPool timeouts / PoolExhaustedException in the logs, p99 latency near the 30s timeout on db.acquire_connection spans, 5xx alerts.
- Any change to the pool size needs a load test and a review from team Payments.

## Rollback
1. Revert the offending merge request in %[2]s and let the pipeline redeploy, or
2. redeploy the previous revision from ArgoCD (history / rollback), or
3. fastest: %[6]s
   then revert the MR anyway, otherwise the next ArgoCD sync brings the bad config back.
After a rollback, watch the 5xx rate and p99 on the Grafana dashboard "%[7]s" (uid %[8]s) for 10 minutes.

## Dashboards and alerts
- Grafana: %[7]s
- Alerts: PaymentsAPIHigh5xxRate (critical), PaymentsAPIPodCrashLooping
`, pdService, payProject, payApp, payNamespace, runbookMinPool, rollbackCmd, dashTitle, dashUID),
			Comments: []jiraComment{{"55102", reviewer, "2026-10-02T09:20:00Z", "Raised the minimum pool guidance from 30 to 40 after the pre-Black-Friday load test."}}},
		{ID: "884377", Space: "PAY", Title: "payments-api architecture", Author: "a.smith", Updated: "2026-08-19T15:02:00Z", Version: 7,
			Labels: []string{"architecture", "payments"},
			Body:   "# payments-api architecture\n\nStateless Java service behind the payments ingress. Postgres (payments-db) for ledger entries, Kafka for settlement events. See the payments-api runbook for operations."},
		{ID: "771020", Space: "SRE", Title: "Incident response process", Author: "r.kumar", Updated: "2026-06-03T10:40:00Z", Version: 21,
			Labels: []string{"process", "oncall"},
			Body:   "# Incident response process\n\n1. Acknowledge the page. 2. Open an INC ticket in Jira and a #inc-<service> Slack channel. 3. Update the status page within 15 minutes for customer impact. 4. Prefer rollback over fix-forward."},
		{ID: "902113", Space: "SRE", Title: "k8s-2 node pool upgrade notes", Author: "r.kumar", Updated: "2026-11-24T23:41:00Z", Version: 2,
			Labels: []string{"kubernetes"},
			Body:   "# k8s-2 node pool upgrade notes\n\nUpgraded the k8s-2 node pool to 1.31 on 2026-11-24 between 22:00 and 23:30 UTC. No incidents."},
	}
}

var wikiStop = map[string]bool{"the": true, "and": true, "for": true, "type": true, "page": true, "text": true, "title": true, "space": true, "with": true, "how": true, "what": true, "sitesearch": true, "order": true, "lastmodified": true, "desc": true, "label": true}

var wikiWordRE = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_.-]*`)

// wikiScore counts the query words that occur in the page.
func wikiScore(p wikiPage, query string) int {
	hay := strings.ToLower(p.Title + " " + p.Title + " " + strings.Join(p.Labels, " ") + " " + p.Body)
	n := 0
	for _, w := range wikiWordRE.FindAllString(strings.ToLower(query), -1) {
		if len(w) < 3 || wikiStop[w] {
			continue
		}
		if strings.Contains(hay, w) {
			n++
		}
	}
	return n
}

func wikiSearch(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "query")
	if strings.TrimSpace(q) == "" {
		return errResult("query is required"), nil
	}
	spaces := argStr(args, "spaces_filter")
	type hit struct {
		p     wikiPage
		score int
	}
	var hits []hit
	for _, p := range wikiPages() {
		if spaces != "" && !mentions(spaces, p.Space) {
			continue
		}
		if s := wikiScore(p, q); s > 0 {
			hits = append(hits, hit{p, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if len(hits) == 0 {
		return text("No Confluence content matches %q.", q), nil
	}
	var out []map[string]any
	for i, h := range hits {
		if i >= argInt(args, 10, "limit") {
			break
		}
		ex := h.p.Body
		if len(ex) > 160 {
			ex = ex[:160] + "..."
		}
		out = append(out, map[string]any{"id": h.p.ID, "title": h.p.Title, "space": h.p.Space, "type": "page",
			"url": "https://wiki.example/spaces/" + h.p.Space + "/pages/" + h.p.ID, "last_modified": h.p.Updated, "excerpt": ex})
	}
	return jsonResult(out), nil
}

var wikiIDRE = regexp.MustCompile(`\d{5,}`)

func wikiFind(args map[string]any) (wikiPage, bool) {
	id := argStr(args, "page_id", "content_id", "parent_id")
	if m := wikiIDRE.FindString(id); m != "" {
		id = m
	}
	title := strings.TrimSpace(argStr(args, "title"))
	for _, p := range wikiPages() {
		if (id != "" && p.ID == id) || (id == "" && title != "" && strings.EqualFold(p.Title, title)) {
			return p, true
		}
	}
	return wikiPage{}, false
}

func wikiGetPage(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if argStr(args, "page_id") == "" && argStr(args, "title") == "" {
		return errResult("give page_id, or title and space_key"), nil
	}
	p, ok := wikiFind(args)
	if !ok {
		return errResult("No Confluence page found for page_id=%q title=%q space_key=%q.", argStr(args, "page_id"), argStr(args, "title"), argStr(args, "space_key")), nil
	}
	m := map[string]any{"id": p.ID, "title": p.Title, "space": p.Space, "url": "https://wiki.example/spaces/" + p.Space + "/pages/" + p.ID, "content": p.Body}
	if v, ok := args["include_metadata"].(bool); !ok || v {
		m["version"] = p.Version
		m["last_updated"] = p.Updated
		m["last_updated_by"] = p.Author
		m["labels"] = p.Labels
	}
	return jsonResult(m), nil
}

func wikiComments(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, ok := wikiFind(args)
	if !ok {
		return errResult("No Confluence page with id %q.", argStr(args, "page_id")), nil
	}
	if len(p.Comments) == 0 {
		return text("Page %s (%s) has no comments.", p.ID, p.Title), nil
	}
	var out []map[string]any
	for _, c := range p.Comments {
		out = append(out, map[string]any{"id": c.ID, "author": c.Author, "created": c.Created, "body": c.Body})
	}
	return jsonResult(out), nil
}

func wikiLabels(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, ok := wikiFind(args)
	if !ok {
		return errResult("No Confluence content with id %q.", argStr(args, "page_id")), nil
	}
	return jsonResult(map[string]any{"page_id": p.ID, "labels": p.Labels}), nil
}

func wikiTree(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	sk := argStr(args, "space_key")
	var b strings.Builder
	for _, p := range wikiPages() {
		if strings.EqualFold(p.Space, sk) {
			fmt.Fprintf(&b, "- %s (id %s)\n", p.Title, p.ID)
		}
	}
	if b.Len() == 0 {
		return text("Space %q has no pages you can see.", sk), nil
	}
	return text("Space %s:\n%s", strings.ToUpper(sk), b.String()), nil
}

func wikiHandlers() map[string]handler {
	return map[string]handler{
		"confluence_search":              wikiSearch,
		"confluence_get_page":            wikiGetPage,
		"confluence_get_comments":        wikiComments,
		"confluence_get_labels":          wikiLabels,
		"confluence_get_space_page_tree": wikiTree,
	}
}
