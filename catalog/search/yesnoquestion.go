package search

// A change verb in a question of fact. "is the alert still open or did
// someone close it?", "does it change the models too?", "did apply X
// add anything?": "did" or "does" before the verb's subject asks whether
// the change happened, not for it. The subject is one word ("someone",
// "it", a name), a determiner and a noun ("the deploy"), or a noun and a
// name ("apply apply-8fKx"); longer runs are left alone, because the
// words carry no punctuation and "why did the deploy fail, restart it"
// asks to restart.

// factAux are the auxiliaries that open a question of fact. "do" is
// not one: "how do I install azd" asks how to install.
var factAux = map[string]bool{"did": true, "does": true}

// factQuestion reports whether the change verb ws[i] follows "did" or
// "does" and the verb's subject.
func factQuestion(ws []string, i int) bool {
	// Right after the auxiliary the word is the subject: "how many
	// resources did apply apply-8fKx add?"
	if i >= 1 && factAux[ws[i-1]] {
		return true
	}
	if i >= 2 && factAux[ws[i-2]] && !negators[ws[i-1]] && ws[i-1] != "to" {
		return true
	}
	return i >= 3 && factAux[ws[i-3]] && (determiners[ws[i-2]] || nounBefore[ws[i-2]] || ws[i-1] == nameGap)
}
