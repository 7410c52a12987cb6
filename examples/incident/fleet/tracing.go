package fleet

func tracingKind() kindSpec {
	return kindSpec{Tools: func() []toolSpec { return nil }}
}
