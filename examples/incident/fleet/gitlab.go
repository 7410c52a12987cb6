package fleet

func gitlabKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
