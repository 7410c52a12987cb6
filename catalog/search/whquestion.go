package search

// A change verb in a question about its object. "which regions can I
// deploy an Atlas cluster in?", "what branches can we push to?": the
// request asks which things allow the change, not for the change. A
// question that opens with "which" or "what" and a noun before the modal
// ("which regions can I …") asks for those things; "what can I restart"
// or "can we restart it" ask for the change itself.

// whObject reports whether the modal ws[m] closes a question opening
// with "which" or "what" and at least one word more: "which regions can".
func whObject(ws []string, m int) bool {
	return m >= 2 && (ws[0] == "which" || ws[0] == "what")
}
