package fleet

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The slack kind mirrors korotovsky/slack-mcp-server: channels, history,
// threads, search, unreads and user groups, answering in CSV as that server
// does. Its data: #inc-payments, where a.smith reports the 5xx and j.doe
// mentions merging !482.

// slackKind is the simulated Slack server.
func slackKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(slackTools(), slackHandlers(), fallbackHandler) },
		Default: fallbackHandler("slack", true),
	}
}

const (
	sChannel = "The conversation to read: a channel id such as C0123456789, a channel name starting with # such as #general, or a direct message as @username."
	sCursor  = "Paging cursor: pass the next_cursor value found in the last row of the previous answer to continue where it stopped. Leave empty for the first page."
	sAct     = "Also return activity messages such as members joining or leaving the channel. Off by default because they are rarely useful."
	sLimit   = "How much history to fetch: a time span such as 1d, 1w or 30d (the free tier keeps 90d), or a number of messages such as 50. Must be empty when a cursor is given."
	sGroup   = "Id of the user group, e.g. S0123456789, as listed by usergroups_list."
)

func slackTools() []toolSpec {
	return []toolSpec{
		{Name: "channels_list", Title: "List channels", ReadOnly: true,
			Desc: "List the workspace's channels of the requested types with their id, name, topic, purpose and member count. Results are CSV with a cursor for the next page in the last row. Use the ids or #names with conversations_history. Archived channels are left out. The list is read from the server's cache, so a channel created a minute ago may be missing until the cache refreshes.",
			Params: []param{
				pReq("channel_types", "Comma-separated channel types to include: public_channel, private_channel, im, mpim. Example: 'public_channel,private_channel'."),
				pStr("cursor", sCursor),
				{Name: "limit", Type: "number", Default: 100, Desc: "Largest number of channels to return, between 1 and 999."},
				pStr("sort", "Ordering of the list. 'popularity' puts channels with the most members first."),
			}},
		{Name: "conversations_history", Title: "Get conversation history", ReadOnly: true,
			Desc: "Read the messages of a channel or direct message, newest first, as CSV rows with message id, user, text, thread timestamp and time. When more messages exist, the last row carries the cursor for the next page. Threads show only their parent message; read replies with conversations_replies.",
			Params: []param{
				pReq("channel_id", sChannel),
				pStr("cursor", sCursor),
				pBool("include_activity_messages", sAct),
				{Name: "limit", Type: "string", Default: "1d", Desc: sLimit},
			}},
		{Name: "conversations_replies", Title: "Get thread replies", ReadOnly: true,
			Desc: "Read one thread: the parent message and all its replies, oldest first, as CSV rows. Needs the channel and the timestamp of the thread's parent message, which conversations_history and search results show.",
			Params: []param{
				pReq("channel_id", sChannel),
				pReq("thread_ts", "Timestamp of the thread's parent message, such as 1234567890.123456. It is a string with a dot, not a number."),
				pStr("cursor", sCursor),
				pBool("include_activity_messages", sAct),
				{Name: "limit", Type: "string", Default: "1d", Desc: sLimit},
			}},
		{Name: "conversations_search_messages", Title: "Search messages", ReadOnly: true,
			Desc: "Search messages across the workspace with a query and optional filters for channel, direct messages, author, participants, threads and dates. A message URL as the query fetches that single message. Results are CSV rows with channel, user, text and time. Search needs a user token; it finds nothing with a bot token. Dates are in the workspace time zone.",
			Params: []param{
				pStr("search_query", "Words to search for, or the URL of one message to fetch it directly. Slack search modifiers such as in:#channel or from:@user also work."),
				pStr("filter_in_channel", "Only messages in this channel, given as id or #name."),
				pStr("filter_in_im_or_mpim", "Only messages in this direct or group message, given as id or @name."),
				pStr("filter_users_from", "Only messages written by this user, as id or @name."),
				pStr("filter_users_with", "Only messages in conversations with this user, as id or @name."),
				pStr("filter_date_before", "Only messages before this date: YYYY-MM-DD, Yesterday, Today, or a month name."),
				pStr("filter_date_after", "Only messages after this date, same formats."),
				pStr("filter_date_on", "Only messages on this day, same formats."),
				pStr("filter_date_during", "Only messages during this period, such as July or Yesterday."),
				pBool("filter_threads_only", "Only messages that are part of a thread."),
				pStr("cursor", sCursor),
				{Name: "limit", Type: "number", Default: 20, Desc: "Largest number of messages to return, between 1 and 100."},
			}},
		{Name: "conversations_unreads", Title: "Get unread messages", ReadOnly: true,
			Desc: "Collect what the user has not read yet, across channels, in one call: direct messages first, then group messages, private and public channels. For each conversation it gives the unread count and optionally the unread messages themselves. Muted channels are skipped unless asked for.",
			Params: []param{
				pEnum("channel_types", "Which conversations to look at.", "all", "dm", "group_dm", "partner", "internal"),
				{Name: "include_messages", Type: "boolean", Default: true, Desc: "Return the unread messages, not only the counts."},
				pBool("include_muted", "Also look at muted channels."),
				pBool("mentions_only", "Only conversations where the user was mentioned."),
				{Name: "max_channels", Type: "number", Default: 50, Desc: "Largest number of conversations to report."},
				{Name: "max_messages_per_channel", Type: "number", Default: 10, Desc: "Largest number of unread messages returned per conversation."},
			}},
		{Name: "conversations_mark", Title: "Mark as read",
			Desc: "Mark a channel or direct message as read, up to a given message or entirely when no timestamp is given. Needs a user token; bot tokens cannot mark conversations as read. Returns a confirmation.",
			Params: []param{
				pReq("channel_id", sChannel),
				pStr("ts", "Timestamp of the last message to mark as read. Empty marks everything read."),
			}},
		{Name: "users_search", Title: "Search users", ReadOnly: true,
			Desc: "Find workspace members by name, display name or email, and return their ids, names, titles and time zones as CSV. Bots and deactivated accounts are left out. The ids work as @ filters in conversations_search_messages.",
			Params: []param{
				pReq("query", "Part of a name, display name or email address."),
				{Name: "limit", Type: "number", Default: 10, Desc: "Largest number of users to return, between 1 and 100."},
			}},
		{Name: "usergroups_list", Title: "List user groups", ReadOnly: true,
			Desc: "List the workspace's user groups (the @handles that notify a whole team) with their id, handle, name, description and member count. Optionally include disabled groups and the member ids of each group, which can make the answer long.",
			Params: []param{
				{Name: "include_users", Type: "boolean", Desc: "Include the member user ids of each group."},
				{Name: "include_count", Type: "boolean", Default: true, Desc: "Include the number of members of each group."},
				{Name: "include_disabled", Type: "boolean", Desc: "Also list disabled groups."},
			}},
		{Name: "usergroups_me", Title: "Manage my user groups",
			Desc: "See which user groups the current user belongs to, or join or leave one. Joining and leaving change the group's membership for everyone, so the default is to list.",
			Params: []param{
				pEnum("action", "What to do: list the user's groups, join a group, or leave it.", "list", "join", "leave"),
				pStr("usergroup_id", sGroup+" Needed for join and leave."),
			}},
		{Name: "usergroups_create", Title: "Create user group",
			Desc: "Create a user group with a name, a mention handle, a description and default channels. Members are added afterwards with usergroups_users_update. Needs the admin scope for user groups.",
			Params: []param{
				pReq("name", "Name of the group, unique in the workspace, such as 'Payments on-call'."),
				pStr("handle", "Mention handle without @, such as payments-oncall. Derived from the name when empty."),
				pStr("description", "What the group is for."),
				pStr("channels", "Comma-separated channel ids the group's members are added to by default."),
			}},
		{Name: "usergroups_update", Title: "Update user group", Destructive: true,
			Desc: "Change a user group's name, handle, description or default channels. Only the given fields change. Returns the group after the change.",
			Params: []param{
				pReq("usergroup_id", sGroup),
				pStr("name", "New name."),
				pStr("handle", "New mention handle without @."),
				pStr("description", "New description."),
				pStr("channels", "Comma-separated channel ids replacing the default channels."),
			}},
		{Name: "usergroups_users_update", Title: "Set user group members", Destructive: true,
			Desc: "Replace the members of a user group with the given users. Everyone not in the list is removed from the group, so fetch the current members first when adding one person.",
			Params: []param{
				pReq("usergroup_id", sGroup),
				pReq("users", "Comma-separated user ids that make up the whole new membership, such as U0123,U0456."),
			}},
	}
}

func slackHandlers() map[string]handler {
	return map[string]handler{
		"channels_list":                 slackChannels,
		"conversations_history":         slackHistory,
		"conversations_replies":         slackReplies,
		"conversations_search_messages": slackSearch,
		"users_search":                  slackUsers,
	}
}

const slackIncChanID = "C08INCPAY41"

func slackChannelRows() [][]string {
	return [][]string{
		{slackIncChanID, slackChan, "Incident: payments-api 5xx on k8s-3 (" + ticketKey + ", PD " + pdIncident + ")", "Incident channel", "9"},
		{"C02PAYTEAM7", "#team-payments", "Payments team", "Team chat", "24"},
		{"C01DEPLOYS3", "#deploys", "Deploy notifications", "Bots post deploys here", "131"},
		{"C01GENERAL1", "#general", "Company-wide", "Announcements", "412"},
	}
}

// slackResolve maps a channel id or #name to the channel id, or "".
func slackResolve(ch string) string {
	ch = strings.TrimSpace(ch)
	for _, r := range slackChannelRows() {
		if strings.EqualFold(ch, r[0]) || strings.EqualFold(ch, r[1]) || strings.EqualFold("#"+ch, r[1]) {
			return r[0]
		}
	}
	return ""
}

func slackUserID(u string) string {
	return map[string]string{onCall: "U03ASMITH1", badMRAuthor: "U04JDOE002", "pagerduty": "B01PAGERDTY", "statusbot": "B02STATUSBT", reviewer: "U05MLEE003"}[u]
}

func slackCSV(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\n") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func slackMsgRows(msgs []chatMessage, chanName string) [][]string {
	rows := [][]string{{"MsgID", "UserID", "UserName", "Channel", "ThreadTs", "Text", "Time"}}
	for _, m := range msgs {
		rows = append(rows, []string{m.TS, slackUserID(m.User), m.User, chanName, "", m.Text, m.Time})
	}
	return rows
}

func slackChannels(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if !mentions(argStr(args, "channel_types"), "public_channel", "private_channel") {
		return text("ID,Name,Topic,Purpose,MemberCount\n"), nil
	}
	return text("%s", slackCSV(append([][]string{{"ID", "Name", "Topic", "Purpose", "MemberCount"}}, slackChannelRows()...))), nil
}

// slackNewestFirst reverses the incident chat, which data.go keeps oldest first.
func slackNewestFirst() []chatMessage {
	ms := incidentChat()
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms
}

func slackHistory(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ch := argStr(args, "channel_id")
	id := slackResolve(ch)
	switch {
	case id == "":
		return errResult("channel_not_found: %q is not a channel this user can see", ch), nil
	case id != slackIncChanID:
		return text("MsgID,UserID,UserName,Channel,ThreadTs,Text,Time\n"), nil // quiet channels in the window
	}
	return text("%s", slackCSV(slackMsgRows(slackNewestFirst(), slackChan))), nil
}

func slackReplies(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ch, ts := argStr(args, "channel_id"), argStr(args, "thread_ts")
	if slackResolve(ch) == "" {
		return errResult("channel_not_found: %q", ch), nil
	}
	for _, m := range incidentChat() {
		if m.TS == ts {
			return text("%s", slackCSV(slackMsgRows([]chatMessage{m}, slackChan))), nil
		}
	}
	return errResult("thread_not_found: no message %s in %s", ts, ch), nil
}

func slackSearch(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "search_query")
	in := argStr(args, "filter_in_channel")
	from := strings.TrimPrefix(argStr(args, "filter_users_from"), "@")
	if in != "" && slackResolve(in) != slackIncChanID {
		return text("No messages match %q in %s.", q, in), nil
	}
	var hits []chatMessage
	for _, m := range slackNewestFirst() {
		if from != "" && !strings.EqualFold(from, m.User) && from != slackUserID(m.User) {
			continue
		}
		words := strings.Fields(strings.ToLower(q))
		if len(words) > 0 && !mentions(m.Text+" "+m.User, words...) {
			continue
		}
		hits = append(hits, m)
	}
	if len(hits) == 0 {
		return text("No messages match %q.", q), nil
	}
	return text("%s", slackCSV(slackMsgRows(hits, slackChan))), nil
}

func slackUsers(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "query")
	rows := [][]string{{"UserID", "UserName", "RealName", "Title", "TimeZone"}}
	for _, u := range [][]string{
		{slackUserID(onCall), onCall, "Alex Smith", "SRE, payments on-call", "Europe/Berlin"},
		{slackUserID(badMRAuthor), badMRAuthor, "Jordan Doe", "Backend engineer, Payments", "Europe/Lisbon"},
		{slackUserID(reviewer), reviewer, "Min Lee", "Staff engineer, Payments", "Asia/Seoul"},
	} {
		if mentions(strings.Join(u, " "), q) {
			rows = append(rows, u)
		}
	}
	if len(rows) == 1 {
		return text("No users match %q.", q), nil
	}
	return text("%s", slackCSV(rows)), nil
}
