package fleet

// The jira kind mirrors the Jira half of the public Atlassian MCP server
// (sooperset/mcp-atlassian): the same tool and argument names, descriptions in
// our own words. Its tickets tell the incident from the responders' side:
// INC-2041 is the open incident ticket. Handlers live in jira2.go.

// jiraKind is the simulated Jira server.
func jiraKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bindTools(atlassianDefaults(append(jiraReadTools(), jiraWriteTools()...)), jiraHandlers())
		},
		Default: fallbackHandler("jira", true),
	}
}

// Argument descriptions repeated across many Jira tools.
const (
	jIssueKey  = "Key of the Jira issue: the project key, a dash and a number, such as PROJ-123 or INC-7. The numeric id of the issue is accepted too."
	jProject   = "Key of the Jira project, the short upper-case prefix of its issue keys, such as PROJ or OPS. Use jira_get_all_projects or jira_search_projects to discover keys."
	jStartAt   = "Zero-based index of the first result to return. Add the previous limit to page through long result sets."
	jLimit     = "Largest number of results to return in one call, between 1 and 50. Keep it small to save context; page with start_at for more."
	jFields    = "Comma-separated list of fields to include in each issue, e.g. 'summary,status,assignee,priority,labels'. Custom fields go by id (customfield_10010). '*all' returns every field, which can be very long."
	jExpand    = "Comma-separated expansions the REST API should apply, e.g. 'renderedFields,transitions,changelog'."
	jSDID      = "Numeric identifier of the service desk (not the project key), as returned by jira_get_service_desk_for_project."
	jBoardID   = "Numeric identifier of the agile board, as returned by jira_get_agile_boards."
	jSprintID  = "Numeric identifier of the sprint, as returned by jira_get_sprints_from_board."
	jVisiblity = "Optional JSON restricting who may see the comment, e.g. {\"type\":\"group\",\"value\":\"jira-developers\"}."
	jUserIdent = "The person to look up: an email address, a display name, a Server/DC username or a Cloud account id."
	jDevApp    = "Restrict development information to one tool, e.g. 'GitHub', 'bitbucket' or 'GitLab'."
	jDevData   = "Restrict development information to one kind of data: 'repository', 'pullrequest' or 'branch'."
)

func jiraReadTools() []toolSpec {
	return []toolSpec{
		{Name: "jira_get_user_profile", Title: "Get user profile", ReadOnly: true,
			Desc:   "Look up one Jira user and return their profile: display name, email, account id, time zone and whether the account is active. Use it to check who someone is before assigning or mentioning them. Works on Cloud and on Server/Data Center; the identifier form that works depends on the deployment.",
			Params: []param{pReq("user_identifier", jUserIdent)}},
		{Name: "jira_search_assignable_users", Title: "Search assignable users", ReadOnly: true,
			Desc: "Find people who can be made assignee of issues in a project or of one particular issue. Give either a project key or an issue key to scope the search; the query matches names, usernames and email prefixes. Useful before jira_assign_issue or jira_create_issue when you only know part of a name.",
			Params: []param{
				pReq("query", "Text to match against display name, username or email of candidate assignees."),
				pStr("project_key", "Project whose assignable users to search. Either this or issue_key is needed."),
				pStr("issue_key", "Issue whose assignable users to search. Takes precedence over project_key."),
				pInt("limit", "Largest number of users to return (1 to 50).", 20),
			}},
		{Name: "jira_get_issue_watchers", Title: "Get issue watchers", ReadOnly: true,
			Desc:   "List the people watching an issue and the total watcher count. Each watcher comes with display name, account id and email when visible.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_get_issue", Title: "Get issue", ReadOnly: true,
			Desc: "Fetch one Jira issue with its fields, description and recent comments. Choose which fields come back with 'fields', ask the API for extra sections with 'expand', and optionally include the change history or issue properties. Good first call once you know an issue key. Comments come newest last. Attachments are listed by name and size but not downloaded; see jira_download_attachments. Unknown keys fail with a not-found message.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("fields", jFields+" Defaults to a compact set of the essential fields."),
				pStr("expand", jExpand),
				pInt("comment_limit", "How many of the most recent comments to include (0 for none).", 10),
				pStr("properties", "Comma-separated issue property keys to return alongside the fields."),
				pBool("update_history", "Whether fetching the issue should count as a view in the user's recent-issues history."),
				pStr("include", "Extra sections to attach, comma separated, e.g. 'worklog,attachments,links'."),
				pBool("use_display_names", "Return custom fields under their human-readable names rather than ids like customfield_10010."),
			}},
		{Name: "jira_search", Title: "Search issues (JQL)", ReadOnly: true,
			Desc: "Search Jira issues with a JQL query and return the matching issues with the requested fields. Examples: 'project = PROJ AND status != Done', 'text ~ \"timeout\" ORDER BY created DESC', 'assignee = currentUser()'. Results are paged: start_at and limit on Server/Data Center, page_token on Cloud. Only the requested fields come back, which keeps answers small.",
			Params: []param{
				pReq("jql", "JQL query string. Quote values that contain spaces; combine clauses with AND/OR and sort with ORDER BY. Some patterns:\n"+
					"- open work in a project: 'project = OPS AND statusCategory != Done'\n"+
					"- children of an epic: 'parent = OPS-42'\n"+
					"- my issues: 'assignee = currentUser() ORDER BY updated DESC'\n"+
					"- recent changes: 'updated >= -24h AND project = OPS'\n"+
					"- full text: 'text ~ \"connection refused\"'\n"+
					"- by label or priority: 'labels = backend AND priority in (High, Highest)'"),
				pStr("fields", jFields),
				pInt("limit", jLimit, 10),
				pInt("start_at", jStartAt, 0),
				pStr("projects_filter", "Comma-separated project keys to restrict the search to, applied in addition to the JQL."),
				pStr("expand", jExpand),
				pStr("page_token", "Opaque token from a previous answer to fetch the next page on Jira Cloud."),
				pBool("use_display_names", "Return custom fields under their human-readable names."),
			}},
		{Name: "jira_search_fields", Title: "Search fields", ReadOnly: true,
			Desc: "Find Jira fields, including custom ones, whose name matches a keyword; handy for discovering the id of a field such as 'Story Points' or 'Epic Link' before searching or updating. Each result carries the field id, its display name, its schema type and whether it is custom.",
			Params: []param{
				pStr("keyword", "Part of a field name to match, fuzzily. Empty lists the most common fields."),
				pInt("limit", "Largest number of fields to return.", 10),
				pBool("refresh", "Reload the field list from the server instead of using the cached copy."),
			}},
		{Name: "jira_get_field_options", Title: "Get field options", ReadOnly: true,
			Desc: "Return the allowed values of a select-style custom field (single select, multi select, cascading select). On Jira Cloud the options depend on a field context; pass a context id or a project and issue type so the right context is picked. Use the filters to keep the answer short. Cascading selects return parent options with their child options nested under them.",
			Params: []param{
				pReq("field_id", "Id of the custom field, e.g. customfield_10020."),
				pStr("context_id", "Field context to read options from (Cloud). Found automatically when omitted."),
				pStr("project_key", "Project used to pick the field context on Server/Data Center."),
				pStr("issue_type", "Issue type name used together with project_key to pick the context."),
				pStr("contains", "Keep only options whose value contains this text, ignoring case."),
				pInt("return_limit", "Largest number of options to return.", 0),
				pBool("values_only", "Return just the option values as a list instead of full option objects."),
			}},
		{Name: "jira_get_project_issues", Title: "Get project issues", ReadOnly: true,
			Desc: "List the issues of one project, newest first. Each issue comes with key, summary, status, assignee, priority and dates. For anything more selective, use jira_search with a JQL query.",
			Params: []param{
				pReq("project_key", jProject),
				pInt("limit", jLimit, 10),
				pInt("start_at", jStartAt, 0),
			}},
		{Name: "jira_get_transitions", Title: "Get transitions", ReadOnly: true,
			Desc:   "List the workflow transitions currently available for an issue, with their ids and target statuses, for use with jira_transition_issue. Transitions depend on the issue's current status and workflow, so look them up each time rather than reusing ids.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_get_worklog", Title: "Get worklog", ReadOnly: true,
			Desc:   "Return the time-tracking entries recorded on an issue: who logged time, when, and how much. Entries include the author, the start time, the time spent in seconds and in Jira notation, and the comment.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_download_attachments", Title: "Download attachments", ReadOnly: true,
			Desc:   "Fetch every file attached to an issue and return each one as an embedded resource (base64 contents with its MIME type). Files above the size limit are skipped and reported instead. Use jira_get_issue first to see what is attached. Large files cost a lot of context, so prefer this only when the content matters.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_get_issue_images", Title: "Get issue images", ReadOnly: true,
			Desc:   "Return the image attachments of an issue (PNG, JPEG, GIF, ...) as inline images a vision model can look at, such as screenshots pasted into a bug report. Other attachment types are ignored. Images above the size limit are skipped and named in the answer.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_get_agile_boards", Title: "Get agile boards", ReadOnly: true,
			Desc: "List Scrum and Kanban boards, optionally filtered by name, project or board type. Each board comes with its id, name, type and the project it belongs to.",
			Params: []param{
				pStr("board_name", "Part of the board name to match, fuzzily."),
				pStr("project_key", "Only boards that show this project."),
				pEnum("board_type", "Only boards of this type.", "scrum", "kanban"),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 10),
			}},
		{Name: "jira_get_board_issues", Title: "Get board issues", ReadOnly: true,
			Desc: "List the issues shown on an agile board, narrowed by an extra JQL filter. Issues are returned in board order with the requested fields. Use jira_get_agile_boards to find the board id first.",
			Params: []param{
				pReq("board_id", jBoardID),
				pReq("jql", "JQL applied on top of the board's own filter, e.g. 'status = \"In Progress\"'."),
				pStr("fields", jFields),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 10),
				pStr("expand", jExpand),
			}},
		{Name: "jira_get_sprints_from_board", Title: "Get sprints from board", ReadOnly: true,
			Desc: "List the sprints of a Scrum board, optionally only active, future or closed ones. Each sprint carries its id, name, state, goal and start and end dates.",
			Params: []param{
				pReq("board_id", jBoardID),
				pEnum("state", "Only sprints in this state.", "active", "future", "closed"),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 10),
			}},
		{Name: "jira_get_sprint_issues", Title: "Get sprint issues", ReadOnly: true,
			Desc: "List the issues planned in one sprint. Issues are returned with key, summary, status, assignee and story points when available.",
			Params: []param{
				pReq("sprint_id", jSprintID),
				pStr("fields", jFields),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 10),
			}},
		{Name: "jira_get_link_types", Title: "Get link types", ReadOnly: true,
			Desc:   "List the kinds of issue links the instance defines (Blocks, Relates, Duplicates, ...) with their inward and outward wording. Use the name with jira_create_issue_link.",
			Params: []param{pStr("name_filter", "Keep only link types whose name contains this text.")}},
		{Name: "jira_batch_get_changelogs", Title: "Get changelogs in batch", ReadOnly: true,
			Desc: "Return the change history of several issues at once (Jira Cloud only): which fields changed, from what, to what, by whom and when. Results are grouped per issue.",
			Params: []param{
				pReq("issue_ids_or_keys", "Comma-separated issue ids or keys, e.g. 'PROJ-1,PROJ-2'."),
				pStr("fields", "Comma-separated field ids; only changes to these fields are returned. Empty returns all."),
				pInt("limit", "Largest number of changelog entries per issue; -1 returns all of them.", -1),
			}},
		{Name: "jira_get_project_issue_types", Title: "Get project issue types", ReadOnly: true,
			Desc:   "List the issue types that can be created in a project (Task, Bug, Story, Epic, Incident, sub-task types...) with their ids, which jira_get_create_fields and jira_create_issue need. Sub-task types are marked as such.",
			Params: []param{pReq("project_key", jProject)}},
		{Name: "jira_get_create_fields", Title: "Get create fields", ReadOnly: true,
			Desc: "Describe the fields of the create screen for one project and issue type: which are required, their types and allowed values. Call it before jira_create_issue to avoid validation failures. Allowed values are listed for select fields, with ids usable in additional_fields.",
			Params: []param{
				pReq("project_key", jProject),
				pReq("issue_type_id", "Id of the issue type, from jira_get_project_issue_types."),
			}},
		{Name: "jira_get_project_versions", Title: "Get project versions", ReadOnly: true,
			Desc:   "List the fix versions (releases) defined in a project, released or not. Each version has its id, name, description, release date and released and archived flags.",
			Params: []param{pReq("project_key", jProject)}},
		{Name: "jira_get_project_components", Title: "Get project components", ReadOnly: true,
			Desc:   "List the components of a project with their leads and descriptions. Use the names in the components argument of jira_create_issue and jira_update_issue.",
			Params: []param{pReq("project_key", jProject)}},
		{Name: "jira_get_all_projects", Title: "Get all projects", ReadOnly: true,
			Desc:   "List every Jira project the current user can browse, with key, name and lead. Archived projects are left out unless asked for. Respects the project filter configured on the server.",
			Params: []param{pBool("include_archived", "Also list archived projects.")}},
		{Name: "jira_search_projects", Title: "Search projects", ReadOnly: true,
			Desc: "Find projects whose key or name matches a query, ranked by relevance. Ids of projects the caller is working in can be passed so that they rank first. Matching is case-insensitive and includes partial words.",
			Params: []param{
				pReq("query", "Text to match against project keys and names."),
				pInt("max_results", "Largest number of projects to return.", 10),
				pStr("current_project_ids", "Comma-separated ids of projects to rank higher."),
			}},
		{Name: "jira_get_project_fields", Title: "Get project fields", ReadOnly: true,
			Desc:   "List the fields that actually appear on the screens of a project, so a model can tell which custom fields matter there instead of scanning every field of the instance. Each field comes with id, name, type and whether it is required on create.",
			Params: []param{pReq("project_key", jProject)}},
		{Name: "jira_get_service_desk_for_project", Title: "Get service desk for project", ReadOnly: true,
			Desc:   "Find the Jira Service Management desk that backs a project and return its id. Returns nothing when the project is not a service project.",
			Params: []param{pReq("project_key", jProject)}},
		{Name: "jira_get_service_desk_queues", Title: "Get service desk queues", ReadOnly: true,
			Desc: "List the queues of a service desk with their ids and how many issues each holds. Queue ids feed jira_get_queue_issues.",
			Params: []param{
				pReq("service_desk_id", jSDID),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 50),
			}},
		{Name: "jira_get_queue_issues", Title: "Get queue issues", ReadOnly: true,
			Desc: "List the issues currently in one service desk queue. Issues come in queue order with key, summary, status, request type and reporter.",
			Params: []param{
				pReq("service_desk_id", jSDID),
				pReq("queue_id", "Id of the queue, from jira_get_service_desk_queues."),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 50),
			}},
		{Name: "jira_get_request_types", Title: "Get request types", ReadOnly: true,
			Desc: "List the request types customers can raise on a service desk. Each type has an id, a name, a description and the group it appears under in the portal.",
			Params: []param{
				pReq("service_desk_id", jSDID),
				pInt("start_at", jStartAt, 0),
				pInt("limit", jLimit, 50),
			}},
		{Name: "jira_get_request_type_fields", Title: "Get request type fields", ReadOnly: true,
			Desc: "Describe the fields a customer fills in for one request type, required ones first. Field ids and allowed values are what jira_create_customer_request expects.",
			Params: []param{
				pReq("service_desk_id", jSDID),
				pReq("request_type_id", "Id of the request type, from jira_get_request_types."),
			}},
		{Name: "jira_get_issue_proforma_forms", Title: "Get issue forms", ReadOnly: true,
			Desc:   "List the ProForma (Jira Forms) forms attached to an issue, with their ids, names and submission state. Forms must be enabled on the project. Returns an empty list otherwise.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_get_proforma_form_details", Title: "Get form details", ReadOnly: true,
			Desc: "Return one ProForma form of an issue in full: its questions, their types and the answers given so far. Choice questions list their choices with ids, which updates must use.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("form_id", "UUID of the form, from jira_get_issue_proforma_forms."),
			}},
		{Name: "jira_get_issue_dates", Title: "Get issue dates", ReadOnly: true,
			Desc: "Summarise the dates of an issue: created, updated, due and resolution dates, plus optionally how long it spent in each status and when each status change happened. Durations are given both in seconds and in human-readable form.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pBool("include_status_changes", "Include every status transition with its timestamp."),
				pBool("include_status_summary", "Include the total time spent in each status."),
			}},
		{Name: "jira_get_issue_sla", Title: "Get issue SLA", ReadOnly: true,
			Desc: "Compute service-level figures for an issue from its history: cycle time, lead time, time to first response, time in each status, due date compliance and resolution time. Optionally count only working hours, following the working-day settings of the server. Figures are computed locally from the changelog, so they work without a service desk SLA configuration.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("metrics", "Comma-separated metrics to compute: cycle_time, lead_time, time_in_status, due_date_compliance, resolution_time, first_response_time. Empty computes the configured defaults."),
				pBool("working_hours_only", "Count only configured working hours and days."),
				pBool("include_raw_dates", "Also return the raw timestamps the figures were computed from."),
			}},
		{Name: "jira_get_issue_development_info", Title: "Get development info", ReadOnly: true,
			Desc: "Show the development work linked to an issue through a connected code host: branches, commits and pull or merge requests, with their state and URLs. Needs the code host integration to be installed in Jira; returns an empty summary otherwise.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("application_type", jDevApp),
				pStr("data_type", jDevData),
			}},
		{Name: "jira_get_issues_development_info", Title: "Get development info in batch", ReadOnly: true,
			Desc: "Like jira_get_issue_development_info, for several issues in one call.",
			Params: []param{
				pReq("issue_keys", "Comma-separated issue keys, e.g. 'PROJ-1,PROJ-2'."),
				pStr("application_type", jDevApp),
				pStr("data_type", jDevData),
			}},
		{Name: "jira_get_project_epic_hierarchy", Title: "Get epic hierarchy", ReadOnly: true,
			Desc: "Return the epics of a project with the stories and tasks under each one and their progress, to see how the work is structured without paging through searches. Progress is the share of child issues in a done status.",
			Params: []param{
				pReq("project_key", jProject),
				pInt("max_epics", "Largest number of epics to expand.", 20),
			}},
		{Name: "jira_get_cross_project_dependencies", Title: "Get cross-project dependencies", ReadOnly: true,
			Desc: "Find links from issues of one project to issues of other projects (blocks, depends on, relates to), to spot work that waits on other teams. Each dependency names both issues, the link type and the status of the issue on the other side.",
			Params: []param{
				pReq("project_key", jProject),
				pInt("max_issues", "Largest number of issues of the project to inspect.", 100),
			}},
	}
}
