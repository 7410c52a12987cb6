package fleet

func prometheusKind() kindSpec {
	return kindSpec{Tools: prometheusTools}
}
