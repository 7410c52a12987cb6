package fleet

// slackKind is the simulated slack kind (stub; filled in next).
func slackKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
