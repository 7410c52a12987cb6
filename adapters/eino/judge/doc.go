// Package judge asks a chat model whether an MCP tool definition is
// poisoned: whether its text tries to steer the agent that reads it
// (orders to the model, exfiltration, secrecy, overrides, steering the
// choice of tools, fake errors, hidden characters) beyond saying what
// the tool does.
//
// It is the second detector beside the rules and learned scorer of
// pinning, for what they cannot read: text that gives no order, such as
// a tool praising itself, a fake error or a "telemetry" parameter that
// asks for the user's prompt. It runs when a fleet is locked, not when
// tools are listed: `mcpfleet lock --judge` judges every definition the
// lock has no verdict for and records each verdict in fleet.lock beside
// the pin it was made for (config.Judgement). Pinning then reads a
// poisoned verdict as a finding of rule "judged", so listing and calling
// cost nothing more, and a changed definition has no verdict until it is
// judged again.
//
//	m, err := openai.ModelFromEnv(ctx) // any eino chat model
//	j := judge.New(m, "gpt-4.1")
//	n, errs := j.JudgeLock(ctx, lock, judge.DefaultParallel)
//
// The definition is shown to the model as canonical JSON in the user
// message, with every invisible or unusual character written as a \u
// escape, under a system message that says the definition is data and
// that text in it asking for a verdict is itself a sign of poisoning. A
// reply is one JSON object; anything else is a *ReplyError naming the
// part that is wrong. A poisoned verdict keeps the model's evidence and,
// when the evidence quotes one text of the definition, that text's field.
//
// A model can be wrong, and a definition can try to talk its judge round;
// a verdict is a review aid pinned to one hash, never a reason to skip
// the rules, which run on every list whatever the verdict.
package judge
