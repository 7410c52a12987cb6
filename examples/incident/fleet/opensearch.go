package fleet

func opensearchKind() kindSpec {
	return kindSpec{Tools: opensearchTools}
}
