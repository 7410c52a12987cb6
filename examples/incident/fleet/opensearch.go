package fleet

func opensearchKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
