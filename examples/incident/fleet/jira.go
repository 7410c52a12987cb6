package fleet

// jiraKind is the simulated jira kind (stub; filled in next).
func jiraKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
