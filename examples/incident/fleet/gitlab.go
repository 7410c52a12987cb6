package fleet

func gitlabKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return append(append(gitlabTools(), gitlabTools2()...), gitlabTools3()...) }}
}
