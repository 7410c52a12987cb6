package fleet

func tracingKind() kindSpec {
	return kindSpec{Tools: tracingTools}
}
